import { oncePer } from "./once-per";
import type { AnswerTable } from "./table";

export interface PairedValues {
  /** Item indices (into table.items) rated by both raters, in table order. */
  items: Int32Array;
  /** Scale indices of rater A's and rater B's ratings on those items. */
  a: Int32Array;
  b: Int32Array;
}

/**
 * The ratings of two raters on the items both rated (listwise deletion of the pair, as
 * sklearn's cohen_kappa_score expects aligned complete vectors). O(ratings).
 */
export function pairedValues(table: AnswerTable, raterA: string, raterB: string): PairedValues {
  // A rater without ratings is not in the table (indexOf gives -1) and pairs with nothing;
  // one name twice pairs with nothing either (each rater has one rating per item).
  const ra = table.raters.indexOf(raterA);
  const rb = table.raters.indexOf(raterB);
  const units = table.items.length;
  const items = new Int32Array(units);
  const a = new Int32Array(units);
  const b = new Int32Array(units);
  const n = ra >= 0 && rb >= 0 && ra !== rb ? fillPairs(table, ra, rb, items, a, b) : 0;
  return { items: items.subarray(0, n), a: a.subarray(0, n), b: b.subarray(0, n) };
}

/** One scan of the entries: the items both raters rated, with their values; returns how many (the loop in a function of its own, see lib/agreement/table.ts). */
function fillPairs(table: AnswerTable, ra: number, rb: number, items: Int32Array, a: Int32Array, b: Int32Array): number {
  let n = 0;
  for (let u = 0; u < items.length; u++) {
    let va = -1;
    let vb = -1;
    for (let e = table.itemStart[u]; e < table.itemStart[u + 1]; e++) {
      const r = table.rater[e];
      if (r === ra) va = table.value[e];
      else if (r === rb) vb = table.value[e];
    }
    if (va < 0 || vb < 0) continue;
    items[n] = u;
    a[n] = va;
    b[n++] = vb;
  }
  return n;
}

export interface PairConfusions {
  /** Items both raters of pair (i, j), i < j in table order, rated: at index i·R + j. */
  n: Int32Array;
  /**
   * Their confusion counts (q×q, row-major, rows rater i's category) at the same index; absent
   * for pairs that rated no item in common, so a crowd of raters who each meet a few others
   * costs arrays for the pairs that met only.
   */
  counts: (Float64Array | undefined)[];
}

/**
 * Confusion counts of every pair of raters on the items both rated, in one pass over the
 * items: the counts pairedValues would give pair by pair. O(Σ ratings per item²). Tallied once
 * per table: a report's pairwise matrix, confusion matrix and mean pairwise kappa read the same
 * table's.
 */
export const pairConfusions: (table: AnswerTable) => PairConfusions = oncePer((table: AnswerTable) => tallyPairs(table, null));

/**
 * The pair confusions of the items `items` (indices into table.items; null: all), in one pass
 * over their ratings: the counts of the subset's own table (integers, so exactly).
 */
export function tallyPairs(table: AnswerTable, items: Int32Array | null): PairConfusions {
  const raters = table.raters.length;
  const q = table.scale.length;
  const n = new Int32Array(raters * raters);
  const counts: (Float64Array | undefined)[] = new Array(raters * raters);
  const { itemStart, rater, value } = table;
  const length = items ? items.length : itemStart.length - 1;
  for (let i = 0; i < length; i++) {
    const u = items ? items[i] : i;
    // Each pair of the item's ratings once, counted for the earlier rater in table order (a rater rates an item once).
    for (let e = itemStart[u]; e < itemStart[u + 1]; e++) {
      for (let f = e + 1; f < itemStart[u + 1]; f++) {
        const first = rater[e] < rater[f] ? e : f;
        const second = first === e ? f : e;
        const pair = rater[first] * raters + rater[second];
        n[pair]++;
        (counts[pair] ??= new Float64Array(q * q))[value[first] * q + value[second]]++;
      }
    }
  }
  return { n, counts };
}
