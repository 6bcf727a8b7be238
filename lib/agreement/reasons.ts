/**
 * Why a coefficient is undefined or says little: one wording for every coefficient, shown
 * wherever the coefficient is (dashboards, rounds, annotator pages, the CLI's JSON). Undefined
 * values carry a `reason` from the coefficient itself (no item with two ratings, one category
 * observed: 0/0, …); defined values that are degenerate get a `note` from degenerateNote.
 */
import type { AnswerTable } from "./table";

/** Why no item of `table` has two ratings: one wording for every multi-rater coefficient. */
export function unpairedReason(table: { items: ArrayLike<unknown>; raters: AnswerTable["raters"] }): string {
  if (table.items.length === 0) return "no ratings";
  if (table.raters.length < 2) return "only one rater, so no item has two ratings";
  return "no item has two or more ratings";
}

/** Cohen's kappa when one rater gave one answer throughout: p_o = p_e, so kappa is 0 (sklearn too). */
export function constantRaterNote(constant: string, other: string): string {
  return `${constant} gave the same answer to every item, so kappa is 0 whatever ${other} answered`;
}

/** What the table a coefficient was computed on shows (from its percent agreement: n = items with two or more ratings). */
export interface TableFacts {
  /** Items with two or more ratings. */
  items: number;
  /** True when no item has two agreeing ratings (percent agreement 0). */
  noAgreement: boolean;
}

/**
 * Why a defined value says little, or undefined when it does not: computed on a single item;
 * no item has two agreeing ratings (so chance-corrected values sit at or below 0, e.g. Fleiss'
 * kappa -1 when every item of two raters is split between two equally used categories); the
 * coefficient's own note (a constant rater's Cohen's kappa); a bootstrap interval without width,
 * since every resample of items that all look alike gives the same value.
 */
export function degenerateNote(
  result: { value: number | null; note?: string },
  facts: TableFacts,
  ci: { low: number | null; high: number | null } | null,
  options: { isPercentAgreement?: boolean } = {},
): string | undefined {
  if (result.value === null) return undefined;
  const notes: string[] = [];
  if (facts.items === 1) notes.push("computed on a single item, so it says nothing about agreement in general");
  if (facts.noAgreement && !options.isPercentAgreement) notes.push("no item has two agreeing ratings");
  if (result.note) notes.push(result.note);
  if (ci && ci.low !== null && ci.low === ci.high && facts.items > 1) notes.push("every bootstrap resample gives this same value, so the interval shows no uncertainty");
  return notes.length === 0 ? undefined : `${notes.join("; ")}.`;
}
