-- Imported work is marked as imported (issue 9): annotations written by an import keep the run
-- (who imported them, when) and the file; their history rows have the action IMPORT.
ALTER TYPE "HistoryAction" ADD VALUE 'IMPORT' AFTER 'UPDATE';

ALTER TABLE "AnnotationHistory" ADD COLUMN "importRunId" TEXT;

ALTER TABLE "ClaimJudgement" ADD COLUMN "importRunId" TEXT, ADD COLUMN "importedFile" TEXT;
CREATE INDEX "ClaimJudgement_importRunId_idx" ON "ClaimJudgement"("importRunId");
ALTER TABLE "ClaimJudgement" ADD CONSTRAINT "ClaimJudgement_importRunId_fkey" FOREIGN KEY ("importRunId") REFERENCES "ImportRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "ReviewRating" ADD COLUMN "importRunId" TEXT, ADD COLUMN "importedFile" TEXT;
CREATE INDEX "ReviewRating_importRunId_idx" ON "ReviewRating"("importRunId");
ALTER TABLE "ReviewRating" ADD CONSTRAINT "ReviewRating_importRunId_fkey" FOREIGN KEY ("importRunId") REFERENCES "ImportRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "ReferenceGrade" ADD COLUMN "importRunId" TEXT, ADD COLUMN "importedFile" TEXT;
CREATE INDEX "ReferenceGrade_importRunId_idx" ON "ReferenceGrade"("importRunId");
ALTER TABLE "ReferenceGrade" ADD CONSTRAINT "ReferenceGrade_importRunId_fkey" FOREIGN KEY ("importRunId") REFERENCES "ImportRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "CommentFilterLabel" ADD COLUMN "importRunId" TEXT, ADD COLUMN "importedFile" TEXT;
CREATE INDEX "CommentFilterLabel_importRunId_idx" ON "CommentFilterLabel"("importRunId");
ALTER TABLE "CommentFilterLabel" ADD CONSTRAINT "CommentFilterLabel_importRunId_fkey" FOREIGN KEY ("importRunId") REFERENCES "ImportRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

