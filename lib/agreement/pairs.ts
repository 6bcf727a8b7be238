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
  const valueOf = (u: number, r: number) => {
    for (let e = table.itemStart[u]; e < table.itemStart[u + 1]; e++) if (table.rater[e] === r) return table.value[e];
    return -1;
  };
  let n = 0;
  // One name twice pairs with nothing (each rater has one rating per item).
  if (ra >= 0 && rb >= 0 && ra !== rb) for (let u = 0; u < table.items.length; u++) if (valueOf(u, ra) >= 0 && valueOf(u, rb) >= 0) n++;
  const items = new Int32Array(n);
  const a = new Int32Array(n);
  const b = new Int32Array(n);
  for (let u = 0, k = 0; k < n; u++) {
    const va = valueOf(u, ra);
    const vb = valueOf(u, rb);
    if (va < 0 || vb < 0) continue;
    items[k] = u;
    a[k] = va;
    b[k++] = vb;
  }
  return { items, a, b };
}
