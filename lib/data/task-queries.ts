/**
 * Each task's own queries, beside its descriptor (lib/tasks): what the descriptor declares
 * (storage, save kinds' rows) lib/data derives for every task (lib/data/annotation-rows.ts,
 * annotation-statement.ts); what differs per task is read and written here, one file per
 * annotation aggregate.
 */
import "server-only";
import type { TaskType } from "@/lib/generated/prisma/enums";
import type { TaskQueries } from "@/lib/data/annotation-rows";
import { claimJudgementQueries } from "@/lib/data/claim-judgements";
import { reviewRatingQueries } from "@/lib/data/review-ratings";
import { referenceGradeQueries } from "@/lib/data/reference-grades";
import { commentFilteringLabelQueries } from "@/lib/data/comment-filtering-labels";
import { commentAnswerQueries } from "@/lib/data/comment-answers";

export const TASK_QUERIES: Record<TaskType, TaskQueries> = {
  CLAIM_VERIFICATION: claimJudgementQueries,
  REVIEW_RATING: reviewRatingQueries,
  REFERENCE_GRADING: referenceGradeQueries,
  COMMENT_FILTERING: commentFilteringLabelQueries,
  COMMENT_QUESTIONS: commentAnswerQueries,
};
