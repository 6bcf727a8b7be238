import type { RatingTable } from "./table";

/** Why no item of `table` has two ratings: one wording for every multi-rater coefficient. */
export function unpairedReason(table: { items: ArrayLike<unknown>; raters: RatingTable["raters"] }): string {
  if (table.items.length === 0) return "no ratings";
  if (table.raters.length < 2) return "only one rater, so no item has two ratings";
  return "no item has two or more ratings";
}
