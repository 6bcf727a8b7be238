-- AlterEnum
ALTER TYPE "AnnotationKind" ADD VALUE 'CONSENSUS';

-- AlterTable
ALTER TABLE "Study" ADD COLUMN "stageOrder" BOOLEAN;

-- CreateTable
CREATE TABLE "Consensus" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "task" "TaskType" NOT NULL,
    "itemId" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "fromValues" JSONB NOT NULL DEFAULT '{}',
    "decidedById" TEXT,
    "decidedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "version" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "Consensus_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Consensus_task_itemId_question_key" ON "Consensus"("task", "itemId", "question");

-- CreateIndex
CREATE INDEX "Consensus_studyId_task_idx" ON "Consensus"("studyId", "task");

-- CreateIndex
CREATE INDEX "Consensus_decidedById_idx" ON "Consensus"("decidedById");

-- AddForeignKey
ALTER TABLE "Consensus" ADD CONSTRAINT "Consensus_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Consensus" ADD CONSTRAINT "Consensus_decidedById_fkey" FOREIGN KEY ("decidedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
