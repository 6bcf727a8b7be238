-- CreateEnum
CREATE TYPE "AccountKind" AS ENUM ('PERSON', 'JUDGE');

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "kind" "AccountKind" NOT NULL DEFAULT 'PERSON';

-- CreateTable
CREATE TABLE "JudgeRun" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "judgeId" TEXT NOT NULL,
    "task" "TaskType" NOT NULL,
    "question" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "promptVersion" TEXT NOT NULL,
    "prompt" TEXT NOT NULL,
    "temperature" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "seed" INTEGER,
    "trials" INTEGER NOT NULL DEFAULT 1,
    "concurrency" INTEGER NOT NULL DEFAULT 4,
    "inConsensus" BOOLEAN NOT NULL DEFAULT false,
    "budgetUsd" DOUBLE PRECISION,
    "budgetTokens" INTEGER,
    "status" "JobStatus" NOT NULL DEFAULT 'QUEUED',
    "total" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "JudgeRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JudgeAnswer" (
    "runId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "raw" JSONB NOT NULL DEFAULT '[]',
    "value" JSONB,
    "error" TEXT,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DOUBLE PRECISION,
    "latencyMs" INTEGER NOT NULL DEFAULT 0,
    "cached" BOOLEAN NOT NULL DEFAULT false,
    "finishedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "JudgeAnswer_pkey" PRIMARY KEY ("runId","itemId")
);

-- CreateIndex
CREATE INDEX "JudgeRun_studyId_idx" ON "JudgeRun"("studyId");

-- CreateIndex
CREATE INDEX "JudgeRun_judgeId_idx" ON "JudgeRun"("judgeId");

-- CreateIndex
CREATE INDEX "JudgeRun_createdById_idx" ON "JudgeRun"("createdById");

-- AddForeignKey
ALTER TABLE "JudgeRun" ADD CONSTRAINT "JudgeRun_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgeRun" ADD CONSTRAINT "JudgeRun_judgeId_fkey" FOREIGN KEY ("judgeId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgeRun" ADD CONSTRAINT "JudgeRun_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgeAnswer" ADD CONSTRAINT "JudgeAnswer_runId_fkey" FOREIGN KEY ("runId") REFERENCES "JudgeRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
