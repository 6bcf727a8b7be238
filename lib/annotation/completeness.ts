/**
 * When an annotator's answers to an item are complete, and what is still missing, by claim,
 * review and Likert dimension. One rule for the server (a submit is refused while something is
 * missing, naming it) and the workspace (the cursor opens on the first unanswered question, and
 * a refused submit shows the first missing one).
 *
 * Complete means: every claim has a code (or, where stage 1 asks necessity, is marked
 * unnecessary); with CRScore's stage order every stage-2 pseudo-reference has a necessity;
 * every review has a score on every dimension (review rating), a grade (reference grading) or a
 * label (comment filtering). Links, notes and comments are optional. Each task's part of the rule
 * is its descriptor's `missing` (lib/tasks); `missingAnswers` there joins them.
 */
import type { SaveKind } from "./values";

export interface MissingAnswer {
  kind: SaveKind;
  targetId: string;
  /** As the workspace names it: "Claim 2", "Review C", "Pseudo-reference 1". */
  label: string;
  /** What it still lacks: "code", "necessity", "grade", "label" or the Likert dimensions without a score. */
  what: string[];
}

/** The annotator's current value of an answer (a draft or the stored one), null when none. */
export type AnswerOf = (kind: SaveKind, targetId: string) => unknown;

/** One answer's entry in the missing list, or none when it lacks nothing. */
export function missingEntry(kind: SaveKind, targetId: string, label: string, what: string[]): MissingAnswer[] {
  return what.length > 0 ? [{ kind, targetId, label, what }] : [];
}

/** The reviews of a one-choice-per-review task (reference grading, comment filtering) without an answer. */
export function unansweredReviews(reviews: readonly { id: string; label: string }[], answer: AnswerOf, kind: SaveKind, answered: (value: unknown) => boolean, what: string): MissingAnswer[] {
  return reviews.flatMap((review) => missingEntry(kind, review.id, review.label, answered(answer(kind, review.id)) ? [] : [what]));
}

/** "Review C: relevance; Review F: conciseness, relevance", the first `max` of them and how many more. */
export function describeMissing(missing: readonly MissingAnswer[], max = 8): string {
  const shown = missing.slice(0, max).map((m) => `${m.label}: ${m.what.join(", ")}`);
  if (missing.length > max) shown.push(`and ${missing.length - max} more`);
  return shown.join("; ");
}

/** The index of the first of `ids` with something missing, or `ids.length` (past the end) when none has. */
export function firstMissingIndex(ids: readonly string[], missing: readonly MissingAnswer[], kind: SaveKind): number {
  const open = new Set(missing.filter((m) => m.kind === kind).map((m) => m.targetId));
  const index = ids.findIndex((id) => open.has(id));
  return index === -1 ? ids.length : index;
}
