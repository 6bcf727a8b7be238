import { describe, expect, test } from "vitest";
import { identityOrder, kendallTauB, rankAverage, seededRandom, sortIndicesBy, sortIndicesByPair, spearman } from "@/lib/stats";
import { quadraticKendall } from "./quadratic-kendall";

/** The ordering the radix sort replaces: a stable comparison sort (ties by index). */
const comparisonOrder = (values: ArrayLike<number>) => Array.from(identityOrder(values.length)).sort((a, b) => values[a] - values[b] || a - b);

/** Values with many ties, both signs, ±0, tiny and huge magnitudes. */
function awkwardValues(n: number, seed: number): Float64Array {
  const random = seededRandom(seed);
  const pool = [0, -0, 1, -1, 2.5, -2.5, 1e-300, -1e-300, 5e-324, -5e-324, 1e300, -1e300, Number.MAX_VALUE, -Number.MAX_VALUE, 0.1 + 0.2, 0.3];
  return Float64Array.from({ length: n }, () => (random() < 0.5 ? pool[Math.floor(random() * pool.length)] : (random() - 0.5) * 10 ** Math.floor(random() * 20 - 10)));
}

describe("sortIndicesBy", () => {
  // Sizes on both sides of the insertion-sort threshold, up to tens of thousands.
  test.each([0, 1, 2, 47, 48, 500, 8191, 8192, 30_000])("n = %i: the stable order of a comparison sort", (n) => {
    const values = awkwardValues(n, n + 1);
    expect(Array.from(sortIndicesBy(values, identityOrder(n)))).toEqual(comparisonOrder(values));
  });

  // The bucket pass's cases: spread-out values (small buckets), clusters of equal values
  // (large buckets of one value), and values spread over many orders of magnitude (nearly all
  // in the first bucket at every depth, so the radix sort takes over).
  test.each([
    ["uniform", (r: () => number) => r() * 100 - 50],
    ["normal-ish", (r: () => number) => r() + r() + r() + r() - 2],
    ["clusters of equal values", (r: () => number) => Math.floor(r() * 40) / 3],
    ["orders of magnitude", (r: () => number) => 2 ** Math.floor(r() * 600 - 300) * (1 + r())],
    ["a few outliers", (r: () => number) => (r() < 0.001 ? 1e12 : r())],
  ])("%s: the stable order of a comparison sort", (_name, draw) => {
    const random = seededRandom(17);
    for (const n of [49, 1000, 25_000]) {
      const values = Float64Array.from({ length: n }, () => draw(random));
      expect(Array.from(sortIndicesBy(values, identityOrder(n)))).toEqual(comparisonOrder(values));
    }
  });

  test("sorts a given order stably: ties keep the order given, not the index order", () => {
    const values = [3, 1, 3, 1, 2];
    const given = Uint32Array.from([4, 3, 2, 1, 0]);
    expect(Array.from(sortIndicesBy(values, given))).toEqual([3, 1, 4, 2, 0]);
  });

  test("integers all sharing high bits (ratings 1-5) and a constant sample", () => {
    const random = seededRandom(3);
    const ratings = Float64Array.from({ length: 20_000 }, () => 1 + Math.floor(random() * 5));
    expect(Array.from(sortIndicesBy(ratings, identityOrder(ratings.length)))).toEqual(comparisonOrder(ratings));
    const constant = new Float64Array(10_000).fill(-7);
    expect(Array.from(sortIndicesBy(constant, identityOrder(constant.length)))).toEqual(comparisonOrder(constant));
  });

  test("sortIndicesByPair orders by (primary, secondary), ties in both by index", () => {
    const random = seededRandom(5);
    const x = Float64Array.from({ length: 10_000 }, () => Math.floor(random() * 30));
    const y = Float64Array.from({ length: 10_000 }, () => Math.floor(random() * 30) / 7);
    const expected = Array.from(identityOrder(x.length)).sort((a, b) => x[a] - x[b] || y[a] - y[b] || a - b);
    expect(Array.from(sortIndicesByPair(x, y))).toEqual(expected);
  });
});

describe("rank statistics on the radix order (properties)", () => {
  const random = seededRandom(11);
  const n = 20_000;
  // Heavy ties in x (5 levels), continuous y with duplicates.
  const x = Float64Array.from({ length: n }, () => 1 + Math.floor(random() * 5));
  const y = Float64Array.from(x, (v) => Math.round((v + random() * 3) * 100) / 100);
  const permutation = identityOrder(n).sort((a, b) => Math.sin(a * 12.9898) - Math.sin(b * 12.9898));
  const px = Float64Array.from(permutation, (i) => x[i]);
  const py = Float64Array.from(permutation, (i) => y[i]);

  test("order invariance: permuting the pairs leaves Spearman and Kendall unchanged", () => {
    expect(spearman(px, py)).toEqual(spearman(x, y));
    expect(kendallTauB(px, py)).toEqual(kendallTauB(x, y));
  });

  test("ties: average ranks sum to n(n+1)/2 and tied values share one rank", () => {
    const ranks = rankAverage(x);
    expect(ranks.reduce((a, b) => a + b, 0)).toBe((n * (n + 1)) / 2);
    const byValue = new Map<number, number>();
    x.forEach((v, i) => {
      if (!byValue.has(v)) byValue.set(v, ranks[i]);
      expect(ranks[i]).toBe(byValue.get(v));
    });
  });

  test("Kendall's P - Q equals the quadratic count on ties-heavy data", () => {
    const m = 400;
    expect(kendallTauB(x.subarray(0, m), y.subarray(0, m)).statistic).toBeCloseTo(quadraticKendall(x.subarray(0, m), y.subarray(0, m)).tau, 12);
  });
});
