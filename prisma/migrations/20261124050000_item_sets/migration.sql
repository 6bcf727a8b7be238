-- Item sets (issue 11): named sets of a study's items (the assignment plan's reliability set,
-- calibration batches, held-out sets, files of external ids) that reports can be restricted to.
CREATE TYPE "ItemSetKind" AS ENUM ('RELIABILITY', 'CALIBRATION', 'HELD_OUT', 'CUSTOM');

CREATE TABLE "ItemSet" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "ItemSetKind" NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "source" TEXT NOT NULL DEFAULT '',
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ItemSet_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "ItemSetMember" (
    "id" TEXT NOT NULL,
    "itemSetId" TEXT NOT NULL,
    "codeChangeId" TEXT NOT NULL,
    "candidateReviewId" TEXT,
    "pseudoReferenceId" TEXT,
    "position" INTEGER NOT NULL,

    CONSTRAINT "ItemSetMember_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "ItemSet_studyId_name_key" ON "ItemSet"("studyId", "name");
CREATE INDEX "ItemSet_createdById_idx" ON "ItemSet"("createdById");
CREATE UNIQUE INDEX "ItemSetMember_itemSetId_position_key" ON "ItemSetMember"("itemSetId", "position");
CREATE INDEX "ItemSetMember_codeChangeId_idx" ON "ItemSetMember"("codeChangeId");
CREATE INDEX "ItemSetMember_candidateReviewId_idx" ON "ItemSetMember"("candidateReviewId");
CREATE INDEX "ItemSetMember_pseudoReferenceId_idx" ON "ItemSetMember"("pseudoReferenceId");

ALTER TABLE "ItemSet" ADD CONSTRAINT "ItemSet_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "ItemSet" ADD CONSTRAINT "ItemSet_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "ItemSetMember" ADD CONSTRAINT "ItemSetMember_itemSetId_fkey" FOREIGN KEY ("itemSetId") REFERENCES "ItemSet"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "ItemSetMember" ADD CONSTRAINT "ItemSetMember_codeChangeId_fkey" FOREIGN KEY ("codeChangeId") REFERENCES "CodeChange"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "ItemSetMember" ADD CONSTRAINT "ItemSetMember_candidateReviewId_fkey" FOREIGN KEY ("candidateReviewId") REFERENCES "CandidateReview"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "ItemSetMember" ADD CONSTRAINT "ItemSetMember_pseudoReferenceId_fkey" FOREIGN KEY ("pseudoReferenceId") REFERENCES "PseudoReference"("id") ON DELETE CASCADE ON UPDATE CASCADE;
