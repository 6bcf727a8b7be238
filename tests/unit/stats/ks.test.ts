import { describe, expect, test } from "vitest";
import { ks2samp, ks2sampOffThread, seededRandom } from "@/lib/stats";
import { exactKsPValue } from "@/lib/stats/ks";
import { expectPValue, expectValue, hasVectors, vectorGroup } from "./reference-vectors";

type Expected = { statistic: number; pvalue: number; exact_p_lattice_count: number };

describe.skipIf(!hasVectors)("ks_2samp_scipy vectors", () => {
  test.each(vectorGroup<{ data1: number[]; data2: number[] }, Expected>("ks_2samp_scipy").map((v) => [v.note ?? "", v] as const))("%s", (_note, v) => {
    const r = ks2samp(v.input.data1, v.input.data2);
    expectValue(r.statistic, v.expected.statistic);
    expectPValue(r.pValue, v.expected.pvalue);
    expect(r.method).toBe("exact");
    // Symmetric in the two samples (GradedReviews Table 6: K-S(A,B) = K-S(B,A)).
    const swapped = ks2samp(v.input.data2, v.input.data1);
    expect(swapped.statistic).toBe(r.statistic);
    expectPValue(swapped.pValue, v.expected.pvalue);
  });
});

describe("ks2samp", () => {
  test("empty sample gives null with a reason", () => {
    expect(ks2samp([], [1, 2])).toMatchObject({ statistic: null, pValue: null, reason: expect.stringMatching(/at least one/) });
  });

  test("disjoint samples of 20 and 30: D = 1 and the exact p = 2/C(50, 20), to relative precision", () => {
    const a = Array.from({ length: 20 }, (_, i) => i);
    const b = Array.from({ length: 30 }, (_, i) => 100 + i);
    const r = ks2samp(a, b);
    expect(r.statistic).toBe(1);
    // SciPy 1.17 gives 4.243652513534888e-14; only the two extreme paths leave the band.
    expectPValue(r.pValue, 2 / 47129212243960);
  });

  test("samples above 10 000 switch to the asymptotic kstwo p-value", () => {
    const a = Array.from({ length: 10_001 }, (_, i) => i / 10_001);
    const b = Array.from({ length: 5 }, (_, i) => (i + 0.5) / 5);
    expect(ks2samp(a, b).method).toBe("asymptotic");
  });
});

/** SciPy's `_compute_outer_prob_inside_method` loop, one column after the other (the reference for the wavefront). */
function referenceOutsideLattice(n1: number, n2: number, g: number, h: number): number {
  const m = Math.max(n1, n2);
  const n = Math.min(n1, n2);
  const mg = m / g;
  const ng = n / g;
  let prev = new Float64Array(n + 1).fill(1);
  let cur = new Float64Array(n + 1).fill(1);
  prev.fill(0, 0, Math.min(Math.ceil(h / mg), n + 1));
  for (let i = 1; i <= m; i++) {
    const lo = Math.min(Math.max(Math.floor((ng * i - h) / mg) + 1, 0), n);
    const hi = Math.min(Math.ceil((ng * i + h) / mg), n + 1);
    if (hi <= lo) return 1;
    let below = lo === 0 ? 0 : 1;
    for (let j = lo; j < hi; j++) {
      below = (prev[j] * i + below * j) / (i + j);
      cur[j] = below;
    }
    [prev, cur] = [cur, prev];
  }
  return prev[n];
}

describe("exact p-value on the lattice", () => {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

  test("equals the column-by-column recursion to the last bit (sizes, shifts and ties of all kinds)", () => {
    const random = seededRandom(17);
    let compared = 0;
    for (let t = 0; t < 600; t++) {
      const n1 = 1 + Math.floor(random() * (t < 500 ? 40 : 400));
      const n2 = 1 + Math.floor(random() * (t < 500 ? 40 : 400));
      if (n1 === n2) continue;
      const shift = random() * 1.5;
      const round = t % 3 === 0 ? (v: number) => Math.round(v * 5) : (v: number) => v;
      const a = Array.from({ length: n1 }, () => round(random()));
      const b = Array.from({ length: n2 }, () => round(random() + shift * random()));
      const r = ks2samp(a, b);
      const g = gcd(n1, n2);
      const h = Math.round((r.statistic as number) * (n1 / g) * n2);
      if (h === 0) continue;
      expect(Object.is(r.pValue, referenceOutsideLattice(n1, n2, g, h))).toBe(true);
      compared++;
    }
    expect(compared).toBeGreaterThan(400);
  });

  test("equals the column-by-column recursion to the last bit when the middle of the band underflows to 0 (skipped rows)", () => {
    const random = seededRandom(23);
    const pValues: number[] = [];
    for (const [n1, n2] of [[1000, 1100], [1201, 900], [2000, 1999]]) {
      for (const shift of [0, 0.05, 0.3, 0.6, 0.9, 1.2]) {
        const a = Array.from({ length: n1 }, () => random());
        const b = Array.from({ length: n2 }, () => Math.round((random() + shift) * 20) / 20);
        const r = ks2samp(a, b);
        const g = gcd(n1, n2);
        const h = Math.round((r.statistic as number) * (n1 / g) * n2);
        expect(Object.is(r.pValue, referenceOutsideLattice(n1, n2, g, h))).toBe(true);
        pValues.push(r.pValue as number);
      }
    }
    // The cases cover p = 0 (underflow in the middle of the band), tiny and ordinary p-values.
    expect(pValues.some((p) => p === 0)).toBe(true);
    expect(pValues.some((p) => p > 0 && p < 1e-100)).toBe(true);
    expect(pValues.some((p) => p > 1e-3)).toBe(true);
  });
});

describe("ks2sampOffThread", () => {
  test("exactKsPValue is self-contained: its source text alone (as the worker gets it) computes the same p-values", () => {
    // The worker defines esbuild's name-keeping helper as the identity (lib/process/off-thread.ts); so does this.
    const standalone = new Function("__name", `return (${exactKsPValue.toString()});`)((target: unknown) => target) as typeof exactKsPValue;
    const cases: [number, number, number, number][] = [[1200, 1300, 100, 4], [900, 900, 900, 150], [1000, 1100, 100, 9000], [40, 30, 10, 8]];
    for (const args of cases) {
      expect(Object.is(standalone(...args), exactKsPValue(...args))).toBe(true);
    }
  });

  test("gives ks2samp's results to the last bit, with the exact p-values computed on a worker thread", async () => {
    const random = seededRandom(29);
    const pairs: [number[], number[]][] = [[[], [1, 2]], [[1, 2, 3], [1, 2, 3]]];
    for (const [n1, n2, shift] of [[1200, 1300, 0.2], [900, 900, 0.1], [1000, 1100, 1.2], [40, 30, 0.5], [10_001, 5, 0]]) {
      pairs.push([Array.from({ length: n1 }, () => random()), Array.from({ length: n2 }, () => Math.round((random() + shift) * 20) / 20)]);
    }
    const results = await ks2sampOffThread(pairs);
    expect(results.map((r) => r.method)).toEqual([null, "exact", "exact", "exact", "exact", "exact", "asymptotic"]);
    results.forEach((r, k) => {
      const here = ks2samp(...pairs[k]);
      expect(r).toEqual(here);
      expect(Object.is(r.pValue, here.pValue)).toBe(true);
    });
  });
});
