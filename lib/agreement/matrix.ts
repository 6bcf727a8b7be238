import type { Rating, AnswerValue } from "./types";

export interface MatrixLayout {
  /** What the rows are: units (items) × raters, as irrCAC, or raters × units, as krippendorff. */
  rows: "units" | "raters";
  /** Item ids by unit position; default "1", "2", … */
  itemIds?: readonly string[];
  /** Rater ids by rater position; default "1", "2", … */
  raterIds?: readonly string[];
}

/**
 * Ratings from a rectangular matrix with `null` (or `undefined`) for missing ratings, the
 * layout reference implementations and spreadsheets use.
 *
 * @example ratingsFromMatrix([[1, 2], [null, 3]], { rows: "units" })
 * // → [{item:"1",rater:"1",value:1}, {item:"1",rater:"2",value:2}, {item:"2",rater:"2",value:3}]
 */
export function ratingsFromMatrix(matrix: readonly (readonly (AnswerValue | null | undefined)[])[], layout: MatrixLayout): Rating[] {
  const ratings: Rating[] = [];
  const id = (ids: readonly string[] | undefined, k: number) => ids?.[k] ?? String(k + 1);
  matrix.forEach((row, r) =>
    row.forEach((value, c) => {
      if (value === null || value === undefined) return;
      const [unit, rater] = layout.rows === "units" ? [r, c] : [c, r];
      ratings.push({ item: id(layout.itemIds, unit), rater: id(layout.raterIds, rater), value });
    }),
  );
  return ratings;
}
