/**
 * Spearman, Kendall tau-b and Pearson (SciPy semantics, lib/stats) of a metric with a human
 * score, each with its two-sided p-value and a seeded bootstrap percentile CI over the pairs
 * (CRScore Tables 3, 9, 11; GradedReviews Table 5). Resamples are drawn by lib/stats'
 * bootstrapCisPrepared as original indices, once for the three statistics, and counted once
 * into the pairs' cells, from which rank-bootstrap.ts computes each statistic.
 */
import { bootstrapCisPrepared, kendallTauB, pearson, spearman, type TestResult } from "@/lib/stats";
import { cellCounts, type PairCells, pairCells, resampleKendall, resamplePearson, resampleSpearman } from "./rank-bootstrap";
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

/** A resample of the pairs, given as original indices: its cell counts, counted once, and the statistics read from them. */
class PairResample {
  private indices: Float64Array = new Float64Array(0);
  private readonly counts: Float64Array<ArrayBuffer>;
  private counted = false;
  private readonly ranks: { rx: Float64Array; ry: Float64Array };
  private readonly tree: Float64Array;

  constructor(private readonly cells: PairCells) {
    this.counts = new Float64Array(cells.x.length);
    this.ranks = { rx: new Float64Array(cells.xLevels), ry: new Float64Array(cells.yLevels) };
    this.tree = new Float64Array(cells.yLevels + 1);
  }

  load(indices: Float64Array): this {
    this.indices = indices;
    this.counted = false;
    return this;
  }

  private cellCounts(): Float64Array {
    if (!this.counted) cellCounts(this.indices, this.cells, this.counts);
    this.counted = true;
    return this.counts;
  }

  spearman = () => resampleSpearman(this.cells, this.cellCounts(), this.ranks);
  kendall = () => resampleKendall(this.cells, this.cellCounts(), this.tree);
  pearson = () => resamplePearson(this.cells, this.cellCounts());
}

/**
 * The tests' results with the CIs of their resampled statistics, for the defined ones. The
 * statistics share one stream of resamples (and each resample's cell counts), so each CI
 * equals the one a separate bootstrapCi with the same seed and its own resample count gives.
 */
function withCis(x: Float64Array, y: Float64Array, tests: { result: TestResult; onResample: (resample: PairResample) => number | null; cost: number }[], bootstrap: BootstrapSettings): CorrelationStat[] {
  const bases = tests.map(({ result }) => ({ statistic: result.statistic, pValue: result.pValue, ...(result.reason === undefined ? {} : { reason: result.reason }) }));
  const wanted = tests.flatMap((t, k) => (t.result.statistic === null || bootstrap.nResamples === 0 ? [] : [k]));
  if (wanted.length === 0) return bases.map((base) => ({ ...base, ci: null }));
  const counts = wanted.map((k) => affordableResamples(bootstrap, tests[k].cost));
  const resample = new PairResample(pairCells(x, y));
  const cis = bootstrapCisPrepared(
    [Float64Array.from(x, (_, i) => i)],
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

/**
 * The three correlations of paired samples (metric x, human y). The costs are those of the
 * resampled statistics as first written (per pair, not per cell): they set how many resamples
 * each CI takes (affordableResamples), so every seeded CI depends on them.
 */
export function correlationSet(x: readonly number[], y: readonly number[], bootstrap: BootstrapSettings): CorrelationSet {
  const fx = Float64Array.from(x);
  const fy = Float64Array.from(y);
  const n = fx.length;
  const logN = Math.log2(Math.max(n, 2));
  const [spearmanStat, kendallStat, pearsonStat] = withCis(
    fx,
    fy,
    [
      { result: spearman(fx, fy), onResample: (r) => r.spearman(), cost: 4 * n },
      { result: kendallTauB(fx, fy), onResample: (r) => r.kendall(), cost: 2 * n * logN },
      { result: pearson(fx, fy), onResample: (r) => r.pearson(), cost: 3 * n },
    ],
    bootstrap,
  );
  return { n, spearman: spearmanStat, kendall: kendallStat, pearson: pearsonStat };
}
