import { type UnitCounts, unitCounts } from "./counts";
import { oncePer } from "./once-per";
import { unpairedReason } from "./reasons";
import { asTable, isColumns, type AnswerColumns, type AnswersInput, scaleOrder, type TableOptions, ValueNumbers } from "./table";
import type { AgreementResult, Level, AnswerValue } from "./types";

export interface AlphaResult extends AgreementResult {
  level: Level;
  /** n in Krippendorff's notation: the number of pairable values (ratings of items with >= 2 ratings). */
  pairableValues: number;
  /** D_o = Σ o_ck δ²_ck / n. */
  observedDisagreement: number | null;
  /** D_e = Σ n_c n_k δ²_ck / (n(n-1)). α = 1 - D_o/D_e. */
  expectedDisagreement: number | null;
}

/**
 * Krippendorff's squared difference δ²(c, k) between scale categories (Krippendorff 2011,
 * "Computing Krippendorff's Alpha-Reliability"), as a q×q matrix:
 * nominal [c≠k]; ordinal (Σ_{g=c..k} n_g - (n_c + n_k)/2)² over the scale order, with n_g
 * the pairable-value marginals; interval (c - k)²; ratio ((c - k)/(c + k))², 0 when c + k = 0.
 */
export function differenceMatrix(level: Level, scale: readonly AnswerValue[], marginals: ArrayLike<number>): number[][] {
  const q = scale.length;
  if ((level === "interval" || level === "ratio") && !scale.every((v) => typeof v === "number")) {
    throw new TypeError(`the ${level} level needs numeric ratings; labels only support nominal (or ordinal with a declared scale)`);
  }
  const x = scale as readonly number[];
  // cumulative[g] = Σ_{h<g} n_h, so Σ_{g=c..k} n_g = cumulative[k+1] - cumulative[c] for c <= k.
  const cumulative = new Float64Array(q + 1);
  for (let g = 0; g < q; g++) cumulative[g + 1] = cumulative[g] + marginals[g];
  // Plain loops: this runs for every batch of agreement over time.
  const delta: number[][] = [];
  for (let c = 0; c < q; c++) {
    const row: number[] = [];
    for (let k = 0; k < q; k++) row.push(c === k ? 0 : difference(level, x, cumulative, marginals, c, k));
    delta.push(row);
  }
  return delta;
}

/** δ²(c, k) for c ≠ k (see differenceMatrix). */
function difference(level: Level, x: readonly number[], cumulative: Float64Array, marginals: ArrayLike<number>, c: number, k: number): number {
  switch (level) {
    case "nominal":
      return 1;
    case "ordinal": {
      const lo = Math.min(c, k);
      const hi = Math.max(c, k);
      return (cumulative[hi + 1] - cumulative[lo] - (marginals[c] + marginals[k]) / 2) ** 2;
    }
    case "interval":
      return (x[c] - x[k]) ** 2;
    case "ratio":
      return x[c] + x[k] === 0 ? 0 : ((x[c] - x[k]) / (x[c] + x[k])) ** 2;
  }
}

/**
 * The coincidence matrix o_ck = Σ_u n_uc (n_uk - [c=k]) / (m_u - 1) over units with m_u >= 2
 * values (Krippendorff 2011 §B), q×q over the distinct scale values only (row-major), built
 * from per-unit category counts in O(Σ_u d_u²) for d_u distinct values per unit: no pairs
 * of ratings are enumerated, so 10^6 ratings take milliseconds. With `subset` (unit indices),
 * over those units in that order: the sums of the subset's own table, term for term.
 */
export function coincidences(counts: UnitCounts, subset: Int32Array | null = null): { o: Float64Array; units: number } {
  const q = counts.categories;
  const o = new Float64Array(q * q);
  let units = 0;
  const length = subset ? subset.length : counts.total.length;
  for (let i = 0; i < length; i++) {
    const u = subset ? subset[i] : i;
    const m = counts.total[u];
    if (m < 2) continue;
    units++;
    addUnit(o, q, counts.category, counts.count, counts.start[u], counts.start[u + 1], m);
  }
  return { o, units };
}

/** The coincidences of all units, made once per counts (a report asks for alpha at two or more levels). */
const tableCoincidences = oncePer((counts: UnitCounts) => coincidences(counts));

/**
 * Adds one unit of m >= 2 values to o (row stride `stride`): its distinct categories are
 * category[from..to) with counts count[…]. Each cell gets at most one term per unit, so the
 * cells are the same sums whatever order a unit lists its categories in.
 */
function addUnit(o: Float64Array, stride: number, category: Int32Array, count: Int32Array, from: number, to: number, m: number): void {
  for (let e = from; e < to; e++) {
    const c = category[e];
    const nc = count[e];
    for (let f = from; f < to; f++) o[c * stride + category[f]] += (nc * (count[f] - (e === f ? 1 : 0))) / (m - 1);
  }
}

/** Coincidences over first-seen value numbers (row stride `stride`, grown as values appear) and the per-unit scratch of columnCoincidences. */
class UnitCoincidences {
  stride = 8;
  o = new Float64Array(this.stride * this.stride);
  units = 0;
  /** Per value number: its count in the current unit. */
  count = new Int32Array(this.stride);
  /** The current unit's distinct value numbers, and their counts once it closes. */
  present = new Int32Array(this.stride);
  presentCount = new Int32Array(this.stride);

  /** Doubles the stride, when a value number reaches it. */
  grow(): void {
    const stride = 2 * this.stride;
    const o = new Float64Array(stride * stride);
    for (let c = 0; c < this.stride; c++) o.set(this.o.subarray(c * this.stride, (c + 1) * this.stride), c * stride);
    const grown = (old: Int32Array) => {
      const array = new Int32Array(stride);
      array.set(old);
      return array;
    };
    this.stride = stride;
    this.o = o;
    this.count = grown(this.count);
    this.present = grown(this.present);
    this.presentCount = new Int32Array(stride);
  }

  /** Closes a unit of m values whose `distinct` value numbers are present[0..distinct). */
  close(m: number, distinct: number): void {
    for (let d = 0; d < distinct; d++) {
      this.presentCount[d] = this.count[this.present[d]];
      this.count[this.present[d]] = 0;
    }
    if (m < 2) return;
    this.units++;
    addUnit(this.o, this.stride, this.present, this.presentCount, 0, distinct, m);
  }

  /** o over the scale: first-seen value number k is at scale position position[k] of q. */
  onScale(position: Int32Array, q: number): Float64Array {
    const o = new Float64Array(q * q);
    for (let c = 0; c < position.length; c++) for (let k = 0; k < position.length; k++) o[position[c] * q + position[k]] = this.o[c * this.stride + k];
    return o;
  }
}

/**
 * The coincidences of ratings given as columns whose entries are grouped by item (as a query
 * ordered by item returns them), counted in one pass over the columns without building their
 * AnswerTable: the units in the table's order, so the same sums as coincidences(unitCounts(table)).
 * Null when the entries are not grouped by item or fail a check of the table (an index out of
 * range, a rater rating an item twice, ragged columns): the table then sorts or reports them.
 */
function columnCoincidences(columns: AnswerColumns, options: TableOptions): { o: Float64Array; units: number; scale: AnswerValue[] } | null {
  const n = columns.item.length;
  if (columns.rater.length !== n || columns.value.length !== n) return null;
  const values = new ValueNumbers();
  const acc = new UnitCoincidences();
  if (!countUnits(columns, values, acc)) return null;
  const { scale, position } = scaleOrder(values.observed(), options);
  return { o: acc.onScale(position, scale.length), units: acc.units, scale };
}

/** columnCoincidences' pass (the loop alone in a function, see lib/agreement/table.ts); false when it must give up. */
function countUnits(columns: AnswerColumns, values: ValueNumbers, acc: UnitCoincidences): boolean {
  const n = columns.item.length;
  const itemSeen = new Uint8Array(columns.items.length);
  const raterUnit = new Int32Array(columns.raters.length).fill(-1);
  let unit = -1;
  let item = -1;
  let unitStart = 0;
  let distinct = 0;
  // e = n closes the last unit; nothing runs after the loop.
  for (let e = 0; e <= n; e++) {
    if (e === n || columns.item[e] !== item) {
      if (e > 0) acc.close(e - unitStart, distinct);
      if (e === n) break;
      item = columns.item[e];
      if (!(item >= 0 && item < itemSeen.length) || itemSeen[item] === 1) return false;
      itemSeen[item] = 1;
      unit++;
      unitStart = e;
      distinct = 0;
    }
    const r = columns.rater[e];
    if (!(r >= 0 && r < raterUnit.length) || raterUnit[r] === unit) return false;
    raterUnit[r] = unit;
    const v = values.number(columns.value[e]);
    if (v === acc.stride) acc.grow();
    if (acc.count[v]++ === 0) acc.present[distinct++] = v;
  }
  return true;
}

/**
 * Krippendorff's alpha for ragged ratings by the coincidence-matrix method (Krippendorff 2011;
 * reference pln-fing-udelar/fast-krippendorff):
 * α = 1 - (n - 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck, n_c the coincidence marginals, n their total.
 * Items with fewer than two ratings are ignored. The level is required: the krippendorff
 * package defaults to "interval", CRScore reports ordinal alphas. The value domain is the
 * scale (declared, or the sorted observed values). With a single distinct pairable value
 * D_e = 0 and α is undefined (the package raises): null with a reason.
 * Time O(N + Σ_u d_u² + q²), memory O(N + q²) for N ratings and q distinct values; columns
 * grouped by item take O(items + q²) memory.
 */
export function krippendorffAlpha(input: AnswersInput, options: TableOptions & { level: Level }): AlphaResult {
  const counted = isColumns(input) ? columnCoincidences(input, options) : null;
  if (counted) return alphaFromCoincidences(counted.o, counted.units, options.level, counted.scale, () => unpairedReason(asTable(input, options)));
  const table = asTable(input, options);
  const { o, units } = tableCoincidences(unitCounts(table));
  return alphaFromCoincidences(o, units, options.level, table.scale, () => unpairedReason(table));
}

/** Krippendorff's alpha from the coincidence matrix o (q×q, row-major) of `units` pairable units (see krippendorffAlpha). */
export function alphaFromCoincidences(o: Float64Array, units: number, level: Level, scale: readonly AnswerValue[], noPairsReason: () => string): AlphaResult {
  const q = scale.length;
  const marginals = new Float64Array(q);
  for (let c = 0; c < q; c++) for (let k = 0; k < q; k++) marginals[c] += o[c * q + k];
  let n = 0;
  for (let c = 0; c < q; c++) n += marginals[c];
  const base = { level, n: units, pairableValues: Math.round(n) };
  if (units === 0) return { ...base, value: null, reason: noPairsReason(), observedDisagreement: null, expectedDisagreement: null };

  const delta = differenceMatrix(level, scale, marginals);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < q; c++) {
    for (let k = 0; k < q; k++) {
      observed += o[c * q + k] * delta[c][k];
      expected += marginals[c] * marginals[k] * delta[c][k];
    }
  }
  const dObserved = observed / n;
  const dExpected = expected / (n * (n - 1));
  if (expected === 0) {
    return { ...base, value: null, reason: "all pairable ratings have the same value, so expected disagreement is 0 and alpha is undefined", observedDisagreement: dObserved, expectedDisagreement: 0 };
  }
  return { ...base, value: 1 - dObserved / dExpected, observedDisagreement: dObserved, expectedDisagreement: dExpected };
}
