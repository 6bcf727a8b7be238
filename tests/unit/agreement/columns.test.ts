import { describe, expect, test } from "vitest";
import { buildAnswerTable, fleissKappa, krippendorffAlpha, answerTableFromColumns, type Rating, type AnswerColumns } from "@/lib/agreement";
import { seededRandom } from "@/lib/stats";

/** Random ordinal ratings as columns (items listed that nobody rated, entries shuffled) and as the equivalent Rating objects. */
function sample(seed: number, items: number, raters: number, missing: number): { columns: AnswerColumns; ratings: Rating[] } {
  const random = seededRandom(seed);
  const entries: [number, number, number][] = [];
  for (let i = 0; i < items; i++) {
    const truth = 1 + Math.floor(random() * 5);
    for (let r = 0; r < raters; r++) if (random() >= missing) entries.push([i, r, Math.min(5, Math.max(1, truth + (random() < 0.3 ? (random() < 0.5 ? -1 : 1) : 0)))]);
  }
  for (let k = entries.length - 1; k > 0; k--) {
    const j = Math.floor(random() * (k + 1));
    [entries[k], entries[j]] = [entries[j], entries[k]];
  }
  const itemNames = Array.from({ length: items + 3 }, (_, i) => `item-${i}`);
  const raterNames = Array.from({ length: raters }, (_, r) => `rater-${r}`);
  return {
    columns: {
      items: itemNames,
      raters: raterNames,
      item: Int32Array.from(entries, (e) => e[0]),
      rater: Int32Array.from(entries, (e) => e[1]),
      value: Float64Array.from(entries, (e) => e[2]),
    },
    ratings: entries.map(([i, r, value]) => ({ item: itemNames[i], rater: raterNames[r], value })),
  };
}

describe("ratings as columns", () => {
  test.each([1, 2, 3])("seed %i: the same table as from Rating objects (first-seen order, unrated items left out)", (seed) => {
    const { columns, ratings } = sample(seed, 300, 6, 0.3);
    expect(answerTableFromColumns(columns)).toEqual(buildAnswerTable(ratings));
    expect(answerTableFromColumns(columns, { scale: [5, 4, 3, 2, 1, 0] })).toEqual(buildAnswerTable(ratings, { scale: [5, 4, 3, 2, 1, 0] }));
  });

  test("every item rated: in index order and shuffled (first-seen order then differs from the list's), the same table as from Rating objects", () => {
    const { columns } = sample(5, 200, 4, 0);
    const rated: AnswerColumns = { ...columns, items: columns.items.slice(0, 200) };
    const byItem = Array.from(rated.item.keys()).sort((a, b) => rated.item[a] - rated.item[b] || a - b);
    for (const order of [byItem, Array.from(rated.item.keys())]) {
      const cols: AnswerColumns = { ...rated, item: Int32Array.from(order, (e) => rated.item[e]), rater: Int32Array.from(order, (e) => rated.rater[e]), value: Float64Array.from(order, (e) => rated.value[e]) };
      const ratings = order.map((e) => ({ item: rated.items[rated.item[e]], rater: rated.raters[rated.rater[e]], value: rated.value[e] }));
      expect(answerTableFromColumns(cols)).toEqual(buildAnswerTable(ratings));
    }
  });

  test("coefficients accept columns and give the values of Rating objects, for every level, with missing data", () => {
    const { columns, ratings } = sample(7, 2000, 5, 0.4);
    for (const level of ["nominal", "ordinal", "interval", "ratio"] as const) expect(krippendorffAlpha(columns, { level })).toEqual(krippendorffAlpha(ratings, { level }));
    expect(fleissKappa(columns)).toEqual(fleissKappa(ratings));
  });

  test("order invariance: permuting the entries leaves alpha unchanged", () => {
    const { columns } = sample(9, 500, 4, 0.2);
    const n = columns.item.length;
    const order = Array.from({ length: n }, (_, e) => (e * 7919) % n);
    const permuted: AnswerColumns = { ...columns, item: Int32Array.from(order, (e) => columns.item[e]), rater: Int32Array.from(order, (e) => columns.rater[e]), value: Float64Array.from(order, (e) => columns.value[e]) };
    expect(krippendorffAlpha(permuted, { level: "ordinal" }).value).toBeCloseTo(krippendorffAlpha(columns, { level: "ordinal" }).value as number, 14);
  });

  test("data errors: a repeated (item, rater), an index out of range, a value off the declared scale, ragged columns", () => {
    const base = { items: ["a", "b"], raters: ["x", "y"] };
    expect(() => answerTableFromColumns({ ...base, item: Int32Array.of(0, 0), rater: Int32Array.of(1, 1), value: Float64Array.of(1, 2) })).toThrow(/rater y rated item a more than once/);
    expect(() => answerTableFromColumns({ ...base, item: Int32Array.of(2), rater: Int32Array.of(0), value: Float64Array.of(1) })).toThrow(/item index 2/);
    expect(() => answerTableFromColumns({ ...base, item: Int32Array.of(0), rater: Int32Array.of(0), value: Float64Array.of(7) }, { scale: [1, 2] })).toThrow(/not on the declared scale/);
    expect(() => answerTableFromColumns({ ...base, item: Int32Array.of(0), rater: Int32Array.of(0, 1), value: Float64Array.of(1) })).toThrow(/differ in length/);
    expect(() => answerTableFromColumns({ ...base, item: Int32Array.of(0), rater: Int32Array.of(0), value: Float64Array.of(NaN) })).toThrow(/non-finite/);
  });

  test("the caller's columns are not modified", () => {
    const { columns } = sample(4, 50, 3, 0.5);
    const before = Int32Array.from(columns.item);
    answerTableFromColumns(columns);
    expect(columns.item).toEqual(before);
  });

  describe("alpha from columns grouped by item (counted without the table)", () => {
    /** The columns' entries reordered by item, the items' runs in a shuffled order (first-seen order then differs from index order). */
    function grouped(columns: AnswerColumns, seed: number): AnswerColumns {
      const random = seededRandom(seed);
      const rank = Array.from(columns.items, () => random());
      const order = Array.from(columns.item.keys()).sort((a, b) => rank[columns.item[a]] - rank[columns.item[b]] || a - b);
      return { ...columns, item: Int32Array.from(order, (e) => columns.item[e]), rater: Int32Array.from(order, (e) => columns.rater[e]), value: Float64Array.from(order, (e) => columns.value[e]) };
    }
    const asRatings = (c: AnswerColumns): Rating[] => Array.from(c.item, (i, e) => ({ item: c.items[i], rater: c.raters[c.rater[e]], value: c.value[e] }));
    const levels = ["nominal", "ordinal", "interval", "ratio"] as const;

    test.each([11, 12, 13])("seed %i: every level, with and without a declared scale, equals alpha from Rating objects", (seed) => {
      const columns = grouped(sample(seed, 400, 5, 0.5).columns, seed);
      const ratings = asRatings(columns);
      for (const level of levels) {
        expect(krippendorffAlpha(columns, { level })).toEqual(krippendorffAlpha(ratings, { level }));
        expect(krippendorffAlpha(columns, { level, scale: [6, 5, 4, 3, 2, 1, 0] })).toEqual(krippendorffAlpha(ratings, { level, scale: [6, 5, 4, 3, 2, 1, 0] }));
      }
    });

    test("many distinct, fractional and negative values (beyond the first row stride), items rated once", () => {
      const random = seededRandom(17);
      const base = sample(17, 300, 4, 0.6).columns;
      const value = Float64Array.from(base.value, (v) => (v - 3) * 7.5 + Math.floor(random() * 4) / 4 + (random() < 0.05 ? 2000 : 0));
      const columns = grouped({ ...base, value }, 18);
      const ratings = asRatings(columns);
      expect(new Set(value).size).toBeGreaterThan(32);
      for (const level of levels) expect(krippendorffAlpha(columns, { level })).toEqual(krippendorffAlpha(ratings, { level }));
    });

    test("an item whose ratings are not contiguous, and no pairable item, give the table's results", () => {
      const split: AnswerColumns = { items: ["a", "b"], raters: ["x", "y", "z"], item: Int32Array.of(0, 1, 0, 1), rater: Int32Array.of(0, 0, 1, 1), value: Float64Array.of(1, 2, 1, 3) };
      expect(krippendorffAlpha(split, { level: "ordinal" })).toEqual(krippendorffAlpha(asRatings(split), { level: "ordinal" }));
      const single: AnswerColumns = { items: ["a", "b"], raters: ["x", "y"], item: Int32Array.of(0, 1), rater: Int32Array.of(0, 1), value: Float64Array.of(1, 2) };
      expect(krippendorffAlpha(single, { level: "nominal" })).toEqual({ level: "nominal", n: 0, pairableValues: 0, value: null, reason: "no item has two or more ratings", observedDisagreement: null, expectedDisagreement: null });
      const none: AnswerColumns = { items: [], raters: [], item: new Int32Array(0), rater: new Int32Array(0), value: new Float64Array(0) };
      expect(krippendorffAlpha(none, { level: "nominal" }).reason).toBe("no ratings");
    });

    test("data errors are the table's", () => {
      const base = { items: ["a", "b"], raters: ["x", "y"] };
      const alpha = (item: number[], rater: number[], value: number[], scale?: number[]) => () =>
        krippendorffAlpha({ ...base, item: Int32Array.from(item), rater: Int32Array.from(rater), value: Float64Array.from(value) }, { level: "ordinal", scale });
      expect(alpha([0, 0, 1], [1, 1, 0], [1, 2, 1])).toThrow(/rater y rated item a more than once/);
      expect(alpha([0, 0, 2], [0, 1, 0], [1, 2, 1])).toThrow(/item index 2/);
      expect(alpha([0, 0], [0, 5], [1, 2])).toThrow(/rater index 5/);
      expect(alpha([0, 0], [0, 1], [1, 7], [1, 2])).toThrow(/not on the declared scale/);
      expect(alpha([0, 0], [0, 1], [1, Infinity])).toThrow(/non-finite/);
      expect(() => krippendorffAlpha({ ...base, item: Int32Array.of(0), rater: Int32Array.of(0, 1), value: Float64Array.of(1) }, { level: "nominal" })).toThrow(/differ in length/);
    });
  });
});
