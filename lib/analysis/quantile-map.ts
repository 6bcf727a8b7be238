/**
 * A metric as one more rater (SWE-Judge RQ2: human-tool vs human-human Cohen's kappa). The
 * SWE-Judge paper maps its 0-100 score linearly onto the human scale; metrics here have
 * arbitrary ranges and skewed distributions (BLEU near 0 for most reviews), so the mapping is
 * by quantiles instead (equipercentile): the review at mid-rank r of n (ties share their
 * mid-rank, and so their level) gets the lowest scale level whose share among the pooled human
 * ratings, cumulated from the bottom, reaches (r - 0.5)/n. The metric's ratings then follow the
 * human marginal distribution, so kappa measures ordering agreement, not calibration.
 */
import { rankAverage } from "@/lib/stats";

/**
 * Levels for `values` (higher is better unless `higherIsBetter` is false) following the
 * distribution of `humanRatings` over the ordered `scale`.
 */
export function quantileMap(values: readonly number[], humanRatings: ArrayLike<number> & Iterable<number>, scale: readonly number[], higherIsBetter = true): number[] {
  if (humanRatings.length === 0) throw new RangeError("quantile mapping needs human ratings");
  const counts = new Map<number, number>();
  for (const v of humanRatings) counts.set(v, (counts.get(v) ?? 0) + 1);
  let running = 0;
  const cumulative = scale.map((level) => (running += (counts.get(level) ?? 0) / humanRatings.length));
  const ranks = rankAverage(higherIsBetter ? values : values.map((v) => -v));
  return Array.from(ranks, (rank) => {
    const p = (rank - 0.5) / values.length;
    const k = cumulative.findIndex((c) => c >= p - 1e-12);
    return scale[k < 0 ? scale.length - 1 : k];
  });
}
