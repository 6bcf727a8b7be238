import { identityOrder, sortIndicesBy } from "./radix-sort";
import type { NumericSample } from "./types";

/**
 * Indices 0..n-1 ordered by value, ascending; ties keep input order (deterministic).
 */
export function argsort(values: NumericSample): Uint32Array {
  return sortIndicesBy(values, identityOrder(values.length));
}

/**
 * Calls `visit(start, end)` for every maximal run [start, end) of consecutive positions
 * 0..length-1 whose neighbours are `same`. Used on sorted data to find tie groups.
 */
export function forEachRun(length: number, same: (i: number, j: number) => boolean, visit: (start: number, end: number) => void): void {
  let start = 0;
  while (start < length) {
    let end = start + 1;
    while (end < length && same(end - 1, end)) end++;
    visit(start, end);
    start = end;
  }
}

/**
 * Ranks 1..n where tied values share the mean of the ranks they span ("average" method of
 * scipy.stats.rankdata, the ranking spearmanr uses). O(n log n).
 *
 * @example rankAverage([10, 20, 20, 30]) → Float64Array [1, 2.5, 2.5, 4]
 */
export function rankAverage(values: NumericSample): Float64Array {
  const order = argsort(values);
  const ranks = new Float64Array(values.length);
  forEachRun(
    order.length,
    (i, j) => values[order[i]] === values[order[j]],
    (start, end) => {
      // Sorted positions start..end-1 hold ranks start+1..end; their mean is (start+1+end)/2.
      const mean = (start + 1 + end) / 2;
      for (let k = start; k < end; k++) ranks[order[k]] = mean;
    },
  );
  return ranks;
}
