-- AlterTable
ALTER TABLE "PseudoReference" ADD COLUMN     "metadata" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "PseudoReferenceRun" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "params" JSONB NOT NULL DEFAULT '{}',
    "status" "JobStatus" NOT NULL DEFAULT 'QUEUED',
    "total" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "PseudoReferenceRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PseudoReferenceRunItem" (
    "runId" TEXT NOT NULL,
    "codeChangeId" TEXT NOT NULL,
    "created" INTEGER NOT NULL,
    "detail" JSONB NOT NULL DEFAULT '{}',
    "finishedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PseudoReferenceRunItem_pkey" PRIMARY KEY ("runId","codeChangeId")
);

-- CreateIndex
CREATE INDEX "PseudoReferenceRun_studyId_idx" ON "PseudoReferenceRun"("studyId");

-- CreateIndex
CREATE INDEX "PseudoReferenceRun_createdById_idx" ON "PseudoReferenceRun"("createdById");

-- CreateIndex
CREATE INDEX "PseudoReferenceRunItem_codeChangeId_idx" ON "PseudoReferenceRunItem"("codeChangeId");

-- AddForeignKey
ALTER TABLE "PseudoReferenceRun" ADD CONSTRAINT "PseudoReferenceRun_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PseudoReferenceRun" ADD CONSTRAINT "PseudoReferenceRun_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PseudoReferenceRunItem" ADD CONSTRAINT "PseudoReferenceRunItem_runId_fkey" FOREIGN KEY ("runId") REFERENCES "PseudoReferenceRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PseudoReferenceRunItem" ADD CONSTRAINT "PseudoReferenceRunItem_codeChangeId_fkey" FOREIGN KEY ("codeChangeId") REFERENCES "CodeChange"("id") ON DELETE CASCADE ON UPDATE CASCADE;

