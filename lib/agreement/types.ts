/** An answer: a number on a scale or a category label. One type per data set. */
export type AnswerValue = number | string;

/**
 * One rating: rater `rater` gave `value` to item `item`. Missing ratings are simply absent
 * (ragged data); each (item, rater) pair may occur at most once.
 */
export interface Rating {
  item: string;
  rater: string;
  value: AnswerValue;
}

/** Krippendorff's levels of measurement (Krippendorff 2011, §"difference functions"). */
export type Level = "nominal" | "ordinal" | "interval" | "ratio";

/** Weighting of partial agreement between categories (sklearn `weights=`, irrCAC `weights=`). */
export type WeightScheme = "unweighted" | "linear" | "quadratic";

/**
 * Result of an agreement coefficient. Undefined coefficients (one category only, no item
 * with two ratings, no common items …) have `value: null` and a human-readable `reason`;
 * never NaN.
 */
export interface AgreementResult {
  value: number | null;
  reason?: string;
  /** Why a defined value says little (reasons.ts degenerateNote), e.g. a constant rater's Cohen's kappa of 0. */
  note?: string;
  /** Units (items) the coefficient is computed from; for two-rater coefficients, the rated pairs. */
  n: number;
}
