-- CreateEnum
CREATE TYPE "TestStatus" AS ENUM ('PASSED', 'FAILED', 'ERROR', 'SKIPPED');

-- CreateTable
CREATE TABLE "TestOutcome" (
    "id" TEXT NOT NULL,
    "pullRequestId" TEXT NOT NULL,
    "system" TEXT NOT NULL,
    "testId" TEXT NOT NULL,
    "status" "TestStatus" NOT NULL,
    "durationSeconds" DOUBLE PRECISION,
    "message" TEXT NOT NULL DEFAULT '',
    "reviewCommentId" TEXT,
    "importRunId" TEXT,
    "importedFile" TEXT NOT NULL DEFAULT '',
    "importedLine" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TestOutcome_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TestOutcome_reviewCommentId_idx" ON "TestOutcome"("reviewCommentId");

-- CreateIndex
CREATE INDEX "TestOutcome_importRunId_idx" ON "TestOutcome"("importRunId");

-- CreateIndex
CREATE UNIQUE INDEX "TestOutcome_pullRequestId_system_testId_key" ON "TestOutcome"("pullRequestId", "system", "testId");

-- AddForeignKey
ALTER TABLE "TestOutcome" ADD CONSTRAINT "TestOutcome_pullRequestId_fkey" FOREIGN KEY ("pullRequestId") REFERENCES "PullRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TestOutcome" ADD CONSTRAINT "TestOutcome_reviewCommentId_fkey" FOREIGN KEY ("reviewCommentId") REFERENCES "ReviewComment"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TestOutcome" ADD CONSTRAINT "TestOutcome_importRunId_fkey" FOREIGN KEY ("importRunId") REFERENCES "ImportRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

