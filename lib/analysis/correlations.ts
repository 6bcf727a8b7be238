/**
 * Spearman, Kendall tau-b and Pearson (SciPy semantics, lib/stats) of a metric with a human
 * score, each with its two-sided p-value and a seeded bootstrap percentile CI over the pairs
 * (CRScore Tables 3, 9, 11; GradedReviews Table 5). Resamples are drawn by lib/stats'
 * bootstrapCisPrepared as original indices, once for the three statistics; the rank
 * correlations of each resample come from rank-bootstrap.ts (from its multiplicities, counted
 * once), Pearson's from lib/stats on the materialised resample.
 */
import { bootstrapCisPrepared, kendallTauB, pearson, pearsonStatistic, spearman, type TestResult } from "@/lib/stats";
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

/** A resample of the pairs: its original indices, and their multiplicities when a statistic asks. */
class PairResample {
  indices: Float64Array = new Float64Array(0);
  private readonly counts: Float64Array<ArrayBuffer>;
  private counted = false;

  constructor(n: number) {
    this.counts = new Float64Array(n);
  }

  load(indices: Float64Array): this {
    this.indices = indices;
    this.counted = false;
    return this;
  }

  multiplicities(): Float64Array {
    if (!this.counted) multiplicities(this.indices, this.counts.length, this.counts);
    this.counted = true;
    return this.counts;
  }
}

/**
 * The tests' results with the CIs of their resampled statistics, for the defined ones. The
 * statistics share one stream of resamples (and each resample's multiplicities), so each CI
 * equals the one a separate bootstrapCi with the same seed and its own resample count gives.
 */
function withCis(tests: { result: TestResult; onResample: (resample: PairResample) => number | null; cost: number }[], n: number, bootstrap: BootstrapSettings): CorrelationStat[] {
  const bases = tests.map(({ result }) => ({ statistic: result.statistic, pValue: result.pValue, ...(result.reason === undefined ? {} : { reason: result.reason }) }));
  const wanted = tests.flatMap((t, k) => (t.result.statistic === null || bootstrap.nResamples === 0 ? [] : [k]));
  const counts = wanted.map((k) => affordableResamples(bootstrap, tests[k].cost));
  const resample = new PairResample(n);
  const cis = bootstrapCisPrepared(
    [Float64Array.from({ length: n }, (_, i) => i)],
    (indices) => resample.load(indices),
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
  const pairs = sortPairs(fx, fy);
  const scratch = { rx: new Float64Array(n), ry: new Float64Array(n) };
  const tree = new Float64Array(pairs.yLevels + 1);
  const bx = new Float64Array(n);
  const by = new Float64Array(n);
  const logN = Math.log2(Math.max(n, 2));
  const [spearmanStat, kendallStat, pearsonStat] = withCis(
    [
      { result: spearman(fx, fy), onResample: (r) => resampleSpearman(pairs, r.multiplicities(), scratch), cost: 4 * n },
      { result: kendallTauB(fx, fy), onResample: (r) => resampleKendall(pairs, r.multiplicities(), tree), cost: 2 * n * logN },
      {
        result: pearson(fx, fy),
        onResample: ({ indices }) => {
          for (let k = 0; k < n; k++) {
            bx[k] = fx[indices[k]];
            by[k] = fy[indices[k]];
          }
          return pearsonStatistic(bx, by);
        },
        cost: 3 * n,
      },
    ],
    n,
    bootstrap,
  );
  return { n, spearman: spearmanStat, kendall: kendallStat, pearson: pearsonStat };
}
