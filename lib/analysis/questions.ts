/**
 * The questions of each annotation task whose agreement and validity the dashboards report,
 * with their level of measurement (Krippendorff 2011): claim codes and comment filters are
 * nominal labels; Likert dimensions (CRScore Table 7) and reference grades (GradedReviews §4.3)
 * are ordinal. Each task's questions are listed by its descriptor (lib/tasks).
 */
import type { Level, AnswerValue, WeightScheme } from "@/lib/agreement";
import type { TaskType } from "@/lib/generated/prisma/enums";
import type { CommentQuestion } from "@/lib/annotation/comment-questions";

export interface Question {
  task: TaskType;
  /** "code", a Likert dimension such as "relevance", "grade" or "high-quality". */
  key: string;
  label: string;
  level: Extract<Level, "nominal" | "ordinal">;
  /** Declared scale, in order (fixes categories for Cohen's labels and Gwet's q). */
  scale: AnswerValue[];
  /** Partial-agreement weights of Cohen's kappa and Gwet's AC2: quadratic for ordinal scales. */
  weights: WeightScheme;
  /** The matching question of comment questions: its items are (system comment, human comment) pairs, not comments (lib/tasks/comment-questions.ts). */
  pairs?: true;
}

/** Codebook order of the claim codes (CRScore Table 8; AMBIGUOUS is the sheets' stray code 2). */
export const CLAIM_CODE_SCALE = ["CORRECT", "INCORRECT", "UNVERIFIABLE", "INCOMPLETE", "AMBIGUOUS"];
export const HIGH_QUALITY = { yes: "high-quality", no: "not high-quality" } as const;

export interface StudyScales {
  likertDimensions: readonly string[];
  likertMin: number;
  likertMax: number;
  /** The questions of comment questions (lib/annotation/comment-questions.ts). */
  commentQuestions: readonly CommentQuestion[];
}
