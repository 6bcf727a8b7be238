import { identityOrder, sortIndicesBy } from "./radix-sort";
import type { NumericSample } from "./types";

/**
 * Indices 0..n-1 ordered by value, ascending; ties keep input order (deterministic).
 */
export function argsort(values: NumericSample): Uint32Array {
  return sortIndicesBy(values, identityOrder(values.length));
}

/**
 * Ranks 1..n where tied values share the mean of the ranks they span ("average" method of
 * scipy.stats.rankdata, the ranking spearmanr uses). O(n log n).
 *
 * @example rankAverage([10, 20, 20, 30]) → Float64Array [1, 2.5, 2.5, 4]
 */
export function rankAverage(values: NumericSample): Float64Array {
  return midRanks(values, argsort(values));
}

/** rankAverage's ranks from the ascending order (the loop in a function of its own, see lib/stats/radix-sort.ts). */
function midRanks(values: NumericSample, order: Uint32Array): Float64Array {
  const n = order.length;
  const ranks = new Float64Array(n);
  let start = 0;
  for (let k = 1; k <= n; k++) {
    if (k < n && values[order[k]] === values[order[k - 1]]) continue;
    // Sorted positions start..k-1 hold ranks start+1..k; their mean is (start+1+k)/2.
    const mean = (start + 1 + k) / 2;
    for (let j = start; j < k; j++) ranks[order[j]] = mean;
    start = k;
  }
  return ranks;
}
