-- Time spent is unknown (null) for annotations an import wrote without a time; imports
-- stored 0 for those until now.
ALTER TABLE "ClaimJudgement" ALTER COLUMN "timeSpentMs" DROP NOT NULL;
ALTER TABLE "ReviewRating" ALTER COLUMN "timeSpentMs" DROP NOT NULL;
ALTER TABLE "ReferenceGrade" ALTER COLUMN "timeSpentMs" DROP NOT NULL;
ALTER TABLE "CommentFilterLabel" ALTER COLUMN "timeSpentMs" DROP NOT NULL;

UPDATE "ClaimJudgement" SET "timeSpentMs" = NULL WHERE "timeSpentMs" = 0 AND "importedFile" IS NOT NULL;
UPDATE "ReviewRating" SET "timeSpentMs" = NULL WHERE "timeSpentMs" = 0 AND "importedFile" IS NOT NULL;
UPDATE "ReferenceGrade" SET "timeSpentMs" = NULL WHERE "timeSpentMs" = 0 AND "importedFile" IS NOT NULL;
UPDATE "CommentFilterLabel" SET "timeSpentMs" = NULL WHERE "timeSpentMs" = 0 AND "importedFile" IS NOT NULL;
