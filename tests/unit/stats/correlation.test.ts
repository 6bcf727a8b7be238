import { describe, expect, test } from "vitest";
import { pearson, pearsonStatistic, seededRandom, spearman } from "@/lib/stats";
import { expectPValue, expectValue, hasVectors, vectorGroup } from "./reference-vectors";

type XY = { x: number[]; y: number[] };

describe.skipIf(!hasVectors)("spearman_scipy vectors", () => {
  test.each(vectorGroup<XY, { rho: number | null; pvalue: number | null }>("spearman_scipy").map((v) => [v.note ?? "", v] as const))(
    "%s",
    (_note, v) => {
      const r = spearman(v.input.x, v.input.y);
      expectValue(r.statistic, v.expected.rho);
      expectPValue(r.pValue, v.expected.pvalue);
      if (v.expected.rho === null) expect(r.reason).toMatch(/constant/);
    },
  );
});

describe.skipIf(!hasVectors)("pearson_scipy vectors", () => {
  test.each(vectorGroup<XY, { r: number | null; pvalue: number | null }>("pearson_scipy").map((v) => [v.note ?? "", v] as const))(
    "%s",
    (_note, v) => {
      const r = pearson(v.input.x, v.input.y);
      expectValue(r.statistic, v.expected.r);
      expectPValue(r.pValue, v.expected.pvalue);
    },
  );
});

describe("spearman", () => {
  test("ties get mid-ranks", () => {
    // Ranks of x: [1, 2.5, 2.5, 4]; identical ranks in y → ρ = 1.
    expect(spearman([1, 2, 2, 3], [10, 20, 20, 30]).statistic).toBeCloseTo(1, 15);
  });

  test("is invariant under reordering the pairs", () => {
    const x = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5];
    const y = [2, 7, 1, 8, 2, 8, 1, 8, 2, 8, 4];
    const base = spearman(x, y);
    const order = [10, 3, 7, 0, 5, 9, 1, 8, 2, 6, 4];
    const shuffled = spearman(order.map((i) => x[i]), order.map((i) => y[i]));
    expect(shuffled.statistic).toBeCloseTo(base.statistic as number, 14);
    expect(shuffled.pValue).toBeCloseTo(base.pValue as number, 14);
  });

  test("degenerate inputs return null with a reason, never NaN", () => {
    expect(spearman([], [])).toMatchObject({ statistic: null, pValue: null, n: 0, reason: expect.stringMatching(/at least 2/) });
    expect(spearman([1], [2])).toMatchObject({ statistic: null, pValue: null, n: 1 });
    expect(spearman([1, 1, 1], [1, 2, 3])).toMatchObject({ statistic: null, reason: expect.stringMatching(/x is constant/) });
    expect(spearman([1, 2], [2, 1])).toMatchObject({ statistic: -1, pValue: null, reason: expect.stringMatching(/degrees of freedom/) });
    expect(spearman([1, 2, 3, 4], [2, 4, 6, 8])).toMatchObject({ statistic: 1, pValue: 0 });
  });

  test("rejects unpaired or non-finite input", () => {
    expect(() => spearman([1, 2], [1])).toThrow(/length/);
    expect(() => spearman([1, NaN], [1, 2])).toThrow(/finite/);
  });
});

describe("pearson", () => {
  test("n = 2 gives ±1 with p = 1 (SciPy)", () => {
    expect(pearson([1, 2], [3, 1])).toEqual({ statistic: -1, pValue: 1, n: 2 });
  });
  test("constant input is undefined", () => {
    expect(pearson([1, 2, 3], [5, 5, 5])).toMatchObject({ statistic: null, pValue: null, reason: expect.stringMatching(/y is constant/) });
  });
  test("pearsonStatistic is pearson's statistic (no p-value), undefined cases included", () => {
    const random = seededRandom(3);
    const cases = [
      [[1, 2], [3, 1]],
      [[1, 2, 3], [5, 5, 5]],
      [[4, 4], [1, 2]],
      [[1], [2]],
      ...Array.from({ length: 20 }, (_, k) => {
        const x = Array.from({ length: 2 + k * 7 }, () => Math.round(random() * 5));
        return [x, x.map((v) => v + random())];
      }),
    ];
    for (const [x, y] of cases) expect(Object.is(pearsonStatistic(x, y), pearson(x, y).statistic)).toBe(true);
  });
});
