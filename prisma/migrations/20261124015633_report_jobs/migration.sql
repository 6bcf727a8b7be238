-- CreateTable
CREATE TABLE "ReportJob" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "options" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" "JobStatus" NOT NULL DEFAULT 'QUEUED',
    "report" JSONB,
    "error" TEXT,
    "computeMs" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ReportJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ReportJob_studyId_kind_options_fingerprint_key" ON "ReportJob"("studyId", "kind", "options", "fingerprint");

-- AddForeignKey
ALTER TABLE "ReportJob" ADD CONSTRAINT "ReportJob_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;
