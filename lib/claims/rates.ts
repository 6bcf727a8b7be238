import type { ClaimCodeCounts } from "./codes";

export interface ClaimQualityRates {
  /** N_c / (N_c + N_u + N_i). */
  accuracy: number | null;
  /** N_i / (N_c + N_u + N_i). */
  errorRate: number | null;
  /** N_u / (N_c + N_u + N_i). */
  unverifiableRate: number | null;
  /** N_a / (N_c + N_u + N_i): claims the annotators added, relative to the judged claims. */
  missingRate: number | null;
  /** The denominator N_c + N_u + N_i (claims judged correct, incorrect or unverifiable). */
  judged: number;
  reason?: string;
}

/**
 * Pseudo-reference quality rates of CRScore §4.1 (Table 1), as fractions in [0, 1]:
 * accuracy, error rate and unverifiable rate are the shares of correct (1), incorrect (0) and
 * unverifiable (-1) claims among the claims judged with one of those three codes, so the
 * three sum to 1; the missing rate is the number of added claims N_a over the same
 * denominator (it can exceed 1). Incomplete (-2), ambiguous (2) and unlabelled claims are
 * outside the denominator: that reproduces the paper's Python figures 83.65 / 12.02 / 4.33 %
 * over 416 claims (and 5.77 % missing with the 24 added claims).
 */
export function claimQualityRates(counts: ClaimCodeCounts, addedClaims: number): ClaimQualityRates {
  if (!Number.isInteger(addedClaims) || addedClaims < 0) throw new RangeError(`addedClaims must be a non-negative integer, got ${addedClaims}`);
  const judged = counts.correct + counts.incorrect + counts.unverifiable;
  if (judged === 0) {
    return { accuracy: null, errorRate: null, unverifiableRate: null, missingRate: null, judged, reason: "no claim is judged correct, incorrect or unverifiable" };
  }
  return {
    accuracy: counts.correct / judged,
    errorRate: counts.incorrect / judged,
    unverifiableRate: counts.unverifiable / judged,
    missingRate: addedClaims / judged,
    judged,
  };
}
