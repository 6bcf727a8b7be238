import { describe, expect, test } from "vitest";
import { seededRandom } from "@/lib/stats";
import { countInversions, sortPairs } from "@/lib/stats/value-sort";

/** Strict inversions by enumerating all pairs. */
function quadraticInversions(values: Float64Array): number {
  let inversions = 0;
  for (let i = 0; i < values.length; i++) for (let j = i + 1; j < values.length; j++) if (values[i] > values[j]) inversions++;
  return inversions;
}

/** The pairs sorted by a comparison sort on (x, y). */
function comparisonPairs(x: Float64Array, y: Float64Array): [number, number][] {
  return Array.from(x, (v, k): [number, number] => [v, y[k]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

// The bucket passes' cases: spread-out values (small buckets), clusters of equal values (large
// buckets of one value), values over many orders of magnitude (nearly all in the first bucket at
// every depth, so the index sorts take over) and a range too wide to scale.
const shapes: [string, (r: () => number) => number][] = [
  ["uniform", (r) => r() * 100 - 50],
  ["ratings 1-5", (r) => 1 + Math.floor(r() * 5)],
  ["clusters of equal values", (r) => Math.floor(r() * 40) / 3],
  ["orders of magnitude, both signs", (r) => (r() < 0.5 ? -1 : 1) * 2 ** Math.floor(r() * 600 - 300) * (1 + r())],
  ["±0 and the float64 extremes", (r) => [0, -0, 1, -Number.MAX_VALUE, Number.MAX_VALUE, 5e-324][Math.floor(r() * 6)] * (r() < 0.2 ? r() : 1)],
  ["a few outliers", (r) => (r() < 0.001 ? 1e12 : r())],
];

describe("countInversions", () => {
  test.each(shapes)("%s: the quadratic count, and the values sorted", (_name, draw) => {
    const random = seededRandom(29);
    for (const n of [0, 1, 2, 33, 1000, 3000]) {
      const values = Float64Array.from({ length: n }, () => draw(random));
      const sorted = new Float64Array(n);
      expect(countInversions(values, sorted)).toBe(quadraticInversions(values));
      expect(Array.from(sorted)).toEqual(Array.from(values).sort((a, b) => a - b));
    }
  });

  test("descending values: every pair is an inversion; constant values: none", () => {
    const n = 5000;
    expect(countInversions(Float64Array.from({ length: n }, (_, i) => -i), new Float64Array(n))).toBe((n * (n - 1)) / 2);
    expect(countInversions(new Float64Array(n).fill(3), new Float64Array(n))).toBe(0);
  });
});

describe("sortPairs", () => {
  test.each(shapes)("x %s, y drawn alike: the order of a comparison sort on (x, y)", (_name, draw) => {
    const random = seededRandom(31);
    for (const n of [0, 1, 2, 33, 1000, 20_000]) {
      const x = Float64Array.from({ length: n }, () => draw(random));
      const y = Float64Array.from({ length: n }, () => draw(random));
      const { xs, ys } = sortPairs(x, y);
      expect(Array.from(xs, (v, k) => [v, ys[k]])).toEqual(comparisonPairs(x, y));
    }
  });

  test("one x value: the pairs in y order; one x and one y value: as given", () => {
    const random = seededRandom(37);
    const x = new Float64Array(2000).fill(4);
    const y = Float64Array.from(x, () => Math.floor(random() * 50));
    expect(Array.from(sortPairs(x, y).ys)).toEqual(Array.from(y).sort((a, b) => a - b));
    const constant = new Float64Array(2000).fill(-1);
    expect(sortPairs(x, constant)).toEqual({ xs: x, ys: constant });
  });
});
