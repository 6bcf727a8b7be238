import { sortIndicesByPair } from "./radix-sort";
import { erfc } from "./special/erfc";
import type { NumericSample, TestResult } from "./types";
import { assertPaired } from "./validate";

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

/** Ascending runs shorter than this are extended to it by an insertion sort before merging. */
const RUN = 8;

/**
 * The pair counts of τ_b from the pairs in (x, y) order: ties in x, joint ties in x and y, and
 * y in that order (into `ys`) for the discordant count (the loop alone, see lib/stats/radix-sort.ts).
 */
function xTieCounts(x: NumericSample, y: NumericSample, order: Uint32Array, ys: Float64Array): { xTies: TieStats; jointTiePairs: number } {
  const n = order.length;
  const xTies = new TieStats();
  let jointTiePairs = 0;
  let xStart = 0;
  let jointStart = 0;
  let previous = order[0];
  // k = n closes the last groups; nothing runs after the loop.
  for (let k = 0; k <= n; k++) {
    const index = k < n ? order[k] : previous;
    if (k === n || (k > 0 && x[index] !== x[previous])) {
      xTies.add(k - xStart);
      xStart = k;
    }
    if (k > 0 && (k === xStart || y[index] !== y[previous])) {
      jointTiePairs += ((k - jointStart) * (k - jointStart - 1)) / 2;
      jointStart = k;
    }
    if (k === n) break;
    previous = index;
    ys[k] = y[index];
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
 * The discordant pairs: the strict inversions of y in (x, y) order (Knight 1966), counted while
 * merge-sorting it (a natural merge sort: the ascending runs y already has, as within each group
 * of tied x, are merged as they are). Equal y values are not inversions, and pairs tied in x
 * cannot be inversions because y ascends within each x group. Returns the count and y sorted
 * (in `ys` or `spare`).
 */
function countInversions(ys: Float64Array, spare: Float64Array): { discordant: number; sorted: Float64Array } {
  const runs = ascendingRuns(ys);
  let discordant = runs.inversions;
  let ends = runs.ends;
  let source = ys;
  let target = spare;
  while (ends.length > 1) {
    const merged = mergeRuns(source, target, ends);
    discordant += merged.inversions;
    ends = merged.ends;
    const swap = source;
    source = target;
    target = swap;
  }
  return { discordant, sorted: source };
}

/** Ends of ascending runs covering `a`, each at least RUN long (but the last): shorter ones are extended by an insertion sort, whose strict inversions are returned. */
function ascendingRuns(a: Float64Array): { ends: number[]; inversions: number } {
  const n = a.length;
  const ends: number[] = [];
  let inversions = 0;
  for (let start = 0; start < n; ) {
    let end = start + 1;
    while (end < n && a[end - 1] <= a[end]) end++;
    if (end - start < RUN) {
      end = Math.min(start + RUN, n);
      inversions += insertionSort(a, start, end);
    }
    ends.push(end);
    start = end;
  }
  return { ends, inversions };
}

/** Sorts a[from..to) by insertion, returning the strict inversions it removed. */
function insertionSort(a: Float64Array, from: number, to: number): number {
  let inversions = 0;
  for (let k = from + 1; k < to; k++) {
    const v = a[k];
    let j = k - 1;
    while (j >= from && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
    inversions += k - 1 - j;
  }
  return inversions;
}

/** Merges the runs of `source` (ending at `ends`) pairwise into `target`; the strict inversions between them and the merged runs' ends. */
function mergeRuns(source: Float64Array, target: Float64Array, ends: number[]): { ends: number[]; inversions: number } {
  const merged: number[] = [];
  let inversions = 0;
  for (let r = 0; r < ends.length; r += 2) {
    const lo = r === 0 ? 0 : ends[r - 1];
    const mid = ends[r];
    const hi = r + 1 < ends.length ? ends[r + 1] : mid;
    inversions += mergeFront(source, target, lo, mid, hi);
    merged.push(hi);
  }
  return { ends: merged, inversions };
}

/**
 * Merges the sorted runs source[lo..mid) and source[mid..hi) into target stably, adding for each
 * value of the right run the left values greater than it. Branch-free (on shuffled data the
 * comparison is unpredictable).
 */
function mergeFront(source: Float64Array, target: Float64Array, lo: number, mid: number, hi: number): number {
  let inversions = 0;
  let i = lo;
  let j = mid;
  let k = lo;
  while (i < mid && j < hi) {
    const right = +(source[j] < source[i]);
    target[k++] = source[i + right * (j - i)];
    inversions += right * (mid - i);
    j += right;
    i += 1 - right;
  }
  while (i < mid) target[k++] = source[i++];
  while (j < hi) target[k++] = source[j++];
  return inversions;
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

/**
 * Kendall's τ_b with the two-sided p-value of scipy.stats.kendalltau(method='auto',
 * variant='b') (metrics-spec §7):
 * τ_b = (P - Q)/sqrt((P+Q+T)(P+Q+U)); exact p when neither variable has ties and
 * (n <= 33 or min(P, Q) <= 1), otherwise the normal approximation with SciPy's tie-corrected
 * variance and p = erfc(|z|/√2). If every value of x or of y is tied, τ_b is undefined.
 * O(n log n).
 */
export function kendallTauB(x: NumericSample, y: NumericSample): KendallResult {
  assertPaired(x, y);
  const n = x.length;
  const undefinedResult = (reason: string): KendallResult => ({ statistic: null, pValue: null, n, method: null, reason });
  if (n < 2) return undefinedResult(`needs at least 2 pairs, got ${n}`);

  const ys = new Float64Array(n);
  const { xTies: xt, jointTiePairs } = xTieCounts(x, y, sortIndicesByPair(x, y), ys);
  const { discordant, sorted } = countInversions(ys, new Float64Array(n));
  const yt = sortedTies(sorted);

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
