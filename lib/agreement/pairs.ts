import type { RatingTable } from "./table";

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
export function pairedValues(table: RatingTable, raterA: string, raterB: string): PairedValues {
  // A rater without ratings is not in the table (indexOf gives -1) and pairs with nothing.
  const ra = table.raters.indexOf(raterA);
  const rb = table.raters.indexOf(raterB);
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
    if (va < 0 || vb < 0 || ra < 0 || rb < 0) continue;
    items.push(u);
    a.push(va);
    b.push(vb);
  }
  return { items: Int32Array.from(items), a: Int32Array.from(a), b: Int32Array.from(b) };
}
