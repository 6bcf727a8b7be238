/**
 * Agreement coefficients of bootstrap resamples of items, without building the resampled
 * tables. A resample is a list of item indices into table.items (repeats allowed) and stands
 * for the table of those items in that order, each with all its ratings (lib/analysis
 * resampleItems). The per-item ingredients are computed once from the table:
 * - percent agreement, Fleiss, Gwet: the item's number of ratings r, its share of agreeing
 *   rater pairs and its category shares r_k/r (agreementComponents);
 * - Krippendorff's alpha: the item's coincidence contributions n_c(n_k - [c=k])/(m-1);
 * - Cohen's kappa: each pair's category indices (a, b) on the item, when both rated it.
 * Items with the same ingredients share one row ("type"; a few hundred at most for a Likert
 * scale and a handful of raters), so a resample reads small, cache-resident rows, and the
 * sums several coefficients read (p_a, π, the coincidences, the pairs' confusion counts) are
 * computed once per resample.
 *
 * Exactness: a resample adds the rows up over its picks in pick order, the order in which the
 * coefficient itself sums them over the resampled table's items. Every accumulator (π_k, a
 * coincidence cell, Σ p_a) receives the same additions in the same order, so every value
 * equals the coefficient of the resampled table to the last bit; absent entries add +0 to a
 * non-negative sum, which changes nothing. Confusion counts are integers, so they may be
 * tallied per type. tests/unit/agreement/resampled.test.ts compares the two paths.
 */
import { pairAgreement } from "./cohen";
import { agreementComponents, type UnitCounts, unitCounts } from "./counts";
import { fleissFromComponents } from "./fleiss";
import { gwetChanceFactor, gwetFromComponents } from "./gwet";
import { alphaFromCoincidences } from "./krippendorff";
import type { RatingTable } from "./table";
import type { Level, WeightScheme } from "./types";
import { agreementWeights, scalePositions } from "./weights";

/**
 * A coefficient of item resamples of one table: `picks` holds item indices (integral numbers);
 * null where the coefficient of the resampled table is undefined.
 */
export type ResampledCoefficient = (picks: ArrayLike<number>) => number | null;

const noReason = () => "";

/** Numbers the distinct keys of the items (null: the item has no row, type -1). */
function itemTypes(items: number, key: (u: number) => string | null): { typeOf: Int32Array; first: number[] } {
  const typeOf = new Int32Array(items);
  const index = new Map<string, number>();
  const first: number[] = [];
  for (let u = 0; u < items; u++) {
    const k = key(u);
    if (k === null) {
      typeOf[u] = -1;
      continue;
    }
    let t = index.get(k);
    if (t === undefined) {
      index.set(k, (t = first.length));
      first.push(u);
    }
    typeOf[u] = t;
  }
  return { typeOf, first };
}

/** The item's (category, count) entries in table order: equal keys, equal ingredients. */
function entriesKey(counts: UnitCounts, u: number): string | null {
  if (counts.total[u] === 0) return null;
  let key = "";
  for (let e = counts.start[u]; e < counts.start[u + 1]; e++) key += `${counts.category[e]}:${counts.count[e]},`;
  return key;
}

/** Rows padded to a multiple of 8 columns, so sums run over 8 accumulators at a time. */
const padded = (width: number) => Math.max(8, Math.ceil(width / 8) * 8);

/**
 * out[c] = Σ over i in order of rows[types[i]][c] for c < columns, skipping type -1: one pass
 * per 8 columns, each column summed in a local accumulator (no memory round trip per addition).
 */
function sumRows(types: Int32Array, rows: Float64Array, width: number, columns: number, out: Float64Array): void {
  for (let base = 0; base < columns; base += 8) {
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    let a4 = 0;
    let a5 = 0;
    let a6 = 0;
    let a7 = 0;
    for (let i = 0; i < types.length; i++) {
      const t = types[i];
      if (t < 0) continue;
      const o = t * width + base;
      a0 += rows[o];
      a1 += rows[o + 1];
      a2 += rows[o + 2];
      a3 += rows[o + 3];
      a4 += rows[o + 4];
      a5 += rows[o + 5];
      a6 += rows[o + 6];
      a7 += rows[o + 7];
    }
    out[base] = a0;
    out[base + 1] = a1;
    out[base + 2] = a2;
    out[base + 3] = a3;
    out[base + 4] = a4;
    out[base + 5] = a5;
    out[base + 6] = a6;
    out[base + 7] = a7;
  }
}

/** Per-type rows of one table's items by their (category, count) entries. */
class EntryTypes {
  readonly typeOf: Int32Array;
  readonly types: number;
  /** Per type: its number of ratings r. */
  readonly total: Int32Array;
  /** Per type, padded to `width`: count/r of each category, as agreementComponents adds it to π. */
  readonly shares: Float64Array;
  readonly width: number;
  /** Per type, padded to `cellWidth`: coincidence contributions to the cells c <= k (zero for r < 2). */
  readonly coincidences: Float64Array;
  readonly cellWidth: number;
  readonly cells: number;
  /** Cell (c <= k) of each entry of the q×q coincidence matrix, row-major. */
  readonly cellOf: Int32Array;
  private readonly counts: UnitCounts;
  private readonly first: number[];
  private readonly agreement = new Map<string, Float64Array>();

  constructor(table: RatingTable) {
    const counts = unitCounts(table);
    const q = counts.categories;
    const { typeOf, first } = itemTypes(counts.total.length, (u) => entriesKey(counts, u));
    this.counts = counts;
    this.first = first;
    this.typeOf = typeOf;
    this.types = first.length;
    this.total = Int32Array.from(first, (u) => counts.total[u]);
    this.width = padded(q);
    this.shares = new Float64Array(first.length * this.width);
    // o_kc receives the same additions as o_ck (n_k·n_c = n_c·n_k exactly): only c <= k is summed.
    this.cellOf = new Int32Array(q * q);
    let cells = 0;
    for (let c = 0; c < q; c++) for (let k = c; k < q; k++) this.cellOf[c * q + k] = this.cellOf[k * q + c] = cells++;
    this.cells = cells;
    this.cellWidth = padded(cells);
    this.coincidences = new Float64Array(first.length * this.cellWidth);
    first.forEach((u, t) => {
      const m = counts.total[u];
      for (let e = counts.start[u]; e < counts.start[u + 1]; e++) {
        this.shares[t * this.width + counts.category[e]] = counts.count[e] / m;
        if (m < 2) continue;
        for (let f = counts.start[u]; f < counts.start[u + 1]; f++) {
          const c = counts.category[e];
          const k = counts.category[f];
          if (c <= k) this.coincidences[t * this.cellWidth + this.cellOf[c * q + k]] = (counts.count[e] * (counts.count[f] - (e === f ? 1 : 0))) / (m - 1);
        }
      }
    });
  }

  /** Per type: its (weighted) share of agreeing rater pairs, as agreementComponents computes it. */
  unitAgreement(key: string, weights: readonly (readonly number[])[] | null): Float64Array {
    let values = this.agreement.get(key);
    if (!values) {
      const perItem = agreementComponents(this.counts, weights).unitAgreement;
      values = Float64Array.from(this.first, (u) => perItem[u]);
      this.agreement.set(key, values);
    }
    return values;
  }
}

/** Per-type confusion cells of rater pairs: items with the same rating per rater share a type. */
class RatingTypes {
  readonly typeOf: Int32Array;
  private readonly vectors: Int32Array;
  private readonly raters: number;

  constructor(table: RatingTable) {
    const raters = table.raters.length;
    const vector = new Int32Array(raters);
    const fill = (u: number) => {
      vector.fill(-1);
      for (let e = table.itemStart[u]; e < table.itemStart[u + 1]; e++) vector[table.rater[e]] = table.value[e];
    };
    const { typeOf, first } = itemTypes(table.items.length, (u) => {
      fill(u);
      return vector.join(",");
    });
    this.typeOf = typeOf;
    this.raters = raters;
    this.vectors = new Int32Array(first.length * raters);
    first.forEach((u, t) => {
      fill(u);
      this.vectors.set(vector, t * raters);
    });
  }

  get types(): number {
    return this.vectors.length / Math.max(this.raters, 1);
  }

  /** Category index of rater r on items of type t, -1 when unrated. */
  value(t: number, r: number): number {
    return this.vectors[t * this.raters + r];
  }
}

/**
 * Item resamples of one table: load a resample, then read any coefficients of it; the sums
 * they share are computed once per resample. `load` keeps a reference to `picks` until the
 * next load, so the caller must not change them in between.
 */
export class ItemResamples {
  readonly table: RatingTable;
  private entryTypes: EntryTypes | null = null;
  private ratingTypes: RatingTypes | null = null;
  private current: ArrayLike<number> = [];
  // Per-resample memos, cleared by load().
  private types: Int32Array | null = null;
  private readonly components = new Map<string, { pa: number | null; paired: number; rated: number }>();
  private pi: Float64Array | null = null;
  private coincidences: { o: Float64Array; units: number } | null = null;
  private typeCounts: Float64Array | null = null;
  private readonly typeBuffer: Int32Array;

  constructor(table: RatingTable) {
    this.table = table;
    this.typeBuffer = new Int32Array(table.items.length);
  }

  /** Sets the resample the coefficients below are computed on. */
  load(picks: ArrayLike<number>): this {
    this.current = picks;
    this.types = null;
    this.components.clear();
    this.pi = null;
    this.coincidences = null;
    this.typeCounts = null;
    return this;
  }

  /** The loaded resample's item indices. */
  get picks(): ArrayLike<number> {
    return this.current;
  }

  private entries(): EntryTypes {
    return (this.entryTypes ??= new EntryTypes(this.table));
  }

  /** The entry type of each pick, in pick order. */
  private pickTypes(): Int32Array {
    if (this.types) return this.types;
    const picks = this.current;
    const { typeOf } = this.entries();
    const types = picks.length <= this.typeBuffer.length ? this.typeBuffer.subarray(0, picks.length) : new Int32Array(picks.length);
    for (let i = 0; i < picks.length; i++) types[i] = typeOf[picks[i]];
    return (this.types = types);
  }

  /** p_a (unweighted or weighted by `scheme`), paired and rated items, as agreementComponents. */
  private componentsOf(scheme: WeightScheme | null): { pa: number | null; paired: number; rated: number } {
    const key = scheme ?? "none";
    const known = this.components.get(key);
    if (known) return known;
    const entries = this.entries();
    const unitAgreement = entries.unitAgreement(key, scheme === null ? null : agreementWeights(scheme, scalePositions(this.table.scale)));
    const types = this.pickTypes();
    const { total } = entries;
    let paSum = 0;
    let paired = 0;
    let rated = 0;
    for (let i = 0; i < types.length; i++) {
      const t = types[i];
      if (t < 0) continue;
      rated++;
      if (total[t] < 2) continue;
      paSum += unitAgreement[t];
      paired++;
    }
    const result = { pa: paired > 0 ? paSum / paired : null, paired, rated };
    this.components.set(key, result);
    return result;
  }

  /** Category prevalences π_k = mean over rated items of r_k/r. */
  private prevalences(): Float64Array {
    if (this.pi) return this.pi;
    const entries = this.entries();
    const q = this.table.scale.length;
    const sums = new Float64Array(entries.width);
    sumRows(this.pickTypes(), entries.shares, entries.width, q, sums);
    const { rated } = this.componentsOf(null);
    const pi = new Float64Array(q);
    for (let k = 0; k < q; k++) pi[k] = sums[k] / rated;
    return (this.pi = pi);
  }

  percentAgreement(): number | null {
    return this.componentsOf(null).pa;
  }

  /** Fleiss' kappa (fleissKappa, method "fleiss"). */
  fleissKappa(): number | null {
    const { pa, paired } = this.componentsOf(null);
    if (pa === null) return null;
    return fleissFromComponents({ pa, pi: this.prevalences(), paired }, this.table.scale.length, "fleiss", noReason).value;
  }

  /** Gwet's AC1 (unweighted) or AC2 (gwetAc). */
  gwetAc(scheme: WeightScheme = "unweighted"): number | null {
    const q = this.table.scale.length;
    const { pa } = this.componentsOf(scheme);
    if (pa === null || q < 2) return null;
    const peFactor = gwetChanceFactor(agreementWeights(scheme, scalePositions(this.table.scale)), q);
    return gwetFromComponents(pa, this.prevalences(), peFactor).value;
  }

  /** Krippendorff's alpha (krippendorffAlpha). */
  krippendorffAlpha(level: Level): number | null {
    if (!this.coincidences) {
      const entries = this.entries();
      const q = this.table.scale.length;
      const sums = new Float64Array(entries.cellWidth);
      sumRows(this.pickTypes(), entries.coincidences, entries.cellWidth, entries.cells, sums);
      const o = new Float64Array(q * q);
      for (let x = 0; x < q * q; x++) o[x] = sums[entries.cellOf[x]];
      this.coincidences = { o, units: this.componentsOf(null).paired };
    }
    return alphaFromCoincidences(this.coincidences.o, this.coincidences.units, level, this.table.scale, noReason).value;
  }

  /** Cohen's kappas (cohenKappa) of pairs of raters; a pair with a rater missing from the table (or one rater twice) gives null. */
  cohenKappas(pairs: readonly (readonly [string, string])[], scheme: WeightScheme = "unweighted"): (number | null)[] {
    const ratingTypes = (this.ratingTypes ??= new RatingTypes(this.table));
    if (!this.typeCounts) {
      const counts = new Float64Array(ratingTypes.types);
      const picks = this.current;
      for (let i = 0; i < picks.length; i++) counts[ratingTypes.typeOf[picks[i]]]++;
      this.typeCounts = counts;
    }
    const times = this.typeCounts;
    const q = this.table.scale.length;
    return pairs.map(([a, b]) => {
      const ra = this.table.raters.indexOf(a);
      const rb = this.table.raters.indexOf(b);
      if (ra < 0 || rb < 0 || ra === rb) return null;
      const confusion = new Float64Array(q * q);
      let n = 0;
      for (let t = 0; t < times.length; t++) {
        if (times[t] === 0) continue;
        const va = ratingTypes.value(t, ra);
        const vb = ratingTypes.value(t, rb);
        if (va < 0 || vb < 0) continue;
        confusion[va * q + vb] += times[t];
        n += times[t];
      }
      if (n === 0) return null;
      const { po, pe } = pairAgreement(confusion, n, q, this.table.scaleDeclared, scheme);
      return pe >= 1 ? null : (po - pe) / (1 - pe);
    });
  }

  cohenKappa(raters: readonly [string, string], scheme: WeightScheme = "unweighted"): number | null {
    return this.cohenKappas([raters], scheme)[0];
  }
}

/** Percent agreement (percentAgreement) of item resamples. */
export function resampledPercentAgreement(table: RatingTable): ResampledCoefficient {
  const resamples = new ItemResamples(table);
  return (picks) => resamples.load(picks).percentAgreement();
}

/** Fleiss' kappa (fleissKappa, method "fleiss") of item resamples. */
export function resampledFleissKappa(table: RatingTable): ResampledCoefficient {
  const resamples = new ItemResamples(table);
  return (picks) => resamples.load(picks).fleissKappa();
}

/** Gwet's AC1 or AC2 (gwetAc) of item resamples. */
export function resampledGwetAc(table: RatingTable, scheme: WeightScheme = "unweighted"): ResampledCoefficient {
  const resamples = new ItemResamples(table);
  return (picks) => resamples.load(picks).gwetAc(scheme);
}

/** Krippendorff's alpha (krippendorffAlpha) of item resamples. */
export function resampledKrippendorffAlpha(table: RatingTable, level: Level): ResampledCoefficient {
  const resamples = new ItemResamples(table);
  return (picks) => resamples.load(picks).krippendorffAlpha(level);
}

/** Cohen's kappa (cohenKappa) of two raters of the table on item resamples. */
export function resampledCohenKappa(table: RatingTable, raters: readonly [string, string], scheme: WeightScheme = "unweighted"): ResampledCoefficient {
  const resamples = new ItemResamples(table);
  return (picks) => resamples.load(picks).cohenKappa(raters, scheme);
}
