/**
 * Spearman, Kendall tau-b and Pearson (SciPy semantics, lib/stats) of a metric with a human
 * score, each with its two-sided p-value and a seeded bootstrap percentile CI over the pairs
 * (CRScore Tables 3, 9, 11; GradedReviews Table 5). Resamples are drawn by lib/stats'
 * bootstrapCis as original indices, once for the three statistics; the rank correlations of
 * each resample come from rank-bootstrap.ts, Pearson's from lib/stats on the materialised
 * resample.
 */
import { bootstrapCis, kendallTauB, pearson, spearman, type TestResult } from "@/lib/stats";
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

/**
 * The tests' results with the CIs of their resampled statistics (statistics of resampled
 * indices), for the defined ones. The statistics share one stream of resamples, so each CI
 * equals the one a separate bootstrapCi with the same seed and its own resample count gives.
 */
function withCis(tests: { result: TestResult; onResample: (sample: Float64Array) => number | null; cost: number }[], indices: Float64Array, bootstrap: BootstrapSettings): CorrelationStat[] {
  const bases = tests.map(({ result }) => ({ statistic: result.statistic, pValue: result.pValue, ...(result.reason === undefined ? {} : { reason: result.reason }) }));
  const wanted = tests.flatMap((t, k) => (t.result.statistic === null || bootstrap.nResamples === 0 ? [] : [k]));
  const counts = wanted.map((k) => affordableResamples(bootstrap, tests[k].cost));
  const cis = bootstrapCis(
    [indices],
    wanted.map((k, w) => ({ statistic: tests[k].onResample, nResamples: counts[w] })),
    { seed: bootstrap.seed, confidenceLevel: bootstrap.confidenceLevel, method: "percentile" },
  );
  return bases.map((base, k) => {
    const w = wanted.indexOf(k);
    if (w < 0) return { ...base, ci: null };
    const ci = cis[w];
    return { ...base, ci: { low: ci.low, high: ci.high, nResamples: counts[w], ...(ci.reason === undefined ? {} : { reason: ci.reason }) } };
  });
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
  const [spearmanStat, kendallStat, pearsonStat] = withCis(
    [
      { result: spearman(fx, fy), onResample: (s) => resampleSpearman(pairs, multiplicities(s, n, counts), scratch), cost: 4 * n },
      { result: kendallTauB(fx, fy), onResample: (s) => resampleKendall(pairs, multiplicities(s, n, counts), tree), cost: 2 * n * logN },
      {
        result: pearson(fx, fy),
        onResample: (s) => {
          for (let k = 0; k < n; k++) {
            bx[k] = fx[s[k]];
            by[k] = fy[s[k]];
          }
          return pearson(bx, by).statistic;
        },
        cost: 3 * n,
      },
    ],
    indices,
    bootstrap,
  );
  return { n, spearman: spearmanStat, kendall: kendallStat, pearson: pearsonStat };
}
