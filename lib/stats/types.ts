/**
 * Result of a statistical test, in SciPy's vocabulary (`statistic`, `pvalue`).
 * Undefined quantities are `null` with a human-readable `reason`, never NaN.
 */
export interface TestResult {
  statistic: number | null;
  /** Two-sided p-value. */
  pValue: number | null;
  /** Number of observations (pairs for correlations) the result is based on. */
  n: number;
  reason?: string;
}

/** Numeric input: plain arrays or typed arrays. */
export type NumericSample = ArrayLike<number>;
