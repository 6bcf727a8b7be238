-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "qualificationConsent" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "qualificationGoldItems" INTEGER NOT NULL DEFAULT 3,
ADD COLUMN     "qualificationMaxAttempts" INTEGER NOT NULL DEFAULT 2,
ADD COLUMN     "qualificationPassMark" DOUBLE PRECISION NOT NULL DEFAULT 0.8,
ADD COLUMN     "qualificationRequired" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "StudyMember" ADD COLUMN     "consentedAt" TIMESTAMP(3),
ADD COLUMN     "guidelinesReadAt" TIMESTAMP(3),
ADD COLUMN     "qualificationAnswers" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "qualificationAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "qualificationFailedAt" TIMESTAMP(3),
ADD COLUMN     "qualificationScore" DOUBLE PRECISION,
ADD COLUMN     "qualifiedAt" TIMESTAMP(3);
