-- CreateTable
CREATE TABLE "PromptTemplate" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "task" "TaskType" NOT NULL,
    "question" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "preset" TEXT NOT NULL DEFAULT '',
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PromptTemplate_pkey" PRIMARY KEY ("id")
);

-- The prompts of the runs made before: one version per (study, task, question, text).
INSERT INTO "PromptTemplate" ("id", "studyId", "task", "question", "version", "text")
SELECT DISTINCT ON ("studyId", "task", "question", "promptVersion") 'pt' || md5("studyId" || "task" || "question" || "promptVersion"), "studyId", "task", "question", "promptVersion", "prompt"
FROM "JudgeRun";

-- AlterTable
ALTER TABLE "JudgeRun" ADD COLUMN     "promptId" TEXT;
UPDATE "JudgeRun" r SET "promptId" = p."id" FROM "PromptTemplate" p
WHERE p."studyId" = r."studyId" AND p."task" = r."task" AND p."question" = r."question" AND p."version" = r."promptVersion";
ALTER TABLE "JudgeRun" ALTER COLUMN "promptId" SET NOT NULL;
ALTER TABLE "JudgeRun" DROP COLUMN "prompt";

-- CreateIndex
CREATE INDEX "PromptTemplate_createdById_idx" ON "PromptTemplate"("createdById");

-- CreateIndex
CREATE UNIQUE INDEX "PromptTemplate_studyId_task_question_version_key" ON "PromptTemplate"("studyId", "task", "question", "version");

-- CreateIndex
CREATE INDEX "JudgeRun_promptId_idx" ON "JudgeRun"("promptId");

-- AddForeignKey
ALTER TABLE "JudgeRun" ADD CONSTRAINT "JudgeRun_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES "PromptTemplate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PromptTemplate" ADD CONSTRAINT "PromptTemplate_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PromptTemplate" ADD CONSTRAINT "PromptTemplate_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
