import { identityOrder, sortIndicesBy, sortIndicesByPair } from "./radix-sort";
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

/** Dense ranks 1..levels of y (equal values share one) and y's tie statistics, from y's ascending order. */
function denseRanks(y: NumericSample): { rank: Int32Array; levels: number; ties: TieStats } {
  const n = y.length;
  const byY = sortIndicesBy(y, identityOrder(n));
  const rank = new Int32Array(n);
  const ties = new TieStats();
  let levels = 0;
  let start = 0;
  // k = n closes the last tie group; nothing runs after the loop (see lib/stats/radix-sort.ts).
  for (let k = 0; k <= n; k++) {
    if (k === n || (k > 0 && y[byY[k]] !== y[byY[k - 1]])) {
      ties.add(k - start);
      start = k;
      if (k === n) break;
      levels++;
    }
    rank[byY[k]] = levels + 1;
  }
  return { rank, levels: levels + 1, ties };
}

/**
 * The pair counts of τ_b from the pairs visited in (x, y) order: ties in x, joint ties in x
 * and y, and the discordant pairs, i.e. the strict inversions of y in that sequence (Knight
 * 1966), counted as SciPy's `_kendall_dis` does with a Fenwick tree over the dense ranks of y:
 * each pair adds the number of earlier pairs with a larger y. Equal y values are not
 * inversions, and pairs tied in x cannot be inversions because y ascends within each x group.
 * O(n log n) with typed arrays only.
 */
function pairCounts(x: NumericSample, y: NumericSample, order: Uint32Array, yRank: Int32Array, yLevels: number): { xTies: TieStats; jointTiePairs: number; discordant: number } {
  const n = order.length;
  const tree = new Int32Array(yLevels + 1);
  const xTies = new TieStats();
  let jointTiePairs = 0;
  let discordant = 0;
  let xStart = 0;
  let jointStart = 0;
  let previous = order[0];
  // k = n closes the last groups; nothing runs after the loop (see lib/stats/radix-sort.ts).
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
    const rank = yRank[index];
    let atMost = 0;
    for (let i = rank; i > 0; i -= i & -i) atMost += tree[i];
    discordant += k - atMost;
    for (let i = rank; i <= yLevels; i += i & -i) tree[i]++;
  }
  return { xTies, jointTiePairs, discordant };
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

  const { rank: yRank, levels: yLevels, ties: yt } = denseRanks(y);
  const { xTies: xt, jointTiePairs, discordant } = pairCounts(x, y, sortIndicesByPair(x, y), yRank, yLevels);

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
