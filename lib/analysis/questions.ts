/**
 * The questions of each annotation task whose agreement and validity the dashboards report,
 * with their level of measurement (Krippendorff 2011): claim codes and comment filters are
 * nominal labels; Likert dimensions (CRScore Table 7) and reference grades (GradedReviews §4.3)
 * are ordinal.
 */
import type { Level, RatingValue, WeightScheme } from "@/lib/agreement";
import type { TaskType } from "@/lib/generated/prisma/enums";

export interface Question {
  task: TaskType;
  /** "code", a Likert dimension such as "relevance", "grade" or "high-quality". */
  key: string;
  label: string;
  level: Extract<Level, "nominal" | "ordinal">;
  /** Declared scale, in order (fixes categories for Cohen's labels and Gwet's q). */
  scale: RatingValue[];
  /** Partial-agreement weights of Cohen's kappa and Gwet's AC2: quadratic for ordinal scales. */
  weights: WeightScheme;
}

/** Codebook order of the claim codes (CRScore Table 8; AMBIGUOUS is the sheets' stray code 2). */
export const CLAIM_CODE_SCALE = ["CORRECT", "INCORRECT", "UNVERIFIABLE", "INCOMPLETE", "AMBIGUOUS"];
export const HIGH_QUALITY = { yes: "high-quality", no: "not high-quality" } as const;

const range = (min: number, max: number) => Array.from({ length: max - min + 1 }, (_, i) => min + i);

export interface StudyScales {
  likertDimensions: readonly string[];
  likertMin: number;
  likertMax: number;
}

/** The questions of one task in a study. */
export function taskQuestions(task: TaskType, study: StudyScales): Question[] {
  switch (task) {
    case "CLAIM_VERIFICATION":
      return [{ task, key: "code", label: "Claim accuracy code", level: "nominal", scale: CLAIM_CODE_SCALE, weights: "unweighted" }];
    case "REVIEW_RATING":
      return study.likertDimensions.map((key) => ({ task, key, label: `${key[0].toUpperCase()}${key.slice(1)} (Likert ${study.likertMin}-${study.likertMax})`, level: "ordinal", scale: range(study.likertMin, study.likertMax), weights: "quadratic" }));
    case "REFERENCE_GRADING":
      return [{ task, key: "grade", label: "Grade against the reference (1-5)", level: "ordinal", scale: range(1, 5), weights: "quadratic" }];
    case "COMMENT_FILTERING":
      return [{ task, key: "high-quality", label: "Actionable and verifiable comment", level: "nominal", scale: [HIGH_QUALITY.no, HIGH_QUALITY.yes], weights: "unweighted" }];
  }
}

/** The task a review-level human question belongs to (for correlations with metrics). */
export function reviewQuestionTask(key: string, study: StudyScales): TaskType | null {
  if (key === "grade") return "REFERENCE_GRADING";
  if (key === "high-quality") return "COMMENT_FILTERING";
  return study.likertDimensions.includes(key) ? "REVIEW_RATING" : null;
}
