import { asTable, type AnswersInput, type AnswerTable, type TableOptions } from "./table";
import type { AgreementResult } from "./types";

/** A coefficient of one pair of raters, computed on the full table (it selects the pair itself). */
export type PairwiseCoefficient<T extends AgreementResult> = (table: AnswerTable, raterA: string, raterB: string) => T;

export interface PairwiseMatrix<T extends AgreementResult> {
  raters: string[];
  /** matrix[i][j] for raters i ≠ j; null on the diagonal. Symmetric. */
  matrix: (T | null)[][];
}

/**
 * The matrix of a pairwise coefficient over all pairs of raters, e.g.
 * `pairwiseMatrix(ratings, (t, a, b) => cohenKappa(t, { raters: [a, b] }))` or, for a
 * multi-rater coefficient restricted to the pair,
 * `(t, a, b) => krippendorffAlpha(selectRaters(t, [a, b]), { level: "ordinal" })`.
 * The table is built once; each unordered pair is computed once (coefficients here are
 * symmetric in the raters) and mirrored. O(R² · N) for R raters and N ratings.
 */
export function pairwiseMatrix<T extends AgreementResult>(input: AnswersInput, coefficient: PairwiseCoefficient<T>, options: TableOptions = {}): PairwiseMatrix<T> {
  const table = asTable(input, options);
  const raters = [...table.raters];
  const matrix: (T | null)[][] = raters.map(() => raters.map(() => null));
  for (let i = 0; i < raters.length; i++) {
    for (let j = i + 1; j < raters.length; j++) {
      const result = coefficient(table, raters[i], raters[j]);
      matrix[i][j] = result;
      matrix[j][i] = result;
    }
  }
  return { raters, matrix };
}
