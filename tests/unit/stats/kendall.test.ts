import { describe, expect, test } from "vitest";
import { identityOrder, kendallTauB, kendallTauBOfTable, seededRandom } from "@/lib/stats";
import { kendallExactPValue } from "@/lib/stats/kendall";
import { quadraticKendall } from "./quadratic-kendall";
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

describe("kendallTauB against the quadratic count (properties)", () => {
  const shapes: [string, (r: () => number) => [number, number]][] = [
    ["continuous", (r) => { const a = r(); return [a, a + r()]; }],
    ["ratings 1-5 (ties in x, y and both)", (r) => { const a = 1 + Math.floor(r() * 5); return [a, Math.min(5, Math.max(1, a + Math.floor(r() * 3) - 1))]; }],
    ["negative, values over many orders of magnitude", (r) => { const a = 2 ** Math.floor(r() * 200 - 100); return [a, -a * (1 + r())]; }],
    ["clustered x, continuous y", (r) => [Math.floor(r() * 12) / 4, r()]],
    ["y falling as x rises, ties in both (every untied pair discordant)", (r) => { const a = Math.floor(r() * 300); return [a, -a]; }],
    ["y rising with x but for a few pairs (long ascending runs)", (r) => { const a = r(); return [a, r() < 0.02 ? r() : a]; }],
  ];
  test.each(shapes)("%s: τ_b and the asymptotic p; shuffling the pairs changes nothing", (_name, draw) => {
    const random = seededRandom(23);
    for (const n of [60, 700]) {
      const pairs = Array.from({ length: n }, () => draw(random));
      const x = Float64Array.from(pairs, (p) => p[0]);
      const y = Float64Array.from(pairs, (p) => p[1]);
      const r = kendallTauB(x, y);
      const q = quadraticKendall(x, y);
      expect(r.method).toBe("asymptotic");
      expect(r.statistic).toBeCloseTo(q.tau, 13);
      expect(Math.abs((r.pValue as number) - q.p)).toBeLessThanOrEqual(1e-12 * Math.max(q.p, 1e-300));
      const shuffled = identityOrder(n).sort((a, b) => Math.sin(a * 78.233) - Math.sin(b * 78.233));
      expect(kendallTauB(Float64Array.from(shuffled, (i) => x[i]), Float64Array.from(shuffled, (i) => y[i]))).toEqual(r);
    }
  });
});

describe("kendallTauB on small and tied samples against the quadratic count (properties)", () => {
  /** Every sample of length n over the values 0, 1, 2. */
  const samples = (n: number): number[][] => (n === 0 ? [[]] : samples(n - 1).flatMap((s) => [0, 1, 2].map((v) => [...s, v])));
  const isConstant = (v: number[]) => v.every((a) => a === v[0]);

  test.each([2, 3, 4])("n = %i, every sample pair with and without ties", (n) => {
    for (const x of samples(n))
      for (const y of samples(n)) {
        const r = kendallTauB(x, y);
        if (isConstant(x) || isConstant(y)) {
          expect(r).toMatchObject({ statistic: null, pValue: null, method: null });
          continue;
        }
        const q = quadraticKendall(x, y);
        expect(r.statistic).toBeCloseTo(q.tau, 14);
        // Without ties 'auto' takes the exact p (checked against SciPy's vectors above).
        if (r.method === "asymptotic") expect(r.pValue).toBeCloseTo(q.p, 14);
      }
  });

  test("two values in each of x and y (every pair tied in x or y but a quarter), n = 3000", () => {
    const random = seededRandom(41);
    const x = Float64Array.from({ length: 3000 }, () => (random() < 0.3 ? 1 : 2));
    const y = Float64Array.from(x, (v) => (random() < 0.8 ? v : 3 - v) * 10);
    const r = kendallTauB(x, y);
    const q = quadraticKendall(x, y);
    expect(r.statistic).toBeCloseTo(q.tau, 13);
    expect(Math.abs((r.pValue as number) - q.p)).toBeLessThanOrEqual(1e-12 * Math.max(q.p, 1e-300));
  });

  test("every x tied, every y tied, or both, at sizes past the insertion sorts: undefined", () => {
    const n = 5000;
    const constant = new Float64Array(n).fill(2);
    const spread = Float64Array.from({ length: n }, (_, i) => Math.sin(i));
    expect(kendallTauB(constant, spread).reason).toMatch(/every x value is tied/);
    expect(kendallTauB(spread, constant).reason).toMatch(/every y value is tied/);
    expect(kendallTauB(constant, constant).statistic).toBeNull();
  });

  test("missing values (NaN) are refused, not ranked", () => {
    expect(() => kendallTauB([1, 2, Number.NaN], [1, 2, 3])).toThrow(RangeError);
    expect(() => kendallTauB([1, 2, 3], [Number.NaN, 2, 3])).toThrow(RangeError);
  });
});

describe("kendallTauBOfTable: τ_b and its p-value of a contingency table (properties)", () => {
  const random = seededRandom(23);
  /** The pairs a table counts, in a shuffled order: (row k, column b) stands for (x_k, y_b). */
  const expand = (rows: number[][], xs: number[], ys: number[]) => {
    const pairs = rows.flatMap((row, k) => row.flatMap((c, b) => Array.from({ length: c }, () => [xs[k], ys[b]])));
    for (let i = pairs.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [pairs[i], pairs[j]] = [pairs[j], pairs[i]];
    }
    return { x: pairs.map((p) => p[0]), y: pairs.map((p) => p[1]) };
  };
  const table = (rows: number, columns: number, zeros: number) =>
    Array.from({ length: rows }, () => Array.from({ length: columns }, () => (random() < zeros ? 0 : Math.floor(random() * 40))));

  test("equals kendallTauB (statistic, p-value, method) to the last bit on the pairs the table counts, empty cells and rows included", () => {
    for (const [rows, columns, zeros] of [[5, 17, 0.3], [40, 9, 0.7], [2, 2, 0], [1, 6, 0], [6, 1, 0], [12, 12, 0.95]]) {
      for (let trial = 0; trial < 20; trial++) {
        const counts = table(rows, columns, zeros);
        const xs = Array.from({ length: rows }, (_, k) => k / 7 - 1);
        const ys = Array.from({ length: columns }, (_, b) => 1 + b / 4);
        const { x, y } = expand(counts, xs, ys);
        const expected = kendallTauB(x, y);
        const result = kendallTauBOfTable(counts);
        expect(result).toEqual(expected);
        expect(Object.is(result.statistic, expected.statistic) && Object.is(result.pValue, expected.pValue)).toBe(true);
      }
    }
  });

  test("a table without ties (one pair per row and per column) has kendallTauB's exact p-value", () => {
    for (const n of [3, 10, 33, 40]) {
      const order = Array.from({ length: n }, (_, i) => i).sort(() => random() - 0.5);
      const counts = order.map((column) => Array.from({ length: n }, (_, b) => (b === column ? 1 : 0)));
      const expected = kendallTauB(Array.from({ length: n }, (_, k) => k), order);
      expect(expected.method).toBe(n <= 33 ? "exact" : "asymptotic");
      expect(kendallTauBOfTable(counts)).toEqual(expected);
    }
  });

  test("one row, one column, fewer than two pairs or no rows: undefined", () => {
    expect(kendallTauBOfTable([[3, 4, 5]]).reason).toBe("every x value is tied, so τ_b is undefined");
    expect(kendallTauBOfTable([[3], [4]]).reason).toBe("every y value is tied, so τ_b is undefined");
    expect(kendallTauBOfTable([[0, 1], [0, 0]])).toEqual({ statistic: null, pValue: null, n: 1, method: null, reason: "needs at least 2 pairs, got 1" });
    expect(kendallTauBOfTable([]).statistic).toBeNull();
    expect(kendallTauBOfTable([[1, 0], [0, 1]]).statistic).toBe(1);
    expect(kendallTauBOfTable([[0, 1], [1, 0]]).statistic).toBe(-1);
  });
});
