import { fewLevels, type Levels, MAX_LEVELS } from "./levels";
import { identityOrder, insertionSortKeyed, sampleRange, sortIndicesBy } from "./radix-sort";
import type { NumericSample } from "./types";
import { workFloat64, workInt32, workUint16, workUint32 } from "./work-arrays";

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
  return rankAverageInto(values, new Float64Array(values.length));
}

/** rankAverage into `ranks` (as long as the values), which it returns. */
export function rankAverageInto(values: NumericSample, ranks: Float64Array): Float64Array {
  const n = values.length;
  if (n < SMALL) return sortedRanks(values, argsort(values), ranks);
  const levels = fewLevels(values, MAX_LEVELS, workUint16("rankAverage.codes", n));
  if (levels) return levelRanks(levels, ranks);
  return bucketRanks(values, ranks);
}

/** Below this many values the index sort's insertion sort ranks them. */
const SMALL = 48;
/** Buckets of at most this many values are insertion-sorted. */
const BUCKET = 32;

/**
 * rankAverage of many values by a distribution sort that ranks as it goes: each value goes to one
 * of n buckets by its place between the minimum and maximum (monotone in the value, so the
 * buckets are ordered and equal values share one), and each bucket's values are sorted where they
 * lie and ranked from their positions. A bucket of many values is ranked at once when they are
 * all equal, else sorted by the index sort (skewed data).
 */
function bucketRanks(values: NumericSample, ranks: Float64Array): Float64Array {
  const n = values.length;
  const range = sampleRange(values);
  const min = range[0];
  const scale = n / (range[1] - min);
  if (!(scale > 0 && scale < Infinity)) return min === range[1] ? ranks.fill((n + 1) / 2) : sortedRanks(values, argsort(values), ranks);
  const bucketOf = workInt32("bucketRanks.bucketOf", n);
  const start = workInt32("bucketRanks.start", n + 1).fill(0);
  countBuckets(values, min, scale, bucketOf, start);
  for (let b = 0; b < n; b++) start[b + 1] += start[b];
  const keys = workFloat64("bucketRanks.keys", n);
  const order = workUint32("bucketRanks.order", n);
  scatter(values, bucketOf, start, keys, order);
  // start[b] is now where bucket b ends.
  rankBuckets(values, keys, order, start, ranks);
  return ranks;
}

// One loop per function below (see lib/stats/radix-sort.ts).

/** Bucket of each value into bucketOf (the maximum's is the last), bucket sizes into start[b + 1]. */
function countBuckets(values: NumericSample, min: number, scale: number, bucketOf: Int32Array, start: Int32Array): void {
  const last = values.length - 1;
  for (let k = 0; k < values.length; k++) {
    const b = Math.min(last, ((values[k] - min) * scale) | 0);
    bucketOf[k] = b;
    start[b + 1]++;
  }
}

/** The values and their indices, bucket by bucket. */
function scatter(values: NumericSample, bucketOf: Int32Array, start: Int32Array, keys: Float64Array, order: Uint32Array): void {
  for (let k = 0; k < values.length; k++) {
    const to = start[bucketOf[k]]++;
    keys[to] = values[k];
    order[to] = k;
  }
}

/** Ranks each bucket's values (`ends[b]`: where bucket b ends). */
function rankBuckets(values: NumericSample, keys: Float64Array, order: Uint32Array, ends: Int32Array, ranks: Float64Array): void {
  let from = 0;
  for (let b = 0; b < ends.length - 1; b++) {
    const to = ends[b];
    if (to - from === 1) ranks[order[from]] = to;
    else if (to - from > BUCKET && !allEqual(keys, from, to)) {
      const sorted = sortIndicesBy(values, order.subarray(from, to));
      for (let k = 0; k < sorted.length; k++) keys[from + k] = values[sorted[k]];
      rankRuns(keys, order, from, to, ranks);
    } else if (to - from > 1) {
      insertionSortKeyed(keys, order, from, to);
      rankRuns(keys, order, from, to, ranks);
    }
    from = to;
  }
}

function allEqual(keys: Float64Array, from: number, to: number): boolean {
  for (let k = from + 1; k < to; k++) if (keys[k] !== keys[from]) return false;
  return true;
}

/** Average ranks of sorted keys[from..to) (positions from..to-1 hold ranks from+1..to), into ranks[order[k]]. */
function rankRuns(keys: Float64Array, order: Uint32Array, from: number, to: number, ranks: Float64Array): void {
  let start = from;
  for (let k = from + 1; k <= to; k++) {
    if (k < to && keys[k] === keys[start]) continue;
    // Sorted positions start..k-1 hold ranks start+1..k; their mean is (start+1+k)/2.
    const mean = (start + 1 + k) / 2;
    for (let j = start; j < k; j++) ranks[order[j]] = mean;
    start = k;
  }
}

/** Ranks from the ascending order of all the values. */
function sortedRanks(values: NumericSample, order: Uint32Array, ranks: Float64Array): Float64Array {
  const keys = Float64Array.from(order, (i) => values[i]);
  rankRuns(keys, order, 0, order.length, ranks);
  return ranks;
}

/** Ranks from the counts of each distinct value: a value's rank is the mean of the positions its count spans. */
function levelRanks({ counts, codes }: Levels, ranks: Float64Array): Float64Array {
  const rankOf = new Float64Array(counts.length);
  let below = 0;
  for (let l = 0; l < counts.length; l++) {
    rankOf[l] = below + (counts[l] + 1) / 2;
    below += counts[l];
  }
  return spread(rankOf, codes, ranks);
}

function spread(rankOf: Float64Array, codes: Uint16Array, ranks: Float64Array): Float64Array {
  for (let k = 0; k < codes.length; k++) ranks[k] = rankOf[codes[k]];
  return ranks;
}
