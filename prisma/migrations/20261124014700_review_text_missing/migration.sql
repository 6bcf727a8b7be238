-- A review imported without its text (an empty cell or an Excel error value such as #VALUE!,
-- issue 11): it keeps its grades, and metric runs and correlations leave it out.
ALTER TABLE "CandidateReview" ADD COLUMN "textMissing" BOOLEAN NOT NULL DEFAULT false;
