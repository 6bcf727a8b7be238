import type { NumericSample } from "./types";

const RADIX = 2048;
const MASK = RADIX - 1;
/** Digits 0-2 are bits 0-10, 11-21, 22-31 of the low word, 3-5 the same of the high word. */
const DIGITS = 6;

/** Below this many indices an insertion sort beats the bucket and radix passes' fixed cost. */
const SMALL = 48;

/** Buckets of at most this many indices are insertion-sorted. */
const BUCKET = 32;
/** Bucket passes before a large bucket goes to the radix sort (bounds the work on skewed data). */
const BUCKET_DEPTH = 2;

/**
 * Reorders `order` (indices into `values`) stably by ascending value, in place, and returns it
 * (-0 counts as 0). A distribution sort: each index goes to one of n buckets by its value's
 * position between the minimum and maximum (monotone in the value, so buckets are ordered),
 * small buckets are insertion-sorted on a contiguous copy of their values, larger ones are
 * bucketed again and, if still large, radix-sorted on the float64 bits. No comparison
 * callback: on spread-out data an n = 100 000 ordering is three linear passes.
 */
export function sortIndicesBy(values: NumericSample, order: Uint32Array): Uint32Array {
  return distributionSort(values, order, 0);
}

// One loop per function below: V8 compiles a long loop while it runs (on-stack replacement),
// and code after it in the same function would first run without type feedback and deoptimise,
// on every call of a function called a few times with large inputs.

function distributionSort(values: NumericSample, order: Uint32Array, depth: number): Uint32Array {
  const n = order.length;
  if (n < SMALL) return insertionSort(values, order);
  const range = valueRange(values, order);
  const min = range[0];
  // All equal: the given order is the stable one.
  if (min === range[1]) return order;
  const scale = n / (range[1] - min);
  // A range beyond the float64 maximum or too narrow to scale: no usable buckets.
  if (depth >= BUCKET_DEPTH || !(scale > 0 && scale < Infinity)) return radixSort(values, order);
  const bucketOf = new Int32Array(n);
  const start = new Int32Array(n + 1);
  countBuckets(values, order, min, scale, bucketOf, start);
  for (let b = 0; b < n; b++) start[b + 1] += start[b];
  const sorted = new Uint32Array(n);
  const keys = new Float64Array(n);
  scatterBuckets(values, order, bucketOf, start, sorted, keys);
  // start[b] is now where bucket b ends.
  sortBuckets(values, sorted, keys, start, depth);
  order.set(sorted);
  return order;
}

/** [minimum, maximum] of all the values. */
export function sampleRange(values: NumericSample): Float64Array {
  let min = values[0];
  let max = min;
  for (let k = 1; k < values.length; k++) {
    const v = values[k];
    if (v < min) min = v;
    else if (v > max) max = v;
  }
  return Float64Array.of(min, max);
}

/** [minimum, maximum] of the values of `order`. */
function valueRange(values: NumericSample, order: Uint32Array): Float64Array {
  let min = values[order[0]];
  let max = min;
  for (let k = 1; k < order.length; k++) {
    const v = values[order[k]];
    if (v < min) min = v;
    else if (v > max) max = v;
  }
  return Float64Array.of(min, max);
}

/** Bucket of each position (monotone in the value) into bucketOf, bucket sizes into start[b + 1]. */
function countBuckets(values: NumericSample, order: Uint32Array, min: number, scale: number, bucketOf: Int32Array, start: Int32Array): void {
  const last = order.length - 1;
  for (let k = 0; k < order.length; k++) {
    const b = Math.min(last, ((values[order[k]] - min) * scale) | 0);
    bucketOf[k] = b;
    start[b + 1]++;
  }
}

function scatterBuckets(values: NumericSample, order: Uint32Array, bucketOf: Int32Array, start: Int32Array, sorted: Uint32Array, keys: Float64Array): void {
  for (let k = 0; k < order.length; k++) {
    const to = start[bucketOf[k]]++;
    sorted[to] = order[k];
    keys[to] = values[order[k]];
  }
}

function sortBuckets(values: NumericSample, sorted: Uint32Array, keys: Float64Array, end: Int32Array, depth: number): void {
  let from = 0;
  for (let b = 0; b < sorted.length; b++) {
    const to = end[b];
    if (to - from > BUCKET) distributionSort(values, sorted.subarray(from, to), depth + 1);
    else if (to - from > 1) insertionSortKeyed(keys, sorted, from, to);
    from = to;
  }
}

/** Stable insertion sort of order[from..to) by keys[from..to), the values of those indices. */
export function insertionSortKeyed(keys: Float64Array, order: Uint32Array, from: number, to: number): void {
  for (let k = from + 1; k < to; k++) {
    const key = keys[k];
    const index = order[k];
    let j = k - 1;
    while (j >= from && keys[j] > key) {
      keys[j + 1] = keys[j];
      order[j + 1] = order[j];
      j--;
    }
    keys[j + 1] = key;
    order[j + 1] = index;
  }
}

/**
 * sortIndicesBy as an LSD radix sort on the bits of the finite float64 values (sign-flipped so
 * that unsigned order is numeric order; -0 counts as 0), skipping digits every value shares:
 * the bucket sort's fallback for skewed values.
 */
function radixSort(values: NumericSample, order: Uint32Array): Uint32Array {
  const n = order.length;
  const keys = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const v = values[order[k]];
    keys[k] = v === 0 ? 0 : v;
  }
  // Little-endian words: [low, high] per value.
  const words = new Uint32Array(keys.buffer);
  for (let k = 0; k < 2 * n; k += 2) {
    if (words[k + 1] & 0x80000000) {
      words[k] = ~words[k];
      words[k + 1] = ~words[k + 1];
    } else {
      words[k + 1] |= 0x80000000;
    }
  }
  // Three digits of 11, 11 and 10 bits per 32-bit word (buckets that stay in cache);
  // histograms of all six in one pass.
  const counts = new Uint32Array(DIGITS * RADIX);
  for (let k = 0; k < 2 * n; k += 2) {
    const lo = words[k];
    const hi = words[k + 1];
    counts[lo & MASK]++;
    counts[RADIX + ((lo >>> 11) & MASK)]++;
    counts[2 * RADIX + (lo >>> 22)]++;
    counts[3 * RADIX + (hi & MASK)]++;
    counts[4 * RADIX + ((hi >>> 11) & MASK)]++;
    counts[5 * RADIX + (hi >>> 22)]++;
  }
  let srcWords: Uint32Array = words;
  let srcOrder: Uint32Array = order;
  let dstWords: Uint32Array = new Uint32Array(2 * n);
  let dstOrder: Uint32Array = new Uint32Array(n);
  for (let digit = 0; digit < DIGITS; digit++) {
    const base = digit * RADIX;
    const wordOffset = digit < 3 ? 0 : 1;
    const shift = (digit % 3) * 11;
    // A digit every value shares leaves the order as it is.
    if (counts[base + ((srcWords[wordOffset] >>> shift) & MASK)] === n) continue;
    let running = 0;
    for (let b = base; b < base + RADIX; b++) {
      const c = counts[b];
      counts[b] = running;
      running += c;
    }
    for (let k = 0; k < n; k++) {
      const b = base + ((srcWords[2 * k + wordOffset] >>> shift) & MASK);
      const to = counts[b]++;
      dstWords[2 * to] = srcWords[2 * k];
      dstWords[2 * to + 1] = srcWords[2 * k + 1];
      dstOrder[to] = srcOrder[k];
    }
    const words = srcWords;
    srcWords = dstWords;
    dstWords = words;
    const indices = srcOrder;
    srcOrder = dstOrder;
    dstOrder = indices;
  }
  if (srcOrder !== order) order.set(srcOrder);
  return order;
}

function insertionSort(values: NumericSample, order: Uint32Array): Uint32Array {
  for (let k = 1; k < order.length; k++) {
    const index = order[k];
    const v = values[index];
    let j = k - 1;
    while (j >= 0 && values[order[j]] > v) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = index;
  }
  return order;
}

/** 0, 1, …, n-1. */
export function identityOrder(n: number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order;
}

/**
 * Indices ordered by (primary, secondary) ascending, ties in both keeping input order: one sort
 * by `primary`, then each run of tied primary values sorted by `secondary` (stably, so index
 * order survives within full ties). Without ties in `primary` that is a single sort.
 */
export function sortIndicesByPair(primary: NumericSample, secondary: NumericSample): Uint32Array {
  const order = sortIndicesBy(primary, identityOrder(primary.length));
  let start = 0;
  for (let k = 1; k <= order.length; k++) {
    if (k < order.length && primary[order[k]] === primary[order[start]]) continue;
    if (k - start > 1) sortIndicesBy(secondary, order.subarray(start, k));
    start = k;
  }
  return order;
}
