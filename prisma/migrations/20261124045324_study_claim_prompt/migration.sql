-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "claimPrompt" TEXT NOT NULL DEFAULT '';

