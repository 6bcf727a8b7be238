-- CreateEnum
CREATE TYPE "FileStatus" AS ENUM ('ADDED', 'MODIFIED', 'DELETED', 'RENAMED');

-- CreateEnum
CREATE TYPE "DiffSide" AS ENUM ('LEFT', 'RIGHT');

-- AlterTable
ALTER TABLE "PullRequest" ADD COLUMN     "baseSha" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "headSha" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "mergeBaseSha" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "url" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "CodeChange" ADD COLUMN     "binary" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "oldPath" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "status" "FileStatus";

-- CreateTable
CREATE TABLE "ReviewComment" (
    "id" TEXT NOT NULL,
    "pullRequestId" TEXT NOT NULL,
    "codeChangeId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "side" "DiffSide",
    "startSide" "DiffSide",
    "startLine" INTEGER,
    "line" INTEGER,
    "body" TEXT NOT NULL,
    "system" TEXT NOT NULL,
    "author" TEXT NOT NULL DEFAULT '',
    "inReplyToId" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "position" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewComment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ReviewComment_codeChangeId_idx" ON "ReviewComment"("codeChangeId");

-- CreateIndex
CREATE INDEX "ReviewComment_inReplyToId_idx" ON "ReviewComment"("inReplyToId");

-- CreateIndex
CREATE INDEX "ReviewComment_pullRequestId_position_idx" ON "ReviewComment"("pullRequestId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewComment_pullRequestId_externalId_key" ON "ReviewComment"("pullRequestId", "externalId");

-- AddForeignKey
ALTER TABLE "ReviewComment" ADD CONSTRAINT "ReviewComment_pullRequestId_fkey" FOREIGN KEY ("pullRequestId") REFERENCES "PullRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewComment" ADD CONSTRAINT "ReviewComment_codeChangeId_fkey" FOREIGN KEY ("codeChangeId") REFERENCES "CodeChange"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewComment" ADD CONSTRAINT "ReviewComment_inReplyToId_fkey" FOREIGN KEY ("inReplyToId") REFERENCES "ReviewComment"("id") ON DELETE SET NULL ON UPDATE CASCADE;

