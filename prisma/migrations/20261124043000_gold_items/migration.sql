-- Gold items and attention checks (issue 12, item 6): known answers are consensus values marked
-- gold; the study sets how many gold items each queue gets, the accuracy below which an
-- annotator is flagged and the seconds under which a finished item is too fast; a lead may
-- pause an annotator of the study.
ALTER TABLE "Study" ADD COLUMN "goldPerQueue" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "goldMinAccuracy" DOUBLE PRECISION NOT NULL DEFAULT 0.8,
ADD COLUMN "minSecondsPerItem" INTEGER NOT NULL DEFAULT 10;

ALTER TABLE "StudyMember" ADD COLUMN "pausedAt" TIMESTAMP(3),
ADD COLUMN "pauseReason" TEXT NOT NULL DEFAULT '';

ALTER TABLE "Consensus" ADD COLUMN "gold" BOOLEAN NOT NULL DEFAULT false;

CREATE INDEX "Consensus_studyId_gold_idx" ON "Consensus"("studyId", "gold");
