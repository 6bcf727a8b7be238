import type { RatingTable } from "./table";

export interface PairedValues {
  /** Item indices (into table.items) rated by both raters, in table order. */
  items: Int32Array;
  /** Scale indices of rater A's and rater B's ratings on those items. */
  a: Int32Array;
  b: Int32Array;
}

/** Index of a rater in the table; unknown names are a caller error. */
export function raterIndex(table: RatingTable, rater: string): number {
  const r = table.raters.indexOf(rater);
  if (r < 0) throw new RangeError(`unknown rater ${rater}`);
  return r;
}

/**
 * The ratings of two raters on the items both rated (listwise deletion of the pair, as
 * sklearn's cohen_kappa_score expects aligned complete vectors). O(ratings).
 */
export function pairedValues(table: RatingTable, raterA: string, raterB: string): PairedValues {
  const ra = raterIndex(table, raterA);
  const rb = raterIndex(table, raterB);
  const items: number[] = [];
  const a: number[] = [];
  const b: number[] = [];
  for (let u = 0; u < table.items.length; u++) {
    let va = -1;
    let vb = -1;
    for (let e = table.itemStart[u]; e < table.itemStart[u + 1]; e++) {
      if (table.rater[e] === ra) va = table.value[e];
      else if (table.rater[e] === rb) vb = table.value[e];
    }
    if (va < 0 || vb < 0) continue;
    items.push(u);
    a.push(va);
    b.push(vb);
  }
  return { items: Int32Array.from(items), a: Int32Array.from(a), b: Int32Array.from(b) };
}
