import { identityOrder, sampleRange, sortIndicesBy, sortIndicesByPair } from "./radix-sort";
import { workInt32 } from "./work-arrays";

/**
 * Distribution sorts of the values themselves, not of indices as in lib/stats/radix-sort.ts:
 * Kendall's τ needs the pairs in (x, y) order and the discordant pairs among them, and moving
 * the values saves the gathers through an index order. Each value goes to a bucket by its place
 * between the minimum and maximum (monotone in the value, so the buckets are ordered and equal
 * values share one); small buckets are insertion-sorted, larger ones bucketed again, and skewed
 * values (still in large buckets after DEPTH passes, or a range that cannot be scaled) go to the
 * index sorts.
 */

/** Buckets of at most this many values are insertion-sorted. */
const BUCKET = 32;
const DEPTH = 3;
/**
 * Values per bucket on average: fewer buckets mean smaller count arrays and Fenwick tree, more
 * buckets shorter insertion sorts; these were the fastest on 100 000 pairs (bench agreement).
 */
const PAIRS_PER_BUCKET = 2;
const VALUES_PER_BUCKET = 8;

interface Buckets {
  /** Bucket of each value, 0..last. */
  ids: Int32Array;
  /** Start of each bucket (moved to its end by the scatter), last + 2 entries. */
  starts: Int32Array;
}

// One loop per function below (see lib/stats/radix-sort.ts).

/**
 * About values.length / perBucket buckets over [min, max], or null when the range is too wide
 * or too narrow to scale (or the values, at `depth`, have been bucketed often enough).
 */
function bucketValues(values: Float64Array, min: number, max: number, perBucket: number, depth: number): Buckets | null {
  const last = Math.ceil(values.length / perBucket);
  const scale = last / (max - min);
  if (depth >= DEPTH || !(scale > 0 && scale < Infinity)) return null;
  // Names by depth: a bucket is bucketed again while the buckets above it are still in use.
  const ids = workInt32(`bucketValues.ids.${depth}`, values.length);
  const starts = workInt32(`bucketValues.starts.${depth}`, last + 2).fill(0);
  countBuckets(values, min, scale, ids, starts);
  for (let b = 1; b < starts.length; b++) starts[b] += starts[b - 1];
  return { ids, starts };
}

/** Bucket of each value into `ids` (the maximum's is the last), bucket b's size into starts[b + 1]. */
function countBuckets(values: Float64Array, min: number, scale: number, ids: Int32Array, starts: Int32Array): void {
  for (let k = 0; k < values.length; k++) {
    const b = ((values[k] - min) * scale) | 0;
    ids[k] = b;
    starts[b + 1]++;
  }
}

/**
 * The pairs (x[k], y[k]) sorted by x, ties by y, as values. A bucket of one x value is sorted
 * by y in the same way (x and y swap roles).
 */
export function sortPairs(x: Float64Array, y: Float64Array, xs: Float64Array = new Float64Array(x.length), ys: Float64Array = new Float64Array(y.length)): { xs: Float64Array; ys: Float64Array } {
  sortPairsInto(x, y, xs, ys, 0);
  return { xs, ys };
}

function sortPairsInto(x: Float64Array, y: Float64Array, xs: Float64Array, ys: Float64Array, depth: number): void {
  const n = x.length;
  if (n <= BUCKET) {
    xs.set(x);
    ys.set(y);
    insertionSortPairs(xs, ys, 0, n);
    return;
  }
  const [min, max] = sampleRange(x);
  if (min === max) {
    const [yMin, yMax] = sampleRange(y);
    if (yMin === yMax) {
      xs.set(x);
      ys.set(y);
    } else {
      sortPairsInto(y, x, ys, xs, depth);
    }
    return;
  }
  const buckets = bucketValues(x, min, max, PAIRS_PER_BUCKET, depth);
  if (buckets === null) return gatherPairs(x, y, sortIndicesByPair(x, y), xs, ys);
  scatterPairs(x, y, buckets, xs, ys);
  sortPairBuckets(xs, ys, buckets.starts, depth);
}

function scatterPairs(x: Float64Array, y: Float64Array, { ids, starts }: Buckets, xs: Float64Array, ys: Float64Array): void {
  for (let k = 0; k < x.length; k++) {
    const to = starts[ids[k]]++;
    xs[to] = x[k];
    ys[to] = y[k];
  }
}

function sortPairBuckets(xs: Float64Array, ys: Float64Array, ends: Int32Array, depth: number): void {
  let from = 0;
  for (let b = 0; b < ends.length - 1; b++) {
    const to = ends[b];
    if (to - from > BUCKET) sortPairsInto(xs.slice(from, to), ys.slice(from, to), xs.subarray(from, to), ys.subarray(from, to), depth + 1);
    else if (to - from > 1) insertionSortPairs(xs, ys, from, to);
    from = to;
  }
}

function gatherPairs(x: Float64Array, y: Float64Array, order: Uint32Array, xs: Float64Array, ys: Float64Array): void {
  for (let k = 0; k < order.length; k++) {
    xs[k] = x[order[k]];
    ys[k] = y[order[k]];
  }
}

/** Sorts the pairs at [from, to) by (x, y) by insertion. */
function insertionSortPairs(xs: Float64Array, ys: Float64Array, from: number, to: number): void {
  for (let k = from + 1; k < to; k++) {
    const x = xs[k];
    const y = ys[k];
    let j = k - 1;
    while (j >= from && (xs[j] > x || (xs[j] === x && ys[j] > y))) {
      xs[j + 1] = xs[j];
      ys[j + 1] = ys[j];
      j--;
    }
    xs[j + 1] = x;
    ys[j + 1] = y;
  }
}

/**
 * The strict inversions of `values` (pairs i < j with values[i] > values[j]), with the values
 * sorted into `sorted`. As the values pass in their order, a Fenwick tree over bucket numbers
 * counts the earlier values in higher buckets (SciPy's `_kendall_dis` counts over ranks, which
 * would need a sort first); a stable scatter then groups each bucket's values in their order,
 * and the inversions within a bucket are counted by an insertion sort, or by the same again.
 */
export function countInversions(values: Float64Array, sorted: Float64Array, depth = 0): number {
  const n = values.length;
  if (n <= BUCKET) {
    sorted.set(values);
    return insertionSortInversions(sorted, 0, n);
  }
  const [min, max] = sampleRange(values);
  if (min === max) {
    sorted.set(values);
    return 0;
  }
  const buckets = bucketValues(values, min, max, VALUES_PER_BUCKET, depth);
  if (buckets === null) return rankInversions(values, sorted);
  const between = fenwickInversions(...occupiedBucketKeys(buckets));
  scatter(values, buckets, sorted);
  return between + bucketInversions(sorted, buckets.starts, depth);
}

/** Inversions of integer keys in [0, levels): for each key, the earlier keys above it (a Fenwick tree of counts per key). */
function fenwickInversions(keys: Int32Array, levels: number): number {
  const tree = workInt32("fenwickInversions.tree", levels + 1).fill(0);
  let inversions = 0;
  for (let k = 0; k < keys.length; k++) {
    const node = keys[k] + 1;
    let atMost = 0;
    for (let i = node; i > 0; i &= i - 1) atMost += tree[i];
    inversions += k - atMost;
    for (let i = node; i <= levels; i += i & -i) tree[i]++;
  }
  return inversions;
}

/**
 * The bucket numbers as Fenwick keys, and their number. When most buckets are empty (values that
 * repeat, as ratings do) the occupied ones are numbered 0, 1, … instead: a tree of a few levels.
 */
function occupiedBucketKeys({ ids, starts }: Buckets): [Int32Array, number] {
  const occupied = workInt32("occupiedBucketKeys.occupied", starts.length - 1);
  let levels = 0;
  for (let b = 0; b < occupied.length; b++) {
    occupied[b] = levels;
    if (starts[b + 1] > starts[b]) levels++;
  }
  if (2 * levels > occupied.length) return [ids, occupied.length];
  return [renumber(ids, occupied), levels];
}

function renumber(ids: Int32Array, to: Int32Array): Int32Array {
  const keys = workInt32("renumber.keys", ids.length);
  for (let k = 0; k < ids.length; k++) keys[k] = to[ids[k]];
  return keys;
}

function scatter(values: Float64Array, { ids, starts }: Buckets, sorted: Float64Array): void {
  for (let k = 0; k < values.length; k++) sorted[starts[ids[k]]++] = values[k];
}

function bucketInversions(sorted: Float64Array, ends: Int32Array, depth: number): number {
  let inversions = 0;
  let from = 0;
  for (let b = 0; b < ends.length - 1; b++) {
    const to = ends[b];
    if (to - from > BUCKET) inversions += countInversions(sorted.slice(from, to), sorted.subarray(from, to), depth + 1);
    else if (to - from > 1) inversions += insertionSortInversions(sorted, from, to);
    from = to;
  }
  return inversions;
}

/** Sorts a[from..to) by insertion, returning the strict inversions it removed. */
function insertionSortInversions(a: Float64Array, from: number, to: number): number {
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

/** countInversions for skewed values: the Fenwick count over dense ranks from an index sort. */
function rankInversions(values: Float64Array, sorted: Float64Array): number {
  const order = sortIndicesBy(values, identityOrder(values.length));
  const ranks = new Int32Array(values.length);
  const levels = denseRanks(values, order, ranks, sorted);
  return fenwickInversions(ranks, levels);
}

/** Dense rank (0-based) of each value into `ranks`, the values in order into `sorted`; returns the number of distinct values. */
function denseRanks(values: Float64Array, order: Uint32Array, ranks: Int32Array, sorted: Float64Array): number {
  let level = 0;
  for (let k = 0; k < order.length; k++) {
    const v = values[order[k]];
    if (k > 0 && v !== sorted[k - 1]) level++;
    ranks[order[k]] = level;
    sorted[k] = v;
  }
  return level + 1;
}
