/**
 * Average ranks by the distribution sort and by the counts of few distinct values equal mid-ranks
 * from a comparison sort on every kind of sample; Spearman's one-pass sums over the ranks equal
 * the product-moment correlation of the ranks to the last bit; Kendall's table of few levels
 * equals the quadratic count.
 */
import { describe, expect, test } from "vitest";
import { kendallTauB, pearson, rankAverage, seededRandom, spearman } from "@/lib/stats";
import { fewLevels, MAX_LEVELS } from "@/lib/stats/levels";
import { quadraticKendall } from "./quadratic-kendall";

/** Mid-ranks from Array.prototype.sort: the definition, quadratic in nothing. */
function midRanks(values: ArrayLike<number>): number[] {
  const order = Array.from(values, (_, i) => i).sort((a, b) => values[a] - values[b] || a - b);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && values[order[end]] === values[order[start]]) end++;
    for (let k = start; k < end; k++) ranks[order[k]] = (start + 1 + end) / 2;
    start = end;
  }
  return ranks;
}

const random = seededRandom(2026);
const SAMPLES: Record<string, (n: number) => Float64Array> = {
  continuous: (n) => Float64Array.from({ length: n }, () => random()),
  "ratings 1-5": (n) => Float64Array.from({ length: n }, () => 1 + Math.floor(random() * 5)),
  "means of 4 ratings": (n) => Float64Array.from({ length: n }, () => (4 + Math.floor(random() * 17)) / 4),
  [`${MAX_LEVELS} levels`]: (n) => Float64Array.from({ length: n }, (_, i) => (i < MAX_LEVELS ? i : Math.floor(random() * MAX_LEVELS)) * 0.37),
  [`${MAX_LEVELS + 1} levels`]: (n) => Float64Array.from({ length: n }, (_, i) => (i <= MAX_LEVELS ? i : Math.floor(random() * (MAX_LEVELS + 1))) * 0.37),
  "integers 0-999": (n) => Float64Array.from({ length: n }, () => Math.floor(random() * 1000)),
  "many magnitudes": (n) => Float64Array.from({ length: n }, () => Math.exp(random() * 60 - 30) * (random() < 0.5 ? -1 : 1)),
  "one outlier": (n) => Float64Array.from({ length: n }, (_, i) => (i === 3 ? 1e300 : random())),
  "zeros of both signs": (n) => Float64Array.from({ length: n }, () => (random() < 0.4 ? -0 : random() < 0.5 ? 0 : random())),
  "runs of equal values": (n) => Float64Array.from({ length: n }, (_, i) => Math.floor(i / 50) + (i % 7 === 0 ? random() : 0)),
};

describe("rankAverage", () => {
  test.each(Object.keys(SAMPLES))("%s: the mid-ranks of a comparison sort, at sizes around the insertion sort's and in the thousands", (name) => {
    for (const n of [1, 2, 3, 47, 48, 49, 300, 5000, 20_000]) {
      const values = SAMPLES[name](n);
      expect(Array.from(rankAverage(values))).toEqual(midRanks(values));
    }
  });

  test("every value equal, and a plain array", () => {
    expect(Array.from(rankAverage(new Float64Array(100).fill(7)))).toEqual(new Array(100).fill(50.5));
    expect(Array.from(rankAverage([10, 20, 20, 30]))).toEqual([1, 2.5, 2.5, 4]);
  });
});

describe("fewLevels", () => {
  test("the distinct values ascending, their counts and each value's level; null past the limit", () => {
    const levels = fewLevels([3, 1, 2, 3, -0, 0, 1.5, 3])!;
    expect(Array.from(levels.values)).toEqual([-0, 1, 1.5, 2, 3]);
    expect(Array.from(levels.counts)).toEqual([2, 1, 1, 1, 3]);
    expect(Array.from(levels.codes)).toEqual([4, 1, 3, 4, 0, 0, 2, 4]);
    expect(fewLevels(SAMPLES[`${MAX_LEVELS} levels`](1000))?.values.length).toBe(MAX_LEVELS);
    expect(fewLevels(SAMPLES[`${MAX_LEVELS + 1} levels`](1000))).toBeNull();
    expect(fewLevels(SAMPLES.continuous(1000))).toBeNull();
  });
});

describe("spearman's one pass over the ranks", () => {
  test.each(Object.keys(SAMPLES))("%s against each sample: the product-moment correlation of the ranks, to the last bit", (name) => {
    for (const other of Object.keys(SAMPLES)) {
      const x = SAMPLES[name](3000);
      const y = SAMPLES[other](3000);
      const ranked = pearson(rankAverage(x), rankAverage(y));
      const r = spearman(x, y);
      expect(r.statistic).toBe(ranked.statistic);
      if (r.statistic === null) expect(r.reason).toBe(ranked.reason);
    }
  });
});

describe("heavy ties at the bench's size (100,000 ratings 1-5 on both sides, 40 % of y drawn again)", () => {
  const x = SAMPLES["ratings 1-5"](100_000);
  const y = x.map((v) => (random() < 0.4 ? 1 + Math.floor(random() * 5) : v));
  test("spearman is the product-moment correlation of the mid-ranks, to the last bit", () => {
    expect(spearman(x, y).statistic).toBe(pearson(midRanks(x), midRanks(y)).statistic);
  });
});

describe("kendallTauB of few levels (the table of counts)", () => {
  test.each([
    ["ratings 1-5", "ratings 1-5"],
    ["means of 4 ratings", "ratings 1-5"],
    [`${MAX_LEVELS} levels`, "means of 4 ratings"],
    ["zeros of both signs", "ratings 1-5"],
  ])("%s × %s: the quadratic count", (a, b) => {
    const x = SAMPLES[a](2000);
    const y = SAMPLES[b](2000).map((v, i) => (random() < 0.5 ? v : x[i] % 5));
    const r = kendallTauB(x, y);
    const q = quadraticKendall(x, y);
    expect(r.statistic).toBeCloseTo(q.tau, 13);
    expect(Math.abs((r.pValue as number) - q.p)).toBeLessThanOrEqual(1e-12 * Math.max(q.p, 1e-300));
  });
});

describe("work arrays kept between calls (lib/stats/work-arrays.ts)", () => {
  test("calls of falling and rising sizes, continuous and tied in turn, read nothing an earlier call left", () => {
    const sizes = [20_000, 49, 3000, 300, 20_000, 1000, 2500];
    sizes.forEach((n, k) => {
      const kind = k % 2 === 0 ? "continuous" : "ratings 1-5";
      const x = SAMPLES[kind](n);
      const y = Float64Array.from(x, (v) => (random() < 0.5 ? v : SAMPLES[kind](1)[0]));
      expect(Array.from(rankAverage(x))).toEqual(midRanks(x));
      expect(spearman(x, y).statistic).toBe(pearson(midRanks(x), midRanks(y)).statistic);
      if (n <= 3000) expect(kendallTauB(x, y).statistic).toBeCloseTo(quadraticKendall(x, y).tau, 13);
    });
  });
});
