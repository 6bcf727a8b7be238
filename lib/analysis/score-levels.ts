/**
 * Metric values grouped by the human score level of their review: the mean metric per level
 * (CRScore Figure 8, monotonicity), the distribution per level (box-plot summary), and the
 * two-sample Kolmogorov-Smirnov matrix between levels (GradedReviews Table 6).
 * A review's level is its mean human score rounded half up to the scale (with one annotator
 * per review, as in GradedReviews, the grade itself).
 */
import { ks2sampOffThread, quantileSorted } from "@/lib/stats";

export interface LevelSummary {
  level: number;
  n: number;
  mean: number | null;
  min: number | null;
  q1: number | null;
  median: number | null;
  q3: number | null;
  max: number | null;
}

export interface KsCell {
  statistic: number | null;
  pValue: number | null;
  reason?: string;
}

/** The level of a mean human score: rounded half up, clamped to the scale. */
export function humanLevel(score: number, scale: readonly number[]): number {
  const rounded = Math.floor(score + 0.5);
  return Math.min(scale[scale.length - 1], Math.max(scale[0], rounded));
}

/** Metric values per level of the scale (every level listed, possibly empty). */
export function groupByLevel(points: readonly { metric: number; human: number }[], scale: readonly number[]): Map<number, number[]> {
  const groups = new Map<number, number[]>(scale.map((level) => [level, []]));
  for (const p of points) (groups.get(humanLevel(p.human, scale)) as number[]).push(p.metric);
  return groups;
}

export function summarizeLevel(level: number, values: readonly number[]): LevelSummary {
  if (values.length === 0) return { level, n: 0, mean: null, min: null, q1: null, median: null, q3: null, max: null };
  const sorted = Float64Array.from(values).sort();
  return {
    level,
    n: sorted.length,
    mean: sorted.reduce((s, v) => s + v, 0) / sorted.length,
    min: sorted[0],
    q1: quantileSorted(sorted, 0.25),
    median: quantileSorted(sorted, 0.5),
    q3: quantileSorted(sorted, 0.75),
    max: sorted[sorted.length - 1],
  };
}

/**
 * KS statistic and p-value (SciPy ks_2samp, method auto) for every pair of levels; null on the
 * diagonal. The test is symmetric in its two samples, so each pair is computed once and mirrored.
 * The exact p-values are computed on a worker thread (ks2sampOffThread) while the caller goes on.
 */
export async function ksMatrix(groups: ReadonlyMap<number, readonly number[]>): Promise<{ levels: number[]; matrix: (KsCell | null)[][] }> {
  const levels = [...groups.keys()];
  const pairs: [number, number][] = [];
  for (let i = 0; i < levels.length; i++) for (let j = i + 1; j < levels.length; j++) if (groups.get(levels[i])!.length > 0 && groups.get(levels[j])!.length > 0) pairs.push([i, j]);
  const results = await ks2sampOffThread(pairs.map(([i, j]) => [groups.get(levels[i])!, groups.get(levels[j])!] as const));
  const matrix: (KsCell | null)[][] = levels.map((_, i) => levels.map((_, j) => (i === j ? null : { statistic: null, pValue: null, reason: "a level has no reviews" })));
  pairs.forEach(([i, j], k) => {
    const r = results[k];
    const cell: KsCell = { statistic: r.statistic, pValue: r.pValue, ...(r.reason === undefined ? {} : { reason: r.reason }) };
    matrix[i][j] = cell;
    matrix[j][i] = { ...cell };
  });
  return { levels, matrix };
}
