import { describe, expect, test } from "vitest";
import { kendallTauB } from "@/lib/stats";
import { kendallExactPValue } from "@/lib/stats/kendall";
import { expectPValue, expectValue, hasVectors, vectorGroup } from "./reference-vectors";

type Expected = {
  tau_b: number | null;
  pvalue: number | null;
  p_method: "exact" | "asymptotic" | "nan";
  exact_p_mahonian: number | null;
};

describe.skipIf(!hasVectors)("kendall_tau_b_scipy vectors", () => {
  test.each(vectorGroup<{ x: number[]; y: number[] }, Expected>("kendall_tau_b_scipy").map((v) => [v.note ?? "", v] as const))("%s", (_note, v) => {
    const r = kendallTauB(v.input.x, v.input.y);
    expectValue(r.statistic, v.expected.tau_b);
    expectPValue(r.pValue, v.expected.pvalue);
    expect(r.method).toBe(v.expected.p_method === "nan" ? null : v.expected.p_method);
    // The exact distribution is checked even where 'auto' does not use it (n = 40).
    if (v.expected.exact_p_mahonian !== null && v.expected.tau_b !== null) {
      const n = v.input.x.length;
      const total = (n * (n - 1)) / 2;
      const concordant = Math.round(((v.expected.tau_b + 1) / 2) * total);
      expectPValue(kendallExactPValue(n, concordant), v.expected.exact_p_mahonian);
    }
  });
});

describe("kendallTauB", () => {
  test("degenerate inputs return null with a reason", () => {
    expect(kendallTauB([], [])).toMatchObject({ statistic: null, pValue: null, method: null, n: 0 });
    expect(kendallTauB([2, 2, 2], [1, 2, 3])).toMatchObject({ statistic: null, reason: expect.stringMatching(/every x value is tied/) });
    expect(kendallTauB([1, 2, 3], [4, 4, 4])).toMatchObject({ statistic: null, reason: expect.stringMatching(/every y value is tied/) });
  });

  test("two pairs: τ = ±1 with the exact p = 1 (SciPy)", () => {
    expect(kendallTauB([1, 2], [2, 1])).toEqual({ statistic: -1, pValue: 1, n: 2, method: "exact" });
  });

  test("min(P, Q) <= 1 uses the exact p-value even for n > 33", () => {
    const x = Array.from({ length: 50 }, (_, i) => i);
    const r = kendallTauB(x, x);
    expect(r).toMatchObject({ statistic: 1, method: "exact" });
    expect(r.pValue).toBeCloseTo(2 / 3.0414093201713376e64, 70);
  });

  test("ties everywhere but one pair still give a defined τ_b (asymptotic p)", () => {
    const r = kendallTauB([1, 1, 1, 2], [1, 1, 1, 2]);
    expect(r.statistic).toBeCloseTo(1, 15);
    expect(r.method).toBe("asymptotic");
  });

  test("is symmetric in x and y and invariant under reordering pairs", () => {
    const x = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5];
    const y = [2, 7, 1, 8, 2, 8, 1, 8, 2, 8, 4];
    const base = kendallTauB(x, y);
    expect(kendallTauB(y, x).statistic).toBeCloseTo(base.statistic as number, 15);
    const order = [10, 3, 7, 0, 5, 9, 1, 8, 2, 6, 4];
    const shuffled = kendallTauB(order.map((i) => x[i]), order.map((i) => y[i]));
    expect(shuffled.statistic).toBeCloseTo(base.statistic as number, 15);
    expect(shuffled.pValue).toBeCloseTo(base.pValue as number, 15);
  });
});
