import { sortIndicesByPair } from "./radix-sort";
import { forEachRun } from "./rank";
import { erfc } from "./special/erfc";
import type { NumericSample, TestResult } from "./types";
import { assertPaired } from "./validate";

export interface KendallResult extends TestResult {
  /** How the p-value was obtained (SciPy `method='auto'`); null when undefined. */
  method: "exact" | "asymptotic" | null;
}

/**
 * Discordant pairs of `y` when pairs are already sorted by (x, y): the strict inversions of
 * `y`, counted by merge sort in O(n log n) (Knight 1966, the algorithm of SciPy's
 * `_kendall_dis`). Equal y values are not inversions, and pairs tied in x cannot be
 * inversions because y ascends within each x group. Merges back and forth between `y` and
 * one buffer; returns the inversions and the sorted values (one of the two arrays).
 */
function countStrictInversions(y: Float64Array): { inversions: number; sorted: Float64Array } {
  const n = y.length;
  let source: Float64Array = y;
  let target: Float64Array = new Float64Array(n);
  let inversions = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        if (source[j] < source[i]) {
          inversions += mid - i;
          target[k++] = source[j++];
        } else {
          target[k++] = source[i++];
        }
      }
      while (i < mid) target[k++] = source[i++];
      while (j < hi) target[k++] = source[j++];
    }
    [source, target] = [target, source];
  }
  return { inversions, sorted: source };
}

/** Σ over tie groups of size t: [t(t-1)/2, t(t-1)(t-2), t(t-1)(2t+5)] (SciPy `count_rank_tie`). */
interface TieStats {
  pairs: number;
  cubic: number;
  variance: number;
}

function tieStats(sorted: ArrayLike<number>): TieStats {
  const s: TieStats = { pairs: 0, cubic: 0, variance: 0 };
  forEachRun(
    sorted.length,
    (i, j) => sorted[i] === sorted[j],
    (start, end) => {
      const t = end - start;
      s.pairs += (t * (t - 1)) / 2;
      s.cubic += t * (t - 1) * (t - 2);
      s.variance += t * (t - 1) * (2 * t + 5);
    },
  );
  return s;
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

  const order = sortIndicesByPair(x, y);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    xs[k] = x[order[k]];
    ys[k] = y[order[k]];
  }

  let jointTiePairs = 0;
  forEachRun(
    n,
    (i, j) => xs[i] === xs[j] && ys[i] === ys[j],
    (start, end) => {
      jointTiePairs += ((end - start) * (end - start - 1)) / 2;
    },
  );
  const xt = tieStats(xs);
  const { inversions: discordant, sorted } = countStrictInversions(ys);
  const yt = tieStats(sorted);

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
