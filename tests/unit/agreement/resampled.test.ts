import { describe, expect, test } from "vitest";
import {
  buildAnswerTable,
  cohenKappa,
  fleissKappa,
  gwetAc,
  ItemResamples,
  krippendorffAlpha,
  type Level,
  percentAgreement,
  type AnswerValue,
  resampledCohenKappa,
  resampledFleissKappa,
  resampledGwetAc,
  resampledKrippendorffAlpha,
  resampledPercentAgreement,
  type AnswerTable,
  SharedResamples,
  type WeightScheme,
} from "@/lib/agreement";
import { resampleItems } from "@/lib/analysis";
import { type Random, seededRandom } from "@/lib/stats";
import { raggedRatings } from "./ragged-ratings";
import { nearly } from "./summation-order";

const ratings = (random: Random, items: number, raters: number, values: readonly AnswerValue[], keep: number) => raggedRatings(random, items, raters, values, keep, 0.35);

/** Resamples of the table's items: full-size ones, small ones (often undefined) and the identity. */
function resamples(random: Random, table: AnswerTable): number[][] {
  const n = table.items.length;
  const draw = (size: number) => Array.from({ length: size }, () => Math.floor(random() * n));
  return [Array.from({ length: n }, (_, u) => u), ...Array.from({ length: 25 }, () => draw(n)), ...Array.from({ length: 25 }, () => draw(1 + Math.floor(random() * 4)))];
}

const schemes: WeightScheme[] = ["unweighted", "linear", "quadratic"];

describe("coefficients of item resamples equal the coefficients of the resampled tables, up to summation order", () => {
  const random = seededRandom(2024);
  const designs: { name: string; table: AnswerTable; levels: Level[] }[] = [
    { name: "Likert, declared scale, 4 raters, ragged", table: buildAnswerTable(ratings(random, 60, 4, [1, 2, 3, 4, 5], 0.75), { scale: [1, 2, 3, 4, 5] }), levels: ["nominal", "ordinal", "interval", "ratio"] },
    { name: "numbers with 0, observed scale, 3 raters", table: buildAnswerTable(ratings(random, 40, 3, [0, 1, 2, 5], 0.7)), levels: ["nominal", "ordinal", "interval", "ratio"] },
    { name: "labels, declared codebook with an unused code, 5 raters", table: buildAnswerTable(ratings(random, 50, 5, ["CORRECT", "INCORRECT", "UNVERIFIABLE"], 0.6), { scale: ["CORRECT", "INCORRECT", "UNVERIFIABLE", "AMBIGUOUS"] }), levels: ["nominal", "ordinal"] },
    { name: "labels, observed scale, 2 raters, complete", table: buildAnswerTable(ratings(random, 30, 2, ["no", "yes"], 1)), levels: ["nominal"] },
    { name: "one category only", table: buildAnswerTable(ratings(random, 10, 3, [4], 0.8)), levels: ["nominal"] },
  ];

  for (const { name, table, levels } of designs) {
    test(name, () => {
      const picks = resamples(random, table);
      const resampled = picks.map((p) => resampleItems(table, p));
      const check = (fast: (p: number[]) => number | null, slow: (t: AnswerTable) => number | null) => {
        const expected = resampled.map(slow);
        expect(picks.map(fast)).toEqual(expected.map(nearly));
      };
      check(resampledPercentAgreement(table), (t) => percentAgreement(t).value);
      check(resampledFleissKappa(table), (t) => fleissKappa(t).value);
      for (const weights of schemes) check(resampledGwetAc(table, weights), (t) => gwetAc(t, { weights }).value);
      for (const level of levels) check(resampledKrippendorffAlpha(table, level), (t) => krippendorffAlpha(t, { level }).value);
      for (let i = 0; i < table.raters.length; i++) {
        for (let j = 0; j < table.raters.length; j++) {
          const pair: [string, string] = [table.raters[i], table.raters[j]];
          for (const weights of schemes) check(resampledCohenKappa(table, pair, weights), (t) => cohenKappa(t, { raters: pair, weights }).value);
        }
      }
      expect(resampledCohenKappa(table, [table.raters[0], "nobody"])([0, 1])).toBeNull();
    });
  }

  test("one ItemResamples serves every coefficient of each loaded resample, whatever the order they are read in", () => {
    for (const { table, levels } of designs) {
      const loader = new ItemResamples(table);
      const pairs = table.raters.flatMap((a, i) => table.raters.slice(i + 1).map((b) => [a, b] as [string, string]));
      const reads: [string, (r: ItemResamples) => unknown, (t: AnswerTable) => number | null | (number | null)[]][] = [
        ["alpha", (r) => r.krippendorffAlpha(levels[levels.length - 1]), (t) => krippendorffAlpha(t, { level: levels[levels.length - 1] }).value],
        ["gwet", (r) => r.gwetAc("quadratic"), (t) => gwetAc(t, { weights: "quadratic" }).value],
        ["cohen", (r) => r.cohenKappas(pairs, "linear"), (t) => pairs.map((pair) => cohenKappa(t, { raters: pair, weights: "linear" }).value)],
        ["fleiss", (r) => r.fleissKappa(), (t) => fleissKappa(t).value],
        ["percent", (r) => r.percentAgreement(), (t) => percentAgreement(t).value],
        ["ac1", (r) => r.gwetAc(), (t) => gwetAc(t).value],
      ];
      resamples(random, table).forEach((picks, b) => {
        const loaded = loader.load(picks);
        const order = b % 2 === 0 ? reads : [...reads].reverse();
        const t = resampleItems(table, picks);
        for (const [name, fast, slow] of order) {
          const want = slow(t);
          expect([name, fast(loaded)]).toEqual([name, Array.isArray(want) ? want.map(nearly) : nearly(want)]);
        }
      });
    }
  });

  test("the data have defined and undefined resamples alike", () => {
    const table = designs[0].table;
    const values = resamples(seededRandom(3), table).map(resampledKrippendorffAlpha(table, "ordinal"));
    expect(values.some((v) => v === null)).toBe(true);
    expect(values.filter((v) => v !== null).length).toBeGreaterThan(25);
  });
});

describe("tables resampled with the same picks (SharedResamples) count them once, by joint type", () => {
  const random = seededRandom(77);
  /** Ratings where rater r0 rates every item (so every table has all `items`), the others with probability `keep`. */
  const everyItem = (items: number, raters: number, values: readonly AnswerValue[], keep: number) =>
    ratings(random, items, raters, values, keep).filter((r) => r.rater !== "r0").concat(Array.from({ length: items }, (_, i) => ({ item: `i${i}`, rater: "r0", value: values[i % values.length] })));
  const tables = [
    buildAnswerTable(everyItem(45, 4, [1, 2, 3, 4, 5], 0.7), { scale: [1, 2, 3, 4, 5] }),
    buildAnswerTable(everyItem(45, 3, [1, 2, 3, 4, 5], 1), { scale: [1, 2, 3, 4, 5] }),
    buildAnswerTable(everyItem(45, 5, ["CORRECT", "INCORRECT", "UNVERIFIABLE"], 0.5), { scale: ["CORRECT", "INCORRECT", "UNVERIFIABLE", "AMBIGUOUS"] }),
    buildAnswerTable(everyItem(45, 2, [4], 0.8)),
  ];
  /** Every coefficient of a loaded resample, and Cohen's kappa of every pair. */
  const everything = (r: ItemResamples) => {
    const pairs = r.table.raters.flatMap((a, i) => r.table.raters.slice(i + 1).map((b) => [a, b] as [string, string]));
    return [r.percentAgreement(), r.fleissKappa(), ...schemes.map((w) => r.gwetAc(w)), r.krippendorffAlpha("nominal"), r.krippendorffAlpha("ordinal"), ...schemes.flatMap((w) => r.cohenKappas(pairs, w))];
  };

  test("each table's coefficients equal its own ItemResamples' to the last bit (counts are integers), whatever the order of the tables", () => {
    expect(new Set(tables.map((t) => t.items.length))).toEqual(new Set([45]));
    const shared = new SharedResamples(tables);
    const reversed = new SharedResamples([...tables].reverse());
    const alone = tables.map((t) => new ItemResamples(t));
    for (const picks of resamples(random, tables[0])) {
      const loaded = shared.load(picks);
      const loadedReversed = [...reversed.load(picks)].reverse();
      tables.forEach((_, g) => {
        const want = everything(alone[g].load(picks));
        expect(everything(loaded[g])).toEqual(want);
        expect(everything(loadedReversed[g])).toEqual(want);
      });
    }
  });

  test("ties and repeats: a resample of one item picked n times, and of items of a single joint type", () => {
    const shared = new SharedResamples(tables);
    for (const picks of [new Array<number>(45).fill(7), [3, 3, 3, 3]]) {
      shared.load(picks).forEach((r, g) => expect(everything(r)).toEqual(everything(new ItemResamples(tables[g]).load(picks))));
    }
  });
});
