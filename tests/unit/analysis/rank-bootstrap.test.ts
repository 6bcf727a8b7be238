import { describe, expect, test } from "vitest";
import { affordableResamples, bootstrapSettings, cellCounts, pairCells, resampleKendall, resamplePearson, resampleSpearman } from "@/lib/analysis";
import { kendallTauB, pearsonStatistic, seededRandom, spearman } from "@/lib/stats";

/**
 * ρ and r of a resample add the same terms as lib/stats on the materialised resample, grouped
 * by cell (a distinct (x, y) pair) instead of pick by pick: sums of thousands of terms rounded
 * in another order, so they may differ in their last bits (here by less than 1e-12), never more.
 */
const ROUNDING = 12;

describe("correlations of bootstrap resamples from cell counts", () => {
  const random = seededRandom(11);
  const cases = [
    // continuous, heavy ties (Likert means), all-tied x in small resamples, two pairs
    { x: Array.from({ length: 300 }, () => random()), y: Array.from({ length: 300 }, () => random()) },
    { x: Array.from({ length: 500 }, () => Math.floor(random() * 6)), y: Array.from({ length: 500 }, () => 1 + Math.floor(random() * 9) / 2) },
    { x: [1, 1, 1, 2], y: [3, 1, 2, 2] },
    { x: [0.5, 0.25], y: [2, 4] },
  ];
  const draw = (n: number) => Array.from({ length: n }, () => Math.floor(random() * n));

  test("equal lib/stats' kendallTauB to the last bit, and spearman and pearsonStatistic to rounding, on the materialised resample (undefined alike)", () => {
    for (const { x, y } of cases) {
      const cells = pairCells(Float64Array.from(x), Float64Array.from(y));
      for (let b = 0; b < 60; b++) {
        const picks = draw(x.length);
        const counts = cellCounts(picks, cells);
        const rx = picks.map((i) => x[i]);
        const ry = picks.map((i) => y[i]);
        expect(Object.is(resampleKendall(cells, counts), kendallTauB(rx, ry).statistic)).toBe(true);
        for (const [mine, theirs] of [
          [resampleSpearman(cells, counts), spearman(rx, ry).statistic],
          [resamplePearson(cells, counts), pearsonStatistic(rx, ry)],
        ]) {
          if (theirs === null) expect(mine).toBeNull();
          else expect(mine).toBeCloseTo(theirs, ROUNDING);
        }
      }
    }
  });

  test("do not depend on the order of the pairs: the same picks of shuffled pairs give the same values to the last bit", () => {
    const { x, y } = cases[1];
    const shuffle = x.map((_, i) => i).sort(() => random() - 0.5);
    const cells = pairCells(Float64Array.from(x), Float64Array.from(y));
    const shuffled = pairCells(Float64Array.from(shuffle, (i) => x[i]), Float64Array.from(shuffle, (i) => y[i]));
    const position = new Array<number>(x.length);
    shuffle.forEach((i, k) => (position[i] = k));
    for (let b = 0; b < 20; b++) {
      const picks = draw(x.length);
      const counts = cellCounts(picks, cells);
      const moved = cellCounts(picks.map((i) => position[i]), shuffled);
      expect([resampleSpearman(shuffled, moved), resampleKendall(shuffled, moved), resamplePearson(shuffled, moved)]).toEqual([resampleSpearman(cells, counts), resampleKendall(cells, counts), resamplePearson(cells, counts)]);
    }
  });

  test("ties share a cell; a resample of one x or one y value is undefined; two pairs give the sign of the slope", () => {
    const cells = pairCells(Float64Array.of(2, 1, 2, 1, 3), Float64Array.of(5, 4, 5, 6, 4));
    expect(Array.from(cells.cellOf)).toEqual([2, 0, 2, 1, 3]);
    expect([cells.xLevels, cells.yLevels]).toEqual([3, 3]);
    const tiedX = cellCounts([0, 2, 2, 0, 0], cells);
    expect([resampleSpearman(cells, tiedX), resampleKendall(cells, tiedX), resamplePearson(cells, tiedX)]).toEqual([null, null, null]);
    const tiedY = cellCounts([1, 4, 1, 4, 1], cells);
    expect([resampleSpearman(cells, tiedY), resampleKendall(cells, tiedY), resamplePearson(cells, tiedY)]).toEqual([null, null, null]);
    const two = pairCells(Float64Array.of(0.5, 0.25), Float64Array.of(2, 4));
    expect(resamplePearson(two, cellCounts([0, 1], two))).toBe(-1);
    expect(resamplePearson(two, cellCounts([1, 1], two))).toBeNull();
  });

  test("the identity resample gives the statistics of the data", () => {
    const { x, y } = cases[1];
    const cells = pairCells(Float64Array.from(x), Float64Array.from(y));
    const counts = cellCounts(x.map((_, i) => i), cells);
    expect(resampleSpearman(cells, counts)).toBeCloseTo(spearman(x, y).statistic as number, 13);
    expect(resampleKendall(cells, counts)).toBe(kendallTauB(x, y).statistic);
    expect(resamplePearson(cells, counts)).toBeCloseTo(pearsonStatistic(x, y) as number, 13);
  });
});

describe("affordable resamples", () => {
  test("default settings shrink with the data's size, never below 200; explicit ones are honoured", () => {
    const adaptive = bootstrapSettings();
    expect(adaptive).toMatchObject({ nResamples: 1000, adaptive: true, seed: 1 });
    expect(affordableResamples(adaptive, 1000)).toBe(1000);
    expect(affordableResamples(adaptive, 100_000)).toBe(300);
    expect(affordableResamples(adaptive, 10_000_000)).toBe(200);
    expect(affordableResamples(bootstrapSettings({ nResamples: 5000 }), 10_000_000)).toBe(5000);
    expect(bootstrapSettings({ nResamples: undefined, seed: undefined })).toEqual(adaptive);
  });
});
