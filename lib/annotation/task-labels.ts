import type { TaskType } from "@/lib/generated/prisma/enums";

/** The task types' names, in the papers' words (pages, the workspace and settings messages). */
export const TASK_LABELS = {
  CLAIM_VERIFICATION: "Claim verification",
  REVIEW_RATING: "Review rating",
  REFERENCE_GRADING: "Reference-based grading",
  COMMENT_FILTERING: "Comment filtering",
} as const satisfies Record<TaskType, string>;
