/**
 * When an annotator's answers to an item are complete, and what is still missing, by claim,
 * review and Likert dimension. One rule for the server (a submit is refused while something is
 * missing, naming it) and the workspace (the cursor opens on the first unanswered question, and
 * a refused submit shows the first missing one).
 *
 * Complete means: every claim has a code (or, where stage 1 asks necessity, is marked
 * unnecessary); with CRScore's stage order every stage-2 pseudo-reference has a necessity;
 * every review has a score on every dimension (review rating), a grade (reference grading) or a
 * label (comment filtering). Links, notes and comments are optional.
 */
import type { TaskWorkspace } from "@/lib/tasks/types";
import type { AnnotationKindKey, ClaimJudgementValue, CommentFilterValue, NecessityValue, ReferenceGradeValue, ReviewRatingValue } from "./values";

export interface MissingAnswer {
  kind: AnnotationKindKey;
  targetId: string;
  /** As the workspace names it: "Claim 2", "Review C", "Pseudo-reference 1". */
  label: string;
  /** What it still lacks: "code", "necessity", "grade", "label" or the Likert dimensions without a score. */
  what: string[];
}

/** The annotator's current value of an answer (a draft or the stored one), null when none. */
export type AnswerOf = (kind: AnnotationKindKey, targetId: string) => unknown;

/** What is still missing before the item can be submitted, in the order the workspace shows it; empty when complete. */
export function missingAnswers(task: TaskWorkspace, answer: AnswerOf, dimensions: readonly string[]): MissingAnswer[] {
  const missing: MissingAnswer[] = [];
  const add = (kind: AnnotationKindKey, targetId: string, label: string, what: string[]) => {
    if (what.length > 0) missing.push({ kind, targetId, label, what });
  };
  if (task.claims) {
    const { references, askNecessity } = task.claims;
    references.forEach((ref, i) => {
      const v = answer("claim", ref.id) as Partial<ClaimJudgementValue> | null;
      const done = v?.code != null || (askNecessity && v?.necessary === false);
      add("claim", ref.id, `Claim ${i + 1}`, done ? [] : ["code"]);
    });
  }
  if (task.rating) {
    if (task.rating.necessity) {
      task.rating.references.forEach((ref, i) => {
        const v = answer("necessity", ref.id) as Partial<NecessityValue> | null;
        add("necessity", ref.id, `Pseudo-reference ${i + 1}`, v?.necessary == null ? ["necessity"] : []);
      });
    }
    for (const review of task.rating.reviews) {
      const scores = (answer("rating", review.id) as Partial<ReviewRatingValue> | null)?.scores ?? {};
      add("rating", review.id, review.label, dimensions.filter((d) => typeof scores[d] !== "number"));
    }
  }
  for (const review of task.grading?.reviews ?? []) {
    const v = answer("grade", review.id) as Partial<ReferenceGradeValue> | null;
    add("grade", review.id, review.label, typeof v?.grade === "number" ? [] : ["grade"]);
  }
  for (const review of task.filtering?.reviews ?? []) {
    const v = answer("filter", review.id) as Partial<CommentFilterValue> | null;
    add("filter", review.id, review.label, typeof v?.highQuality === "boolean" ? [] : ["label"]);
  }
  return missing;
}

/** "Review C: relevance; Review F: conciseness, relevance", the first `max` of them and how many more. */
export function describeMissing(missing: readonly MissingAnswer[], max = 8): string {
  const shown = missing.slice(0, max).map((m) => `${m.label}: ${m.what.join(", ")}`);
  if (missing.length > max) shown.push(`and ${missing.length - max} more`);
  return shown.join("; ");
}

/** The index of the first of `ids` with something missing, or `ids.length` (past the end) when none has. */
export function firstMissingIndex(ids: readonly string[], missing: readonly MissingAnswer[], kind: AnnotationKindKey): number {
  const open = new Set(missing.filter((m) => m.kind === kind).map((m) => m.targetId));
  const index = ids.findIndex((id) => open.has(id));
  return index === -1 ? ids.length : index;
}
