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
 * scale and a handful of raters), so a resample is counted once per type (one pass over its
 * picks) and the sums several coefficients read (p_a, π, the coincidences, the pairs'
 * confusion counts) are Σ over types of count × row, computed once per resample. Tables
 * resampled with the same picks (a task's questions, SharedResamples) count them once, by
 * joint type.
 *
 * Accuracy: the coefficient of the resampled table adds the items' contributions one by one
 * in pick order; here each type's contribution is added once, multiplied by its count. The
 * terms are the same, only the summation order differs, so a value can differ from the
 * resampled table's coefficient in its last bits (each sum's rounding), not more: counts and
 * confusion counts are integers, exact either way. tests/unit/agreement/resampled.test.ts
 * compares the two paths to within 5e-14 (tests/unit/agreement/summation-order.ts).
 */
import { pairAgreement } from "./cohen";
import { agreementComponents, type UnitCounts, unitCounts } from "./counts";
import { fleissFromComponents } from "./fleiss";
import { gwetChanceFactor, gwetFromComponents } from "./gwet";
import { alphaFromCoincidences } from "./krippendorff";
import type { AnswerTable } from "./table";
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

/** How many times `picks` pick each of `types` types (typeOf: item → type, -1 for none). */
function countTypes(picks: ArrayLike<number>, typeOf: Int32Array, types: number): Int32Array {
  const times = new Int32Array(types);
  for (let i = 0; i < picks.length; i++) {
    const t = typeOf[picks[i]];
    if (t >= 0) times[t]++;
  }
  return times;
}

/**
 * out[k] = Σ over types t of times[t] × rows[t·width + k]: the resample's sum of a per-item
 * row of `width` columns, from how many times it picked each type.
 */
function weightedRows(times: Int32Array, rows: Float64Array, width: number, out: Float64Array): void {
  for (let t = 0; t < times.length; t++) {
    const c = times[t];
    if (c === 0) continue;
    for (let k = 0, o = t * width; k < width; k++) out[k] += c * rows[o + k];
  }
}

/** Per-type rows of one table's items by their (category, count) entries. */
class EntryTypes {
  readonly typeOf: Int32Array;
  readonly types: number;
  /** Per type: its number of ratings r. */
  readonly total: Int32Array;
  /** Per type, q columns: count/r of each category, as agreementComponents adds it to π. */
  readonly shares: Float64Array;
  /** Per type, `cells` columns: coincidence contributions to the cells c <= k (zero for r < 2). */
  readonly coincidences: Float64Array;
  readonly cells: number;
  /** Cell (c <= k) of each entry of the q×q coincidence matrix, row-major. */
  readonly cellOf: Int32Array;
  private readonly counts: UnitCounts;
  private readonly first: number[];
  private readonly agreement = new Map<string, Float64Array>();

  constructor(table: AnswerTable) {
    const counts = unitCounts(table);
    const q = counts.categories;
    const { typeOf, first } = itemTypes(counts.total.length, (u) => entriesKey(counts, u));
    this.counts = counts;
    this.first = first;
    this.typeOf = typeOf;
    this.types = first.length;
    this.total = Int32Array.from(first, (u) => counts.total[u]);
    this.shares = new Float64Array(first.length * q);
    // o_kc = o_ck (n_k·n_c = n_c·n_k exactly): only the cells c <= k are summed.
    this.cellOf = new Int32Array(q * q);
    let cells = 0;
    for (let c = 0; c < q; c++) for (let k = c; k < q; k++) this.cellOf[c * q + k] = this.cellOf[k * q + c] = cells++;
    this.cells = cells;
    this.coincidences = new Float64Array(first.length * cells);
    first.forEach((u, t) => {
      const m = counts.total[u];
      for (let e = counts.start[u]; e < counts.start[u + 1]; e++) {
        this.shares[t * q + counts.category[e]] = counts.count[e] / m;
        if (m < 2) continue;
        for (let f = counts.start[u]; f < counts.start[u + 1]; f++) {
          const c = counts.category[e];
          const k = counts.category[f];
          if (c <= k) this.coincidences[t * cells + this.cellOf[c * q + k]] = (counts.count[e] * (counts.count[f] - (e === f ? 1 : 0))) / (m - 1);
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

  constructor(table: AnswerTable) {
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
  readonly table: AnswerTable;
  /** Set when the picks are loaded together with other tables' (SharedResamples), which counts them. */
  private readonly shared: { group: SharedResamples; index: number } | null;
  private entryTypes: EntryTypes | null = null;
  private ratingTypes: RatingTypes | null = null;
  private current: ArrayLike<number> = [];
  // Per-resample memos, cleared by load().
  private entryTimes: Int32Array | null = null;
  private readonly components = new Map<string, { pa: number | null; paired: number; rated: number }>();
  private pi: Float64Array | null = null;
  private coincidences: { o: Float64Array; units: number } | null = null;
  private ratingTimes: Int32Array | null = null;

  constructor(table: AnswerTable, shared: { group: SharedResamples; index: number } | null = null) {
    this.table = table;
    this.shared = shared;
  }

  /** Sets the resample the coefficients below are computed on. */
  load(picks: ArrayLike<number>): this {
    this.current = picks;
    this.entryTimes = null;
    this.components.clear();
    this.pi = null;
    this.coincidences = null;
    this.ratingTimes = null;
    return this;
  }

  /** The loaded resample's item indices. */
  get picks(): ArrayLike<number> {
    return this.current;
  }

  private entries(): EntryTypes {
    return (this.entryTypes ??= new EntryTypes(this.table));
  }

  /** Each item's entry type (-1: no ratings) and the number of types. */
  entryTypeOf(): { typeOf: Int32Array; types: number } {
    return this.entries();
  }

  /** How many times the loaded resample picks each entry type. */
  private entryCounts(): Int32Array {
    if (this.shared) return (this.entryTimes ??= this.shared.group.entryCounts(this.shared.index));
    const entries = this.entries();
    return (this.entryTimes ??= countTypes(this.current, entries.typeOf, entries.types));
  }

  /** p_a (unweighted or weighted by `scheme`), paired and rated items, as agreementComponents. */
  private componentsOf(scheme: WeightScheme | null): { pa: number | null; paired: number; rated: number } {
    const key = scheme ?? "none";
    const known = this.components.get(key);
    if (known) return known;
    const entries = this.entries();
    const unitAgreement = entries.unitAgreement(key, scheme === null ? null : agreementWeights(scheme, scalePositions(this.table.scale)));
    const times = this.entryCounts();
    const { total } = entries;
    let paSum = 0;
    let paired = 0;
    let rated = 0;
    for (let t = 0; t < times.length; t++) {
      const c = times[t];
      rated += c;
      if (c === 0 || total[t] < 2) continue;
      paSum += c * unitAgreement[t];
      paired += c;
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
    const sums = new Float64Array(q);
    weightedRows(this.entryCounts(), entries.shares, q, sums);
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
      const sums = new Float64Array(entries.cells);
      weightedRows(this.entryCounts(), entries.coincidences, entries.cells, sums);
      const o = new Float64Array(q * q);
      for (let x = 0; x < q * q; x++) o[x] = sums[entries.cellOf[x]];
      this.coincidences = { o, units: this.componentsOf(null).paired };
    }
    return alphaFromCoincidences(this.coincidences.o, this.coincidences.units, level, this.table.scale, noReason).value;
  }

  /** Cohen's kappas (cohenKappa) of pairs of raters; a pair with a rater missing from the table (or one rater twice) gives null. */
  cohenKappas(pairs: readonly (readonly [string, string])[], scheme: WeightScheme = "unweighted"): (number | null)[] {
    const ratingTypes = (this.ratingTypes ??= new RatingTypes(this.table));
    const times = (this.ratingTimes ??= countTypes(this.current, ratingTypes.typeOf, ratingTypes.types));
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

/**
 * Item resamples of several tables over the same number of items, loaded with the same picks
 * (a task's questions share one stream of resamples). Item u's joint type is the tuple of its
 * entry types in every table, so a resample is counted once, by joint type, and a table's
 * entry-type counts are sums of joint counts: integers, the same as counting alone.
 */
export class SharedResamples {
  readonly resamples: readonly ItemResamples[];
  private current: ArrayLike<number> = [];
  private joint: { typeOf: Int32Array; types: number; entryOf: Int32Array[] } | null = null;
  private jointTimes: Int32Array | null = null;

  constructor(tables: readonly AnswerTable[]) {
    this.resamples = tables.map((table, index) => new ItemResamples(table, { group: this, index }));
  }

  /** Loads the picks into every table's resamples; returns them. */
  load(picks: ArrayLike<number>): readonly ItemResamples[] {
    this.current = picks;
    this.jointTimes = null;
    for (const r of this.resamples) r.load(picks);
    return this.resamples;
  }

  /** Table `index`'s entry-type counts of the loaded resample. */
  entryCounts(index: number): Int32Array {
    const joint = (this.joint ??= this.jointTypes());
    const times = (this.jointTimes ??= countTypes(this.current, joint.typeOf, joint.types));
    const entryOf = joint.entryOf[index];
    const counts = new Int32Array(this.resamples[index].entryTypeOf().types);
    for (let j = 0; j < times.length; j++) if (entryOf[j] >= 0) counts[entryOf[j]] += times[j];
    return counts;
  }

  private jointTypes(): { typeOf: Int32Array; types: number; entryOf: Int32Array[] } {
    const typeOfs = this.resamples.map((r) => r.entryTypeOf().typeOf);
    const { typeOf, first } = itemTypes(typeOfs[0].length, (u) => typeOfs.map((t) => t[u]).join(","));
    return { typeOf, types: first.length, entryOf: typeOfs.map((t) => Int32Array.from(first, (u) => t[u])) };
  }
}

/** Percent agreement (percentAgreement) of item resamples. */
export function resampledPercentAgreement(table: AnswerTable): ResampledCoefficient {
  const resamples = new ItemResamples(table);
  return (picks) => resamples.load(picks).percentAgreement();
}

/** Fleiss' kappa (fleissKappa, method "fleiss") of item resamples. */
export function resampledFleissKappa(table: AnswerTable): ResampledCoefficient {
  const resamples = new ItemResamples(table);
  return (picks) => resamples.load(picks).fleissKappa();
}

/** Gwet's AC1 or AC2 (gwetAc) of item resamples. */
export function resampledGwetAc(table: AnswerTable, scheme: WeightScheme = "unweighted"): ResampledCoefficient {
  const resamples = new ItemResamples(table);
  return (picks) => resamples.load(picks).gwetAc(scheme);
}

/** Krippendorff's alpha (krippendorffAlpha) of item resamples. */
export function resampledKrippendorffAlpha(table: AnswerTable, level: Level): ResampledCoefficient {
  const resamples = new ItemResamples(table);
  return (picks) => resamples.load(picks).krippendorffAlpha(level);
}

/** Cohen's kappa (cohenKappa) of two raters of the table on item resamples. */
export function resampledCohenKappa(table: AnswerTable, raters: readonly [string, string], scheme: WeightScheme = "unweighted"): ResampledCoefficient {
  const resamples = new ItemResamples(table);
  return (picks) => resamples.load(picks).cohenKappa(raters, scheme);
}
