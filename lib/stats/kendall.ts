import { fewLevels, type Levels, MAX_LEVELS } from "./levels";
import { erfc } from "./special/erfc";
import type { NumericSample, TestResult } from "./types";
import { assertPaired } from "./validate";
import { countInversions, sortPairs } from "./value-sort";
import { workFloat64, workUint16 } from "./work-arrays";

export interface KendallResult extends TestResult {
  /** How the p-value was obtained (SciPy `method='auto'`); null when undefined. */
  method: "exact" | "asymptotic" | null;
}

/** Σ over tie groups of size t: [t(t-1)/2, t(t-1)(t-2), t(t-1)(2t+5)] (SciPy `count_rank_tie`). */
class TieStats {
  pairs = 0;
  cubic = 0;
  variance = 0;

  add(t: number): void {
    if (t < 2) return;
    this.pairs += (t * (t - 1)) / 2;
    this.cubic += t * (t - 1) * (t - 2);
    this.variance += t * (t - 1) * (2 * t + 5);
  }
}

/**
 * The pair counts of τ_b from the pairs sorted by (x, y): ties in x and joint ties in x and y
 * (the loop alone, see lib/stats/radix-sort.ts).
 */
function xTieCounts(xs: Float64Array, ys: Float64Array): { xTies: TieStats; jointTiePairs: number } {
  const n = xs.length;
  const xTies = new TieStats();
  let jointTiePairs = 0;
  let xStart = 0;
  let jointStart = 0;
  // k = n closes the last groups; nothing runs after the loop.
  for (let k = 1; k <= n; k++) {
    const newX = k === n || xs[k] !== xs[k - 1];
    if (newX) {
      xTies.add(k - xStart);
      xStart = k;
    }
    if (newX || ys[k] !== ys[k - 1]) {
      jointTiePairs += ((k - jointStart) * (k - jointStart - 1)) / 2;
      jointStart = k;
    }
  }
  return { xTies, jointTiePairs };
}

/** Tie statistics of sorted values. */
function sortedTies(sorted: Float64Array): TieStats {
  const ties = new TieStats();
  let start = 0;
  for (let k = 1; k <= sorted.length; k++) {
    if (k < sorted.length && sorted[k] === sorted[k - 1]) continue;
    ties.add(k - start);
    start = k;
  }
  return ties;
}

/**
 * Exact two-sided p-value of Kendall's τ without ties: 2·P(discordant <= c)/n!, c = min(P, Q),
 * from the Mahonian numbers (permutations of n with k inversions), built by the cumulative-sum
 * recurrence of SciPy `_mstats_basic._kendall_p_exact` (Kendall 1970, "Rank Correlation
 * Methods"), including its closed forms for c <= 1 and its per-step normalisation for n >= 171.
 */
export function kendallExactPValue(n: number, concordant: number): number {
  const total = (n * (n - 1)) / 2;
  const c = Math.min(concordant, total - concordant);
  if (n <= 2) return 1;
  if (c === 0) return n < 171 ? 2 / factorial(n) : 0;
  if (c === 1) return n < 172 ? 2 / factorial(n - 1) : 0;
  if (4 * c === n * (n - 1)) return 1;
  // counts[k] = number of permutations of j elements with k inversions, k <= c.
  let counts = new Float64Array(c + 1);
  counts[0] = 1;
  counts[1] = 1;
  const normalise = n >= 171;
  for (let j = 3; j <= n; j++) {
    const next = new Float64Array(c + 1);
    let running = 0;
    for (let k = 0; k <= c; k++) {
      running += counts[k];
      next[k] = normalise ? running / j : running;
    }
    if (j <= c) for (let k = c; k >= j; k--) next[k] -= next[k - j];
    counts = next;
  }
  let sum = 0;
  for (let k = 0; k <= c; k++) sum += counts[k];
  const p = normalise ? sum : (2 * sum) / factorial(n);
  return Math.min(1, Math.max(0, p));
}

function factorial(n: number): number {
  let f = 1;
  for (let i = 2; i <= n; i++) f *= i;
  return f;
}

/** The values as a Float64Array, copied only if they are not one (the sorts read them as given). */
const asFloat64 = (values: NumericSample): Float64Array => (values instanceof Float64Array ? values : Float64Array.from(values));

/** What τ_b and its p-value are computed from: the pairs, ties in x, in y and in both, and the discordant pairs. */
interface PairCounts {
  n: number;
  xTies: TieStats;
  yTies: TieStats;
  jointTiePairs: number;
  discordant: number;
}

/** τ_b and its p-value from the pair counts (see kendallTauB). */
function tauBFromCounts({ n, xTies: xt, yTies: yt, jointTiePairs, discordant }: PairCounts): KendallResult {
  const undefinedResult = (reason: string): KendallResult => ({ statistic: null, pValue: null, n, method: null, reason });
  if (n < 2) return undefinedResult(`needs at least 2 pairs, got ${n}`);
  const total = (n * (n - 1)) / 2;
  if (xt.pairs === total) return undefinedResult("every x value is tied, so τ_b is undefined");
  if (yt.pairs === total) return undefinedResult("every y value is tied, so τ_b is undefined");

  // total = P + Q + (xtie - ntie) + (ytie - ntie) + ntie (SciPy's identity).
  const pMinusQ = total - xt.pairs - yt.pairs + jointTiePairs - 2 * discordant;
  const tau = Math.min(1, Math.max(-1, pMinusQ / Math.sqrt(total - xt.pairs) / Math.sqrt(total - yt.pairs)));

  const concordant = total - xt.pairs - yt.pairs + jointTiePairs - discordant;
  const noTies = xt.pairs === 0 && yt.pairs === 0;
  if (noTies && (n <= 33 || Math.min(discordant, concordant) <= 1)) {
    return { statistic: tau, pValue: kendallExactPValue(n, concordant), n, method: "exact" };
  }
  const m = n * (n - 1);
  const variance = (m * (2 * n + 5) - xt.variance - yt.variance) / 18 + (2 * xt.pairs * yt.pairs) / m + (xt.cubic * yt.cubic) / (9 * m * (n - 2));
  const z = pMinusQ / Math.sqrt(variance);
  return { statistic: tau, pValue: erfc(Math.abs(z) / Math.SQRT2), n, method: "asymptotic" };
}

/**
 * Kendall's τ_b with the two-sided p-value of scipy.stats.kendalltau(method='auto',
 * variant='b'):
 * τ_b = (P - Q)/sqrt((P+Q+T)(P+Q+U)); exact p when neither variable has ties and
 * (n <= 33 or min(P, Q) <= 1), otherwise the normal approximation with SciPy's tie-corrected
 * variance and p = erfc(|z|/√2). If every value of x or of y is tied, τ_b is undefined.
 * O(n log n).
 */
export function kendallTauB(x: NumericSample, y: NumericSample): KendallResult {
  assertPaired(x, y);
  const n = x.length;
  if (n < 2) return tauBFromCounts({ n, xTies: new TieStats(), yTies: new TieStats(), jointTiePairs: 0, discordant: 0 });
  // Few distinct values on both sides (ratings): the pair counts from the table of (x, y) counts.
  const xLevels = n >= TABLE_MIN_PAIRS ? fewLevels(x, MAX_LEVELS, workUint16("kendallTauB.x", n)) : null;
  const yLevels = xLevels && fewLevels(y, MAX_LEVELS, workUint16("kendallTauB.y", n));
  if (xLevels && yLevels) return kendallTauBOfTable(countTable(xLevels, yLevels));
  const { xs, ys } = sortPairs(asFloat64(x), asFloat64(y), workFloat64("kendallTauB.xs", n), workFloat64("kendallTauB.ys", n));
  const { xTies, jointTiePairs } = xTieCounts(xs, ys);
  // The discordant pairs are the strict inversions of y in (x, y) order (Knight 1966): pairs
  // tied in x cannot be inversions, y ascending within each x group.
  const sortedY = workFloat64("kendallTauB.sortedY", n);
  const discordant = countInversions(ys, sortedY);
  return tauBFromCounts({ n, xTies, yTies: sortedTies(sortedY), jointTiePairs, discordant });
}

/** Below this many pairs the sort is as quick as counting levels. */
const TABLE_MIN_PAIRS = 1000;

/** The contingency table of two samples' levels: a row per x level, a column per y level, ascending. */
function countTable(x: Levels, y: Levels): Float64Array[] {
  const columns = y.values.length;
  const cells = new Float64Array(x.values.length * columns);
  countCells(x.codes, y.codes, columns, cells);
  return Array.from(x.values, (_, row) => cells.subarray(row * columns, (row + 1) * columns));
}

function countCells(xCodes: Uint16Array, yCodes: Uint16Array, columns: number, cells: Float64Array): void {
  for (let k = 0; k < xCodes.length; k++) cells[xCodes[k] * columns + yCodes[k]]++;
}

/**
 * kendallTauB of paired data given as a contingency table: rows are the distinct x values in
 * ascending order, each row the counts of the pairs at each y value, y ascending (rows or
 * columns of zeros allowed). O(rows × columns) whatever the number of pairs, for statistics
 * asked of many tallies of few distinct values. Every count is an integer and the tie groups
 * are summed in the same order, so τ_b and its p-value come from the same numbers as
 * kendallTauB's and equal them to the last bit.
 */
export function kendallTauBOfTable(rows: readonly ArrayLike<number>[]): KendallResult {
  const columns = new Float64Array(rows.length === 0 ? 0 : rows[0].length);
  let n = 0;
  const xTies = new TieStats();
  let jointTiePairs = 0;
  let discordant = 0;
  for (const row of rows) {
    // Pairs of an earlier row (smaller x) with a greater y than this cell's are discordant.
    let greaterY = 0;
    let rowTotal = 0;
    for (let b = columns.length - 1; b >= 0; b--) {
      const c = row[b];
      discordant += c * greaterY;
      greaterY += columns[b];
      jointTiePairs += (c * (c - 1)) / 2;
      rowTotal += c;
    }
    for (let b = 0; b < columns.length; b++) columns[b] += row[b];
    n += rowTotal;
    xTies.add(rowTotal);
  }
  const yTies = new TieStats();
  for (const c of columns) yTies.add(c);
  return tauBFromCounts({ n, xTies, yTies, jointTiePairs, discordant });
}
