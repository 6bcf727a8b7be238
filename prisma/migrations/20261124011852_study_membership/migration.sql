-- Study membership (issue 9): a member's role in one study is LEAD or ANNOTATOR, whatever the
-- account's role; studies without an owner belong to the first lead; everyone who holds an
-- assignment in a study is a member of it, so annotators keep their queues.

CREATE TYPE "StudyRole" AS ENUM ('LEAD', 'ANNOTATOR');

ALTER TABLE "StudyMember"
  ALTER COLUMN "role" TYPE "StudyRole"
  USING (CASE WHEN "role"::text = 'ANNOTATOR' THEN 'ANNOTATOR' ELSE 'LEAD' END)::"StudyRole";

UPDATE "Study"
SET "createdById" = (SELECT "id" FROM "User" WHERE "role" = 'LEAD' ORDER BY "createdAt", "id" LIMIT 1)
WHERE "createdById" IS NULL;

INSERT INTO "StudyMember" ("studyId", "userId", "role")
SELECT DISTINCT "studyId", "userId", 'ANNOTATOR'::"StudyRole" FROM "Assignment"
ON CONFLICT DO NOTHING;
