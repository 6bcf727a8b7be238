-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('ADMIN', 'LEAD', 'ANNOTATOR');

-- CreateEnum
CREATE TYPE "TaskType" AS ENUM ('CLAIM_VERIFICATION', 'REVIEW_RATING', 'REFERENCE_GRADING', 'COMMENT_FILTERING');

-- CreateEnum
CREATE TYPE "PseudoReferenceKind" AS ENUM ('CLAIM', 'IMPLICATION', 'SMELL', 'ANNOTATOR_ADDED');

-- CreateEnum
CREATE TYPE "ClaimCode" AS ENUM ('CORRECT', 'INCORRECT', 'UNVERIFIABLE', 'AMBIGUOUS', 'INCOMPLETE');

-- CreateEnum
CREATE TYPE "ClaimErrorType" AS ENUM ('COMPREHENSION', 'KNOWLEDGE', 'REASONING', 'LOCALIZATION', 'OVER_GENERALIZATION');

-- CreateEnum
CREATE TYPE "AssignmentStatus" AS ENUM ('PENDING', 'IN_PROGRESS', 'DONE', 'SKIPPED');

-- CreateEnum
CREATE TYPE "ConsolidationAction" AS ENUM ('KEEP', 'REPLACE', 'DROP');

-- CreateEnum
CREATE TYPE "AnnotationKind" AS ENUM ('CLAIM_JUDGEMENT', 'REVIEW_RATING', 'REFERENCE_GRADE', 'COMMENT_FILTER', 'PSEUDO_REFERENCE', 'CONSOLIDATION');

-- CreateEnum
CREATE TYPE "HistoryAction" AS ENUM ('CREATE', 'UPDATE', 'DELETE', 'CONFLICT');

-- CreateEnum
CREATE TYPE "JobStatus" AS ENUM ('QUEUED', 'RUNNING', 'DONE', 'FAILED');

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "passwordHash" TEXT,
    "role" "Role" NOT NULL DEFAULT 'ANNOTATOR',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "failedLoginCount" INTEGER NOT NULL DEFAULT 0,
    "lastFailedLoginAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Study" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "guidelines" TEXT NOT NULL DEFAULT '',
    "taskTypes" "TaskType"[],
    "likertDimensions" TEXT[] DEFAULT ARRAY['conciseness', 'comprehensiveness', 'relevance']::TEXT[],
    "likertMin" INTEGER NOT NULL DEFAULT 1,
    "likertMax" INTEGER NOT NULL DEFAULT 5,
    "annotatorsPerItem" INTEGER NOT NULL DEFAULT 2,
    "reliabilitySetSize" INTEGER NOT NULL DEFAULT 0,
    "hideSystemNames" BOOLEAN NOT NULL DEFAULT true,
    "assignmentSeed" INTEGER NOT NULL DEFAULT 1,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Study_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StudyMember" (
    "studyId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StudyMember_pkey" PRIMARY KEY ("studyId","userId")
);

-- CreateTable
CREATE TABLE "PullRequest" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "repository" TEXT NOT NULL DEFAULT '',
    "title" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PullRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CodeChange" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "pullRequestId" TEXT,
    "filePath" TEXT NOT NULL DEFAULT '',
    "language" TEXT NOT NULL,
    "diff" TEXT NOT NULL,
    "oldFile" TEXT NOT NULL DEFAULT '',
    "newFile" TEXT NOT NULL DEFAULT '',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "position" INTEGER NOT NULL DEFAULT 0,
    "consolidatedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CodeChange_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PseudoReference" (
    "id" TEXT NOT NULL,
    "codeChangeId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "kind" "PseudoReferenceKind" NOT NULL,
    "source" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "necessary" BOOLEAN,
    "addedById" TEXT,
    "correctsId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "PseudoReference_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CandidateReview" (
    "id" TEXT NOT NULL,
    "codeChangeId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "system" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "isReference" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CandidateReview_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Assignment" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "codeChangeId" TEXT NOT NULL,
    "taskType" "TaskType" NOT NULL,
    "status" "AssignmentStatus" NOT NULL DEFAULT 'PENDING',
    "position" INTEGER NOT NULL,
    "inReliabilitySet" BOOLEAN NOT NULL DEFAULT false,
    "skipReason" TEXT,
    "timeSpentMs" INTEGER NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Assignment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ClaimJudgement" (
    "id" TEXT NOT NULL,
    "annotatorId" TEXT NOT NULL,
    "pseudoReferenceId" TEXT NOT NULL,
    "code" "ClaimCode",
    "necessary" BOOLEAN,
    "errorType" "ClaimErrorType",
    "note" TEXT NOT NULL DEFAULT '',
    "timeSpentMs" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ClaimJudgement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewRating" (
    "id" TEXT NOT NULL,
    "annotatorId" TEXT NOT NULL,
    "candidateReviewId" TEXT NOT NULL,
    "scores" JSONB NOT NULL DEFAULT '{}',
    "comment" TEXT NOT NULL DEFAULT '',
    "timeSpentMs" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReviewRating_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewClaimLink" (
    "ratingId" TEXT NOT NULL,
    "pseudoReferenceId" TEXT NOT NULL,
    "partial" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "ReviewClaimLink_pkey" PRIMARY KEY ("ratingId","pseudoReferenceId")
);

-- CreateTable
CREATE TABLE "ReferenceGrade" (
    "id" TEXT NOT NULL,
    "annotatorId" TEXT NOT NULL,
    "candidateReviewId" TEXT NOT NULL,
    "grade" INTEGER NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "timeSpentMs" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReferenceGrade_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CommentFilterLabel" (
    "id" TEXT NOT NULL,
    "annotatorId" TEXT NOT NULL,
    "candidateReviewId" TEXT NOT NULL,
    "highQuality" BOOLEAN NOT NULL,
    "justification" TEXT NOT NULL DEFAULT '',
    "timeSpentMs" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CommentFilterLabel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConsolidationDecision" (
    "id" TEXT NOT NULL,
    "codeChangeId" TEXT NOT NULL,
    "pseudoReferenceId" TEXT NOT NULL,
    "action" "ConsolidationAction" NOT NULL,
    "replacementText" TEXT,
    "decidedById" TEXT NOT NULL,
    "decidedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConsolidationDecision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MetricScore" (
    "id" TEXT NOT NULL,
    "candidateReviewId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "paramsKey" TEXT NOT NULL DEFAULT '',
    "value" DOUBLE PRECISION,
    "detail" JSONB,
    "computedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MetricScore_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EmbeddingCache" (
    "model" TEXT NOT NULL,
    "textHash" TEXT NOT NULL,
    "vector" DOUBLE PRECISION[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EmbeddingCache_pkey" PRIMARY KEY ("model","textHash")
);

-- CreateTable
CREATE TABLE "MetricRun" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "metrics" TEXT[],
    "params" JSONB NOT NULL DEFAULT '{}',
    "status" "JobStatus" NOT NULL DEFAULT 'QUEUED',
    "total" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "MetricRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ImportRun" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "files" TEXT[],
    "summary" JSONB NOT NULL DEFAULT '{}',
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ImportRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnnotationHistory" (
    "id" BIGSERIAL NOT NULL,
    "kind" "AnnotationKind" NOT NULL,
    "annotationId" TEXT NOT NULL,
    "userId" TEXT,
    "action" "HistoryAction" NOT NULL,
    "baseVersion" INTEGER,
    "oldValue" JSONB,
    "newValue" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AnnotationHistory_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Study_slug_key" ON "Study"("slug");

-- CreateIndex
CREATE INDEX "Study_createdById_idx" ON "Study"("createdById");

-- CreateIndex
CREATE INDEX "StudyMember_userId_idx" ON "StudyMember"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "PullRequest_studyId_externalId_key" ON "PullRequest"("studyId", "externalId");

-- CreateIndex
CREATE INDEX "CodeChange_pullRequestId_idx" ON "CodeChange"("pullRequestId");

-- CreateIndex
CREATE INDEX "CodeChange_studyId_position_idx" ON "CodeChange"("studyId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "CodeChange_studyId_externalId_key" ON "CodeChange"("studyId", "externalId");

-- CreateIndex
CREATE INDEX "PseudoReference_addedById_idx" ON "PseudoReference"("addedById");

-- CreateIndex
CREATE INDEX "PseudoReference_correctsId_idx" ON "PseudoReference"("correctsId");

-- CreateIndex
CREATE UNIQUE INDEX "PseudoReference_codeChangeId_externalId_key" ON "PseudoReference"("codeChangeId", "externalId");

-- CreateIndex
CREATE INDEX "CandidateReview_system_idx" ON "CandidateReview"("system");

-- CreateIndex
CREATE UNIQUE INDEX "CandidateReview_codeChangeId_externalId_key" ON "CandidateReview"("codeChangeId", "externalId");

-- CreateIndex
CREATE INDEX "Assignment_studyId_userId_position_idx" ON "Assignment"("studyId", "userId", "position");

-- CreateIndex
CREATE INDEX "Assignment_codeChangeId_idx" ON "Assignment"("codeChangeId");

-- CreateIndex
CREATE UNIQUE INDEX "Assignment_userId_codeChangeId_taskType_key" ON "Assignment"("userId", "codeChangeId", "taskType");

-- CreateIndex
CREATE INDEX "ClaimJudgement_pseudoReferenceId_idx" ON "ClaimJudgement"("pseudoReferenceId");

-- CreateIndex
CREATE UNIQUE INDEX "ClaimJudgement_annotatorId_pseudoReferenceId_key" ON "ClaimJudgement"("annotatorId", "pseudoReferenceId");

-- CreateIndex
CREATE INDEX "ReviewRating_candidateReviewId_idx" ON "ReviewRating"("candidateReviewId");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewRating_annotatorId_candidateReviewId_key" ON "ReviewRating"("annotatorId", "candidateReviewId");

-- CreateIndex
CREATE INDEX "ReviewClaimLink_pseudoReferenceId_idx" ON "ReviewClaimLink"("pseudoReferenceId");

-- CreateIndex
CREATE INDEX "ReferenceGrade_candidateReviewId_idx" ON "ReferenceGrade"("candidateReviewId");

-- CreateIndex
CREATE UNIQUE INDEX "ReferenceGrade_annotatorId_candidateReviewId_key" ON "ReferenceGrade"("annotatorId", "candidateReviewId");

-- CreateIndex
CREATE INDEX "CommentFilterLabel_candidateReviewId_idx" ON "CommentFilterLabel"("candidateReviewId");

-- CreateIndex
CREATE UNIQUE INDEX "CommentFilterLabel_annotatorId_candidateReviewId_key" ON "CommentFilterLabel"("annotatorId", "candidateReviewId");

-- CreateIndex
CREATE UNIQUE INDEX "ConsolidationDecision_pseudoReferenceId_key" ON "ConsolidationDecision"("pseudoReferenceId");

-- CreateIndex
CREATE INDEX "ConsolidationDecision_codeChangeId_idx" ON "ConsolidationDecision"("codeChangeId");

-- CreateIndex
CREATE INDEX "ConsolidationDecision_decidedById_idx" ON "ConsolidationDecision"("decidedById");

-- CreateIndex
CREATE INDEX "MetricScore_metric_paramsKey_idx" ON "MetricScore"("metric", "paramsKey");

-- CreateIndex
CREATE UNIQUE INDEX "MetricScore_candidateReviewId_metric_paramsKey_key" ON "MetricScore"("candidateReviewId", "metric", "paramsKey");

-- CreateIndex
CREATE INDEX "MetricRun_studyId_idx" ON "MetricRun"("studyId");

-- CreateIndex
CREATE INDEX "MetricRun_createdById_idx" ON "MetricRun"("createdById");

-- CreateIndex
CREATE INDEX "ImportRun_studyId_idx" ON "ImportRun"("studyId");

-- CreateIndex
CREATE INDEX "ImportRun_createdById_idx" ON "ImportRun"("createdById");

-- CreateIndex
CREATE INDEX "AnnotationHistory_kind_annotationId_idx" ON "AnnotationHistory"("kind", "annotationId");

-- CreateIndex
CREATE INDEX "AnnotationHistory_userId_idx" ON "AnnotationHistory"("userId");

-- AddForeignKey
ALTER TABLE "Study" ADD CONSTRAINT "Study_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StudyMember" ADD CONSTRAINT "StudyMember_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StudyMember" ADD CONSTRAINT "StudyMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PullRequest" ADD CONSTRAINT "PullRequest_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CodeChange" ADD CONSTRAINT "CodeChange_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CodeChange" ADD CONSTRAINT "CodeChange_pullRequestId_fkey" FOREIGN KEY ("pullRequestId") REFERENCES "PullRequest"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PseudoReference" ADD CONSTRAINT "PseudoReference_codeChangeId_fkey" FOREIGN KEY ("codeChangeId") REFERENCES "CodeChange"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PseudoReference" ADD CONSTRAINT "PseudoReference_addedById_fkey" FOREIGN KEY ("addedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PseudoReference" ADD CONSTRAINT "PseudoReference_correctsId_fkey" FOREIGN KEY ("correctsId") REFERENCES "PseudoReference"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CandidateReview" ADD CONSTRAINT "CandidateReview_codeChangeId_fkey" FOREIGN KEY ("codeChangeId") REFERENCES "CodeChange"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_codeChangeId_fkey" FOREIGN KEY ("codeChangeId") REFERENCES "CodeChange"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ClaimJudgement" ADD CONSTRAINT "ClaimJudgement_annotatorId_fkey" FOREIGN KEY ("annotatorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ClaimJudgement" ADD CONSTRAINT "ClaimJudgement_pseudoReferenceId_fkey" FOREIGN KEY ("pseudoReferenceId") REFERENCES "PseudoReference"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewRating" ADD CONSTRAINT "ReviewRating_annotatorId_fkey" FOREIGN KEY ("annotatorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewRating" ADD CONSTRAINT "ReviewRating_candidateReviewId_fkey" FOREIGN KEY ("candidateReviewId") REFERENCES "CandidateReview"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewClaimLink" ADD CONSTRAINT "ReviewClaimLink_ratingId_fkey" FOREIGN KEY ("ratingId") REFERENCES "ReviewRating"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewClaimLink" ADD CONSTRAINT "ReviewClaimLink_pseudoReferenceId_fkey" FOREIGN KEY ("pseudoReferenceId") REFERENCES "PseudoReference"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReferenceGrade" ADD CONSTRAINT "ReferenceGrade_annotatorId_fkey" FOREIGN KEY ("annotatorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReferenceGrade" ADD CONSTRAINT "ReferenceGrade_candidateReviewId_fkey" FOREIGN KEY ("candidateReviewId") REFERENCES "CandidateReview"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CommentFilterLabel" ADD CONSTRAINT "CommentFilterLabel_annotatorId_fkey" FOREIGN KEY ("annotatorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CommentFilterLabel" ADD CONSTRAINT "CommentFilterLabel_candidateReviewId_fkey" FOREIGN KEY ("candidateReviewId") REFERENCES "CandidateReview"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConsolidationDecision" ADD CONSTRAINT "ConsolidationDecision_codeChangeId_fkey" FOREIGN KEY ("codeChangeId") REFERENCES "CodeChange"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConsolidationDecision" ADD CONSTRAINT "ConsolidationDecision_pseudoReferenceId_fkey" FOREIGN KEY ("pseudoReferenceId") REFERENCES "PseudoReference"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConsolidationDecision" ADD CONSTRAINT "ConsolidationDecision_decidedById_fkey" FOREIGN KEY ("decidedById") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MetricScore" ADD CONSTRAINT "MetricScore_candidateReviewId_fkey" FOREIGN KEY ("candidateReviewId") REFERENCES "CandidateReview"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MetricRun" ADD CONSTRAINT "MetricRun_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MetricRun" ADD CONSTRAINT "MetricRun_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportRun" ADD CONSTRAINT "ImportRun_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportRun" ADD CONSTRAINT "ImportRun_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnnotationHistory" ADD CONSTRAINT "AnnotationHistory_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;


-- AnnotationHistory is append-only: every change to an annotation stays on record.
-- The one update allowed is the foreign key's SET NULL when a user row is deleted.
CREATE FUNCTION "annotation_history_append_only"() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW."userId" IS NULL
     AND NEW."id" = OLD."id" AND NEW."kind" = OLD."kind" AND NEW."annotationId" = OLD."annotationId"
     AND NEW."action" = OLD."action" AND NEW."baseVersion" IS NOT DISTINCT FROM OLD."baseVersion"
     AND NEW."oldValue" IS NOT DISTINCT FROM OLD."oldValue" AND NEW."newValue" IS NOT DISTINCT FROM OLD."newValue"
     AND NEW."createdAt" = OLD."createdAt" THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'AnnotationHistory is append-only: % refused', TG_OP;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "AnnotationHistory_append_only"
  BEFORE UPDATE OR DELETE ON "AnnotationHistory"
  FOR EACH ROW EXECUTE FUNCTION "annotation_history_append_only"();
