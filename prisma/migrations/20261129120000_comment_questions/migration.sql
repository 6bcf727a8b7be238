-- AlterEnum
ALTER TYPE "TaskType" ADD VALUE 'COMMENT_QUESTIONS';

-- AlterEnum
ALTER TYPE "AnnotationKind" ADD VALUE 'COMMENT_ANSWERS' AFTER 'COMMENT_FILTER';

-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "commentQuestions" JSONB;

-- AlterTable
ALTER TABLE "ReviewComment" ADD COLUMN     "testPath" TEXT,
ADD COLUMN     "testText" TEXT;

-- CreateTable
CREATE TABLE "CommentAnswers" (
    "id" TEXT NOT NULL,
    "annotatorId" TEXT NOT NULL,
    "reviewCommentId" TEXT NOT NULL,
    "answers" JSONB NOT NULL DEFAULT '{}',
    "notes" JSONB NOT NULL DEFAULT '{}',
    "timeSpentMs" INTEGER DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "importRunId" TEXT,
    "importedFile" TEXT,

    CONSTRAINT "CommentAnswers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CommentAnswers_reviewCommentId_idx" ON "CommentAnswers"("reviewCommentId");

-- CreateIndex
CREATE INDEX "CommentAnswers_importRunId_idx" ON "CommentAnswers"("importRunId");

-- CreateIndex
CREATE UNIQUE INDEX "CommentAnswers_annotatorId_reviewCommentId_key" ON "CommentAnswers"("annotatorId", "reviewCommentId");

-- AddForeignKey
ALTER TABLE "CommentAnswers" ADD CONSTRAINT "CommentAnswers_annotatorId_fkey" FOREIGN KEY ("annotatorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CommentAnswers" ADD CONSTRAINT "CommentAnswers_reviewCommentId_fkey" FOREIGN KEY ("reviewCommentId") REFERENCES "ReviewComment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CommentAnswers" ADD CONSTRAINT "CommentAnswers_importRunId_fkey" FOREIGN KEY ("importRunId") REFERENCES "ImportRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;
