-- CreateTable
CREATE TABLE "MatcherRun" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "matcher" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "params" JSONB NOT NULL DEFAULT '{}',
    "status" "JobStatus" NOT NULL DEFAULT 'QUEUED',
    "pairs" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "MatcherRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MatcherMatch" (
    "runId" TEXT NOT NULL,
    "reviewCommentId" TEXT NOT NULL,
    "humanCommentId" TEXT NOT NULL,

    CONSTRAINT "MatcherMatch_pkey" PRIMARY KEY ("runId","reviewCommentId","humanCommentId")
);

-- CreateIndex
CREATE INDEX "MatcherRun_studyId_idx" ON "MatcherRun"("studyId");

-- CreateIndex
CREATE INDEX "MatcherRun_createdById_idx" ON "MatcherRun"("createdById");

-- CreateIndex
CREATE INDEX "MatcherMatch_reviewCommentId_idx" ON "MatcherMatch"("reviewCommentId");

-- CreateIndex
CREATE INDEX "MatcherMatch_humanCommentId_idx" ON "MatcherMatch"("humanCommentId");

-- AddForeignKey
ALTER TABLE "MatcherRun" ADD CONSTRAINT "MatcherRun_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MatcherRun" ADD CONSTRAINT "MatcherRun_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MatcherMatch" ADD CONSTRAINT "MatcherMatch_runId_fkey" FOREIGN KEY ("runId") REFERENCES "MatcherRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MatcherMatch" ADD CONSTRAINT "MatcherMatch_reviewCommentId_fkey" FOREIGN KEY ("reviewCommentId") REFERENCES "ReviewComment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MatcherMatch" ADD CONSTRAINT "MatcherMatch_humanCommentId_fkey" FOREIGN KEY ("humanCommentId") REFERENCES "ReviewComment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
