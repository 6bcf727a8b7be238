/**
 * Spearman, Kendall tau-b and Pearson (SciPy semantics, lib/stats) of a metric with a human
 * score, each with its two-sided p-value and a seeded bootstrap percentile CI over the pairs
 * (CRScore Tables 3, 9, 11; GradedReviews Table 5). Resamples are drawn by lib/stats'
 * bootstrapCi as original indices; the rank correlations of each resample come from
 * rank-bootstrap.ts, Pearson's from lib/stats on the materialised resample.
 */
import { bootstrapCi, kendallTauB, pearson, spearman, type TestResult } from "@/lib/stats";
import { multiplicities, resampleKendall, resampleSpearman, sortPairs } from "./rank-bootstrap";
import { affordableResamples, type BootstrapSettings, type Interval } from "./resample";

export interface CorrelationStat {
  statistic: number | null;
  pValue: number | null;
  reason?: string;
  ci: Interval | null;
}

export interface CorrelationSet {
  n: number;
  spearman: CorrelationStat;
  kendall: CorrelationStat;
  pearson: CorrelationStat;
}

/** The test's result with the CI of `onResample` (a statistic of resampled indices), when the statistic is defined. */
function withCi(result: TestResult, indices: Float64Array, onResample: (sample: Float64Array) => number | null, bootstrap: BootstrapSettings, cost: number): CorrelationStat {
  const base = { statistic: result.statistic, pValue: result.pValue, ...(result.reason === undefined ? {} : { reason: result.reason }) };
  if (result.statistic === null || bootstrap.nResamples === 0) return { ...base, ci: null };
  const nResamples = affordableResamples(bootstrap, cost);
  const ci = bootstrapCi([indices], onResample, { nResamples, seed: bootstrap.seed, confidenceLevel: bootstrap.confidenceLevel, method: "percentile" });
  return { ...base, ci: { low: ci.low, high: ci.high, nResamples, ...(ci.reason === undefined ? {} : { reason: ci.reason }) } };
}

/** The three correlations of paired samples (metric x, human y). */
export function correlationSet(x: readonly number[], y: readonly number[], bootstrap: BootstrapSettings): CorrelationSet {
  const fx = Float64Array.from(x);
  const fy = Float64Array.from(y);
  const n = fx.length;
  const indices = Float64Array.from({ length: n }, (_, i) => i);
  const pairs = sortPairs(fx, fy);
  const counts = new Float64Array(n);
  const scratch = { rx: new Float64Array(n), ry: new Float64Array(n) };
  const tree = new Float64Array(pairs.yLevels + 1);
  const bx = new Float64Array(n);
  const by = new Float64Array(n);
  const logN = Math.log2(Math.max(n, 2));
  return {
    n,
    spearman: withCi(spearman(fx, fy), indices, (s) => resampleSpearman(pairs, multiplicities(s, n, counts), scratch), bootstrap, 4 * n),
    kendall: withCi(kendallTauB(fx, fy), indices, (s) => resampleKendall(pairs, multiplicities(s, n, counts), tree), bootstrap, 2 * n * logN),
    pearson: withCi(
      pearson(fx, fy),
      indices,
      (s) => {
        for (let k = 0; k < n; k++) {
          bx[k] = fx[s[k]];
          by[k] = fy[s[k]];
        }
        return pearson(bx, by).statistic;
      },
      bootstrap,
      3 * n,
    ),
  };
}
