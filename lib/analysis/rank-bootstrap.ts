/**
 * Correlations of bootstrap resamples without materialising or sorting each resample. A
 * resample of the n original pairs (drawn with replacement) matters to Spearman, Kendall and
 * Pearson only through how many times it holds each distinct (x, y) pair, its cell: the pairs
 * are sorted into cells once (pairCells), each resample is counted into them in one pass over
 * its picks (cellCounts, shared by the three statistics), and each statistic then takes
 * O(cells): Spearman's ρ is the count-weighted Pearson correlation of mid-ranks, Kendall's τ_b
 * comes from a Fenwick tree over y levels (Knight 1966 with weights), Pearson's r from the
 * count-weighted sums. Likert means and CRScore's fractions take few distinct values, so a
 * resample of 22,500 reviews has tens to thousands of cells. τ_b equals lib/stats' kendallTauB
 * on the materialised resample to the last bit (integer counts); ρ and r add the same terms
 * grouped by cell, so they may differ from lib/stats' in the last bits (tests check both).
 */
import { identityOrder, sortIndicesBy } from "@/lib/stats";

export interface PairCells {
  /** The cell of each original pair. */
  cellOf: Int32Array;
  /** Per cell, cells ordered by (x, y): its values and their dense levels (x from 0, y from 1 for the Fenwick tree). */
  x: Float64Array;
  y: Float64Array;
  xLevel: Int32Array;
  yLevel: Int32Array;
  xLevels: number;
  yLevels: number;
}

/** Dense level of each value, 1-based, from the values' ascending order. */
function denseLevels(values: Float64Array, order: Uint32Array): Int32Array {
  const levels = new Int32Array(values.length);
  let level = 0;
  for (let k = 0; k < order.length; k++) {
    if (k === 0 || values[order[k]] !== values[order[k - 1]]) level++;
    levels[order[k]] = level;
  }
  return levels;
}

export function pairCells(x: Float64Array, y: Float64Array): PairCells {
  const n = x.length;
  const byY = sortIndicesBy(y, identityOrder(n));
  const yDense = denseLevels(y, byY);
  // byY is ordered by y and stable, so a stable sort of it by x orders by (x, y).
  const byXY = sortIndicesBy(x, byY.slice());
  const xDense = denseLevels(x, byXY);
  const cellOf = new Int32Array(n);
  const first: number[] = [];
  for (let k = 0; k < n; k++) {
    const i = byXY[k];
    const j = byXY[k - 1];
    if (k === 0 || xDense[i] !== xDense[j] || yDense[i] !== yDense[j]) first.push(i);
    cellOf[i] = first.length - 1;
  }
  return {
    cellOf,
    x: Float64Array.from(first, (i) => x[i]),
    y: Float64Array.from(first, (i) => y[i]),
    xLevel: Int32Array.from(first, (i) => xDense[i] - 1),
    yLevel: Int32Array.from(first, (i) => yDense[i]),
    xLevels: n === 0 ? 0 : xDense[byXY[n - 1]],
    yLevels: n === 0 ? 0 : yDense[byY[n - 1]],
  };
}

/** How many times a resample, given as original indices, holds each cell. */
export function cellCounts(picks: ArrayLike<number>, cells: PairCells, into = new Float64Array(cells.x.length)): Float64Array {
  const { cellOf } = cells;
  into.fill(0);
  for (let k = 0; k < picks.length; k++) into[cellOf[picks[k]]]++;
  return into;
}

/**
 * Mid-ranks of the resample per level (ties share the mean of the ranks they span), in place
 * of the levels' total counts; returns the resample size. Totals and ranks are integers or
 * halves, so they are exact whatever the order of summation.
 */
function midRanks(totals: Float64Array, levels: number): number {
  let below = 0;
  for (let level = 0; level < levels; level++) {
    const group = totals[level];
    totals[level] = below + (group + 1) / 2;
    below += group;
  }
  return below;
}

/**
 * Spearman's ρ of the resample with these cell counts; null when x or y is constant in it.
 * The scratch arrays hold the mid-rank of each x and y level.
 */
export function resampleSpearman(cells: PairCells, counts: Float64Array, scratch: { rx: Float64Array; ry: Float64Array } = { rx: new Float64Array(cells.xLevels), ry: new Float64Array(cells.yLevels) }): number | null {
  const { xLevel, yLevel, xLevels, yLevels } = cells;
  const { rx, ry } = scratch;
  rx.fill(0, 0, xLevels);
  ry.fill(0, 0, yLevels);
  for (let c = 0; c < counts.length; c++) {
    rx[xLevel[c]] += counts[c];
    ry[yLevel[c] - 1] += counts[c];
  }
  const total = midRanks(rx, xLevels);
  midRanks(ry, yLevels);
  const mean = (total + 1) / 2;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let c = 0; c < counts.length; c++) {
    const w = counts[c];
    const dx = rx[xLevel[c]] - mean;
    const dy = ry[yLevel[c] - 1] - mean;
    sxx += w * dx * dx;
    syy += w * dy * dy;
    sxy += w * dx * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/**
 * Kendall's τ_b = (P - Q)/sqrt((n0 - n1)(n0 - n2)) of the resample: cells are visited by
 * increasing x, one x level at a time; each adds count·(weight below its y - weight above its
 * y) among the cells of strictly smaller x, read from a Fenwick tree over y levels. All
 * weights and products are integers, so every tally is exact.
 */
export function resampleKendall(cells: PairCells, counts: Float64Array, tree: Float64Array = new Float64Array(cells.yLevels + 1)): number | null {
  tree.fill(0);
  // Weight added so far at each y level: weight up to a level = weight below it + this.
  const atLevel = new Float64Array(tree.length);
  const { xLevel, yLevel } = cells;
  let pMinusQ = 0;
  let added = 0;
  let xTies = 0;
  for (let c = 0; c < counts.length; ) {
    let end = c + 1;
    while (end < counts.length && xLevel[end] === xLevel[c]) end++;
    let group = 0;
    for (let j = c; j < end; j++) {
      const w = counts[j];
      if (w === 0) continue;
      let below = 0;
      for (let i = yLevel[j] - 1; i > 0; i -= i & -i) below += tree[i];
      pMinusQ += w * (below - (added - below - atLevel[yLevel[j]]));
      group += w;
    }
    for (let j = c; j < end; j++) {
      const w = counts[j];
      if (w === 0) continue;
      for (let i = yLevel[j]; i < tree.length; i += i & -i) tree[i] += w;
      atLevel[yLevel[j]] += w;
    }
    added += group;
    xTies += (group * (group - 1)) / 2;
    c = end;
  }
  let yTies = 0;
  for (const w of atLevel) yTies += (w * (w - 1)) / 2;
  const n0 = (added * (added - 1)) / 2;
  if (n0 === xTies || n0 === yTies) return null;
  return Math.max(-1, Math.min(1, pMinusQ / Math.sqrt(n0 - xTies) / Math.sqrt(n0 - yTies)));
}

/**
 * Pearson's r of the resample with these cell counts (lib/stats' pearsonStatistic: null when x
 * or y is constant in it, the sign of the slope for two pairs), from count-weighted sums about
 * the means.
 */
export function resamplePearson(cells: PairCells, counts: Float64Array): number | null {
  const { x, y, xLevel, yLevel } = cells;
  let total = 0;
  let sx = 0;
  let sy = 0;
  // Constant x or y: one x level, or one y level, among the counted cells.
  let firstCell = -1;
  let xVaries = false;
  let yVaries = false;
  for (let c = 0; c < counts.length; c++) {
    const w = counts[c];
    if (w === 0) continue;
    if (firstCell < 0) firstCell = c;
    xVaries ||= xLevel[c] !== xLevel[firstCell];
    yVaries ||= yLevel[c] !== yLevel[firstCell];
    total += w;
    sx += w * x[c];
    sy += w * y[c];
  }
  if (!xVaries || !yVaries) return null;
  if (total === 2) return twoPairSign(cells, counts);
  const mx = sx / total;
  const my = sy / total;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let c = 0; c < counts.length; c++) {
    const w = counts[c];
    const dx = x[c] - mx;
    const dy = y[c] - my;
    sxx += w * dx * dx;
    syy += w * dy * dy;
    sxy += w * dx * dy;
  }
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/** Pearson's r of two distinct pairs (the two counted cells): the sign of the slope, as lib/stats gives it. */
function twoPairSign(cells: PairCells, counts: Float64Array): number {
  const [a, b] = Array.from(counts.keys()).filter((c) => counts[c] > 0);
  return Math.sign(cells.x[b] - cells.x[a]) * Math.sign(cells.y[b] - cells.y[a]);
}
