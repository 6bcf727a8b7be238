import type { Rating, AnswerValue } from "./types";

/**
 * Ratings indexed for agreement statistics: items, raters and scale categories are numbered,
 * and ratings are grouped by item in compressed-sparse-row form (ratings of item u are the
 * entries itemStart[u] .. itemStart[u+1]-1). Memory is O(number of ratings); nothing is
 * quadratic in ratings, items or raters.
 */
export interface AnswerTable {
  /** Items with at least one rating, in first-seen order. */
  readonly items: readonly string[];
  /** Raters, in first-seen order. */
  readonly raters: readonly string[];
  /**
   * Ordered categories: the declared scale, or else the distinct observed values sorted
   * (numbers ascending, strings by code unit, as NumPy/sklearn sort labels).
   */
  readonly scale: readonly AnswerValue[];
  /** Whether `scale` was declared by the caller (unused categories then count, e.g. Gwet's q). */
  readonly scaleDeclared: boolean;
  readonly itemStart: Int32Array;
  /** Per entry: index into `raters`. */
  readonly rater: Int32Array;
  /** Per entry: index into `scale`. */
  readonly value: Int32Array;
}

export interface TableOptions {
  /**
   * The rating scale, in order (e.g. [1, 2, 3, 4, 5], or ordered labels). Declaring it fixes
   * category order for ordinal statistics and string labels, and makes unused categories
   * count where a coefficient depends on them (Gwet's q, Randolph's k, sklearn `labels=`).
   */
  scale?: readonly AnswerValue[];
}

/**
 * Numeric ratings as columns, the form a database query can return without one object per
 * rating: entry e says rater `raters[rater[e]]` gave `value[e]` to item `items[item[e]]`.
 */
export interface AnswerColumns {
  readonly items: readonly string[];
  readonly raters: readonly string[];
  readonly item: Int32Array;
  readonly rater: Int32Array;
  readonly value: Float64Array;
}

/** Ratings (as objects or columns), or a table already built from them. */
export type AnswersInput = readonly Rating[] | AnswerColumns | AnswerTable;

function compareValues(a: AnswerValue, b: AnswerValue): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return a < b ? -1 : a > b ? 1 : 0;
}

function checkValueType(values: Iterable<AnswerValue>, what: string): void {
  let kind: string | null = null;
  for (const v of values) {
    if (typeof v === "number" && !Number.isFinite(v)) throw new RangeError(`${what} contains a non-finite number: ${v}`);
    if (typeof v !== "number" && typeof v !== "string") throw new TypeError(`${what} contains a value that is neither number nor string`);
    if (kind !== null && typeof v !== kind) throw new TypeError(`${what} mixes numbers and strings; use one type per data set`);
    kind = typeof v;
  }
}

/**
 * Groups entries (given as parallel index arrays) by item with a counting sort, checks that
 * no rater rated an item twice, and returns the CSR arrays. Stable: within an item, entries
 * keep their input order.
 */
function groupByItem(
  itemCount: number,
  raterCount: number,
  itemOf: Int32Array,
  raterOf: Int32Array,
  valueOf: Int32Array,
  names: { items: readonly string[]; raters: readonly string[] },
): Pick<AnswerTable, "itemStart" | "rater" | "value"> {
  const { itemStart, grouped } = itemStarts(itemCount, itemOf);
  // Entries already in item order (as a query ordered by item returns them) stay where they are.
  const rater = grouped ? raterOf : scatterByItem(itemStart, itemOf, raterOf);
  const value = grouped ? valueOf : scatterByItem(itemStart, itemOf, valueOf);
  checkOneRatingPerRater(itemStart, rater, raterCount, names);
  return { itemStart, rater, value };
}

// One loop per function below: V8 compiles a long loop while it runs (on-stack replacement),
// and code after the loop in the same function would run without type feedback and deoptimise.

/** CSR starts of the entries per item (counting sort), and whether the entries are already in item order. */
function itemStarts(itemCount: number, itemOf: Int32Array): { itemStart: Int32Array; grouped: boolean } {
  const itemStart = new Int32Array(itemCount + 1);
  let grouped = true;
  for (let e = 0; e < itemOf.length; e++) {
    itemStart[itemOf[e] + 1]++;
    if (e > 0 && itemOf[e] < itemOf[e - 1]) grouped = false;
  }
  return { itemStart: cumulate(itemStart), grouped };
}

/** In place: counts[k] becomes Σ_{j<=k} counts[j]. */
function cumulate(counts: Int32Array): Int32Array {
  for (let k = 1; k < counts.length; k++) counts[k] += counts[k - 1];
  return counts;
}

/** A column reordered by item, stably (the counting sort's scatter). */
function scatterByItem(itemStart: Int32Array, itemOf: Int32Array, column: Int32Array): Int32Array {
  const fill = itemStart.slice(0, itemStart.length - 1);
  const out = new Int32Array(column.length);
  for (let e = 0; e < column.length; e++) out[fill[itemOf[e]]++] = column[e];
  return out;
}

function checkOneRatingPerRater(itemStart: Int32Array, rater: Int32Array, raterCount: number, names: { items: readonly string[]; raters: readonly string[] }): void {
  const lastItem = new Int32Array(raterCount).fill(-1);
  for (let u = 0; u + 1 < itemStart.length; u++) {
    for (let e = itemStart[u]; e < itemStart[u + 1]; e++) {
      if (lastItem[rater[e]] === u) throw new RangeError(`rater ${names.raters[rater[e]]} rated item ${names.items[u]} more than once`);
      lastItem[rater[e]] = u;
    }
  }
}

/**
 * The table's scale (declared, else the observed values sorted) and each observed value's
 * position on it (position[k] for observed[k]).
 */
export function scaleOrder(observed: AnswerValue[], options: TableOptions): { scale: AnswerValue[]; position: Int32Array } {
  checkValueType(observed, "ratings");
  let scale: AnswerValue[];
  if (options.scale) {
    scale = [...options.scale];
    checkValueType(scale, "the declared scale");
    if (new Set(scale).size !== scale.length) throw new RangeError("the declared scale repeats a category");
    if (observed.length > 0 && scale.length > 0 && typeof observed[0] !== typeof scale[0]) throw new TypeError("ratings and the declared scale differ in type");
  } else {
    scale = [...observed].sort(compareValues);
  }
  const positions = new Map(scale.map((v, i) => [v, i]));
  const position = new Int32Array(observed.length);
  observed.forEach((v, k) => {
    const p = positions.get(v);
    if (p === undefined) throw new RangeError(`rating ${JSON.stringify(v)} is not on the declared scale`);
    position[k] = p;
  });
  return { scale, position };
}

/** scaleOrder's scale, with `valueOf` renumbered in place from first-seen value indices (into `observed`) to scale positions. */
function scaleOf(observed: AnswerValue[], valueOf: Int32Array, options: TableOptions): AnswerValue[] {
  const { scale, position } = scaleOrder(observed, options);
  for (let e = 0; e < valueOf.length; e++) valueOf[e] = position[valueOf[e]];
  return scale;
}

/**
 * Builds an AnswerTable in O(N log V) for N ratings and V distinct values.
 * Throws on mixed number/string values, non-finite numbers, values outside a declared
 * scale and duplicate (item, rater) pairs: those are data errors, not undefined statistics.
 */
export function buildAnswerTable(ratings: readonly Rating[], options: TableOptions = {}): AnswerTable {
  const itemIndex = new Map<string, number>();
  const raterIndex = new Map<string, number>();
  const valueIndex = new Map<AnswerValue, number>();
  const n = ratings.length;
  const itemOf = new Int32Array(n);
  const raterOf = new Int32Array(n);
  const valueOf = new Int32Array(n);
  for (let e = 0; e < n; e++) {
    const { item, rater, value } = ratings[e];
    let i = itemIndex.get(item);
    if (i === undefined) itemIndex.set(item, (i = itemIndex.size));
    let r = raterIndex.get(rater);
    if (r === undefined) raterIndex.set(rater, (r = raterIndex.size));
    let v = valueIndex.get(value);
    if (v === undefined) valueIndex.set(value, (v = valueIndex.size));
    itemOf[e] = i;
    raterOf[e] = r;
    valueOf[e] = v;
  }
  const scale = scaleOf([...valueIndex.keys()], valueOf, options);
  const items = [...itemIndex.keys()];
  const raters = [...raterIndex.keys()];
  return { items, raters, scale, scaleDeclared: options.scale !== undefined, ...groupByItem(items.length, raters.length, itemOf, raterOf, valueOf, { items, raters }) };
}

const SMALL_VALUES = 1024;

/**
 * First-seen numbering of indices into `names`: number[i] is index i's number, -1 until seen
 * (the caller reads it and calls `add` for a new index).
 */
class FirstSeen {
  readonly number: Int32Array;
  count = 0;

  constructor(
    readonly names: readonly string[],
    readonly what: string,
  ) {
    this.number = new Int32Array(names.length).fill(-1);
  }

  /** Numbers index i of entry e (not seen before, or out of range: then it throws). */
  add(i: number, e: number): number {
    if (!(i >= 0 && i < this.names.length)) throw new RangeError(`${this.what} index ${i} of entry ${e} is not one of the ${this.names.length} ${this.what}s`);
    this.number[i] = this.count;
    return this.count++;
  }

  /**
   * The names of the numbered indices in first-seen order: the given list itself when that is
   * every name in its own order (no copy of 10^5 names per call, and no garbage).
   */
  used(): readonly string[] {
    let identity = this.count === this.names.length;
    for (let i = 0; identity && i < this.number.length; i++) identity = this.number[i] === i;
    if (identity) return this.names;
    const used: string[] = [];
    const byNumber = new Int32Array(this.count);
    for (let i = 0; i < this.number.length; i++) if (this.number[i] >= 0) byNumber[this.number[i]] = i;
    for (let k = 0; k < this.count; k++) used.push(this.names[byNumber[k]]);
    return used;
  }
}

/** Numeric rating values numbered in first-seen order. */
export class ValueNumbers {
  private readonly index = new Map<number, number>();
  // Rating scales are mostly small integers: those are looked up in an array, not the map.
  private readonly small = new Int32Array(2 * SMALL_VALUES).fill(-1);

  /** The number of `value`, numbering it if new. */
  number(value: number): number {
    const small = value >= -SMALL_VALUES && value < SMALL_VALUES && Number.isInteger(value) ? value + SMALL_VALUES : -1;
    let v = small >= 0 ? this.small[small] : -1;
    if (v < 0) {
      v = this.index.get(value) ?? -1;
      if (v < 0) this.index.set(value, (v = this.index.size));
      if (small >= 0) this.small[small] = v;
    }
    return v;
  }

  /** The values in first-seen order. */
  observed(): number[] {
    return [...this.index.keys()];
  }
}

/** Items, raters and values of the entries numbered in first-seen order, in one pass (the loop alone in a function, see itemStarts). */
function numberEntries(columns: AnswerColumns) {
  const n = columns.item.length;
  const items = new FirstSeen(columns.items, "item");
  const raters = new FirstSeen(columns.raters, "rater");
  const itemNumber = items.number;
  const raterNumber = raters.number;
  const itemOf = new Int32Array(n);
  const raterOf = new Int32Array(n);
  const valueOf = new Int32Array(n);
  const values = new ValueNumbers();
  for (let e = 0; e < n; e++) {
    // An index out of range reads undefined, which is not >= 0, and add() throws.
    const i = columns.item[e];
    const u = itemNumber[i];
    itemOf[e] = u >= 0 ? u : items.add(i, e);
    const r = columns.rater[e];
    const k = raterNumber[r];
    raterOf[e] = k >= 0 ? k : raters.add(r, e);
    valueOf[e] = values.number(columns.value[e]);
  }
  return { items, raters, itemOf, raterOf, valueOf, observed: values.observed() };
}

/**
 * The AnswerTable of ratings given as columns: the same table as buildAnswerTable on the
 * equivalent Rating objects (items and raters numbered in first-seen order, the same checks),
 * in O(N) without a string lookup per rating: one pass numbers items, raters and values.
 */
export function answerTableFromColumns(columns: AnswerColumns, options: TableOptions = {}): AnswerTable {
  const n = columns.item.length;
  if (columns.rater.length !== n || columns.value.length !== n) throw new RangeError("rating columns differ in length");
  const { items, raters, itemOf, raterOf, valueOf, observed } = numberEntries(columns);
  const scale = scaleOf(observed, valueOf, options);
  const names = { items: items.used(), raters: raters.used() };
  return { ...names, scale, scaleDeclared: options.scale !== undefined, ...groupByItem(names.items.length, names.raters.length, itemOf, raterOf, valueOf, names) };
}

function isTable(input: AnswersInput): input is AnswerTable {
  return "itemStart" in input;
}

export function isColumns(input: AnswersInput): input is AnswerColumns {
  return "item" in input && input.item instanceof Int32Array;
}

/** The table for `input`, building it from ratings when needed. */
export function asTable(input: AnswersInput, options: TableOptions = {}): AnswerTable {
  if (isColumns(input)) return answerTableFromColumns(input, options);
  if (!isTable(input)) return buildAnswerTable(input, options);
  if (options.scale) throw new RangeError("the scale of an AnswerTable is fixed when it is built; pass ratings to declare one");
  return input;
}

/**
 * The sub-table of the given raters (e.g. one pair, for pairwise matrices): items without
 * ratings from them are dropped, and an observed (undeclared) scale shrinks to the values
 * they used, in the same order. Raters without ratings are allowed and contribute none. O(N).
 */
export function selectRaters(table: AnswerTable, raters: readonly string[]): AnswerTable {
  if (new Set(raters).size !== raters.length) throw new RangeError("selectRaters got the same rater twice");
  // Position of each table rater in `raters`, or -1; named raters without ratings select nothing.
  const keep = new Int32Array(table.raters.length).fill(-1);
  raters.forEach((name, k) => {
    const r = table.raters.indexOf(name);
    if (r >= 0) keep[r] = k;
  });
  const usedValue = new Uint8Array(table.scale.length);
  const items: string[] = [];
  const itemOf: number[] = [];
  const raterOf: number[] = [];
  const valueOf: number[] = [];
  for (let u = 0; u < table.items.length; u++) {
    const before = itemOf.length;
    for (let e = table.itemStart[u]; e < table.itemStart[u + 1]; e++) {
      if (keep[table.rater[e]] < 0) continue;
      itemOf.push(items.length);
      raterOf.push(keep[table.rater[e]]);
      valueOf.push(table.value[e]);
      usedValue[table.value[e]] = 1;
    }
    if (itemOf.length > before) items.push(table.items[u]);
  }
  let scale = table.scale;
  if (!table.scaleDeclared) {
    const compact = new Int32Array(table.scale.length);
    scale = table.scale.filter((_, v) => usedValue[v]);
    let next = 0;
    for (let v = 0; v < table.scale.length; v++) if (usedValue[v]) compact[v] = next++;
    for (let e = 0; e < valueOf.length; e++) valueOf[e] = compact[valueOf[e]];
  }
  return {
    items,
    raters: [...raters],
    scale,
    scaleDeclared: table.scaleDeclared,
    ...groupByItem(items.length, raters.length, Int32Array.from(itemOf), Int32Array.from(raterOf), Int32Array.from(valueOf), { items, raters }),
  };
}
