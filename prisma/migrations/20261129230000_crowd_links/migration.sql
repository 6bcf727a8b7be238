-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "crowdCompletionCode" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "crowdCompletionUrl" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "crowdOpen" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "crowdQuota" INTEGER NOT NULL DEFAULT 10,
ADD COLUMN     "crowdReleaseMinutes" INTEGER NOT NULL DEFAULT 60;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "crowdId" TEXT,
ADD COLUMN     "crowdPlatform" TEXT,
ADD COLUMN     "crowdSeenAt" TIMESTAMP(3),
ADD COLUMN     "crowdStudyId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "User_crowdStudyId_crowdPlatform_crowdId_key" ON "User"("crowdStudyId", "crowdPlatform", "crowdId");
