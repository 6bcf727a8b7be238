import { describe, expect, test } from "vitest";
import { buildRatingTable, fleissKappa, krippendorffAlpha, ratingTableFromColumns, type Rating, type RatingColumns } from "@/lib/agreement";
import { seededRandom } from "@/lib/stats";

/** Random ordinal ratings as columns (items listed that nobody rated, entries shuffled) and as the equivalent Rating objects. */
function sample(seed: number, items: number, raters: number, missing: number): { columns: RatingColumns; ratings: Rating[] } {
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
    expect(ratingTableFromColumns(columns)).toEqual(buildRatingTable(ratings));
    expect(ratingTableFromColumns(columns, { scale: [5, 4, 3, 2, 1, 0] })).toEqual(buildRatingTable(ratings, { scale: [5, 4, 3, 2, 1, 0] }));
  });

  test("every item rated: in index order and shuffled (first-seen order then differs from the list's), the same table as from Rating objects", () => {
    const { columns } = sample(5, 200, 4, 0);
    const rated: RatingColumns = { ...columns, items: columns.items.slice(0, 200) };
    const byItem = Array.from(rated.item.keys()).sort((a, b) => rated.item[a] - rated.item[b] || a - b);
    for (const order of [byItem, Array.from(rated.item.keys())]) {
      const cols: RatingColumns = { ...rated, item: Int32Array.from(order, (e) => rated.item[e]), rater: Int32Array.from(order, (e) => rated.rater[e]), value: Float64Array.from(order, (e) => rated.value[e]) };
      const ratings = order.map((e) => ({ item: rated.items[rated.item[e]], rater: rated.raters[rated.rater[e]], value: rated.value[e] }));
      expect(ratingTableFromColumns(cols)).toEqual(buildRatingTable(ratings));
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
    const permuted: RatingColumns = { ...columns, item: Int32Array.from(order, (e) => columns.item[e]), rater: Int32Array.from(order, (e) => columns.rater[e]), value: Float64Array.from(order, (e) => columns.value[e]) };
    expect(krippendorffAlpha(permuted, { level: "ordinal" }).value).toBeCloseTo(krippendorffAlpha(columns, { level: "ordinal" }).value as number, 14);
  });

  test("data errors: a repeated (item, rater), an index out of range, a value off the declared scale, ragged columns", () => {
    const base = { items: ["a", "b"], raters: ["x", "y"] };
    expect(() => ratingTableFromColumns({ ...base, item: Int32Array.of(0, 0), rater: Int32Array.of(1, 1), value: Float64Array.of(1, 2) })).toThrow(/rater y rated item a more than once/);
    expect(() => ratingTableFromColumns({ ...base, item: Int32Array.of(2), rater: Int32Array.of(0), value: Float64Array.of(1) })).toThrow(/item index 2/);
    expect(() => ratingTableFromColumns({ ...base, item: Int32Array.of(0), rater: Int32Array.of(0), value: Float64Array.of(7) }, { scale: [1, 2] })).toThrow(/not on the declared scale/);
    expect(() => ratingTableFromColumns({ ...base, item: Int32Array.of(0), rater: Int32Array.of(0, 1), value: Float64Array.of(1) })).toThrow(/differ in length/);
    expect(() => ratingTableFromColumns({ ...base, item: Int32Array.of(0), rater: Int32Array.of(0), value: Float64Array.of(NaN) })).toThrow(/non-finite/);
  });

  test("the caller's columns are not modified", () => {
    const { columns } = sample(4, 50, 3, 0.5);
    const before = Int32Array.from(columns.item);
    ratingTableFromColumns(columns);
    expect(columns.item).toEqual(before);
  });
});
