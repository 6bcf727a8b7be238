/**
 * Calibration rounds (GradedReviews §4.3 graded its reviews in batches and
 * checked Fleiss' kappa per batch): the study's items in ordered rounds that every annotator
 * labels; a round's items open when the round is released. The next round is released by a lead
 * after reviewing the closed round's agreement and disagreements, or by itself when the lower
 * bootstrap CI bound of the chosen coefficient clears the threshold on every question. Items
 * outside every round wait for the last round's release (lib/annotation/waiting.ts).
 */

/** The coefficients a release rule may use (keys of the agreement report, lib/analysis/coefficients). */
export const ROUND_COEFFICIENTS = { fleiss: "Fleiss' kappa", alpha: "Krippendorff's alpha (at the question's level)", cohen: "Cohen's kappa (mean over rater pairs)" } as const;
export type RoundCoefficient = keyof typeof ROUND_COEFFICIENTS;

/** `ids` in `count` consecutive batches of equal size (the first ones one larger when it does not divide). */
export function equalBatches<T>(ids: readonly T[], count: number): T[][] {
  const n = Math.max(1, Math.min(count, ids.length));
  const size = Math.floor(ids.length / n);
  const larger = ids.length % n;
  const out: T[][] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const end = start + size + (i < larger ? 1 : 0);
    out.push(ids.slice(start, end));
    start = end;
  }
  return out;
}

/** A round is closed when it has assignments and every one is finished (done or skipped). */
export function roundClosed(statuses: readonly string[]): boolean {
  return statuses.length > 0 && statuses.every((s) => s === "DONE" || s === "SKIPPED");
}

export interface QuestionCoefficients {
  question: string;
  coefficients: { key: string; value: number | null; ci: { low: number | null } | null }[];
}

/**
 * Whether the release rule holds on a closed round's report: for every question with a value of
 * the coefficient, the lower CI bound is at least the threshold (and there is at least one).
 */
export function releaseRuleMet(questions: readonly QuestionCoefficients[], coefficient: string, threshold: number): boolean {
  const lows = questions.map((q) => q.coefficients.find((c) => c.key === coefficient)).filter((c) => c !== undefined && c.value !== null);
  return lows.length > 0 && lows.every((c) => c!.ci?.low != null && c!.ci.low >= threshold);
}
