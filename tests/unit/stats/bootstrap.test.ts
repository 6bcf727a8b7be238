import { describe, expect, test } from "vitest";
import { bootstrapCi, bootstrapCis, bootstrapCisPrepared, seededRandom, spearman } from "@/lib/stats";
import { expectValue, hasVectors, vectorGroup } from "./reference-vectors";

const mean = (x: Float64Array): number => x.reduce((a, v) => a + v, 0) / x.length;
const rho = (x: Float64Array, y: Float64Array): number | null => spearman(x, y).statistic;

type Rows = number[][];

describe.skipIf(!hasVectors)("bootstrap_ci vectors", () => {
  const [fixedMean, fixedRho, seeded] = vectorGroup("bootstrap_ci");

  test("fixed resamples, mean: percentile, basic and BCa intervals as SciPy", () => {
    const input = fixedMean.input as { data: number[]; resample_indices: Rows; confidence_level: number };
    const e = fixedMean.expected as {
      theta_hat: number;
      percentile_ci: [number, number];
      basic_ci: [number, number];
      bca_ci: [number, number];
      standard_error_ddof1: number;
      bca_z0: number;
      bca_a_hat: number;
      bca_alpha_levels: [number, number];
    };
    const options = { resampleIndices: input.resample_indices, confidenceLevel: input.confidence_level };
    const percentile = bootstrapCi([input.data], mean, { ...options, method: "percentile" });
    expectValue(percentile.statistic, e.theta_hat);
    expectValue(percentile.low, e.percentile_ci[0]);
    expectValue(percentile.high, e.percentile_ci[1]);
    expectValue(percentile.standardError, e.standard_error_ddof1);
    expect(percentile.nResamples).toBe(25);

    const basic = bootstrapCi([input.data], mean, { ...options, method: "basic" });
    expectValue(basic.low, e.basic_ci[0]);
    expectValue(basic.high, e.basic_ci[1]);

    const bca = bootstrapCi([input.data], mean, { ...options, method: "bca" });
    expectValue(bca.low, e.bca_ci[0]);
    expectValue(bca.high, e.bca_ci[1]);
    expectValue(bca.bca?.z0 ?? null, e.bca_z0);
    expectValue(bca.bca?.acceleration ?? null, e.bca_a_hat);
    expectValue(bca.bca?.levels[0] ?? null, e.bca_alpha_levels[0]);
    expectValue(bca.bca?.levels[1] ?? null, e.bca_alpha_levels[1]);
  });

  test("fixed paired resamples, Spearman ρ: percentile interval as SciPy", () => {
    const input = fixedRho.input as { x: number[]; y: number[]; resample_indices: Rows; confidence_level: number };
    const e = fixedRho.expected as { percentile_ci: [number, number] };
    const r = bootstrapCi([input.x, input.y], rho, { paired: true, resampleIndices: input.resample_indices, confidenceLevel: input.confidence_level });
    expectValue(r.low, e.percentile_ci[0]);
    expectValue(r.high, e.percentile_ci[1]);
  });

  test("seeded BCa with 9999 resamples lands within the vector's tolerance of SciPy's", () => {
    const input = seeded.input as { data: number[]; n_resamples: number };
    const e = seeded.expected as { ci: [number, number]; tolerance: number };
    for (const seed of [1, 2, 3]) {
      const r = bootstrapCi([input.data], mean, { method: "bca", nResamples: input.n_resamples, seed });
      expect(Math.abs((r.low as number) - e.ci[0])).toBeLessThanOrEqual(e.tolerance);
      expect(Math.abs((r.high as number) - e.ci[1])).toBeLessThanOrEqual(e.tolerance);
    }
  });
});

describe("bootstrapCi", () => {
  const data = [0.42, 0.51, 0.38, 0.77, 0.64, 0.29, 0.55, 0.7];

  test("is reproducible for a seed and changes with it", () => {
    const a = bootstrapCi([data], mean, { seed: 7, nResamples: 500 });
    const b = bootstrapCi([data], mean, { seed: 7, nResamples: 500 });
    const c = bootstrapCi([data], mean, { seed: 8, nResamples: 500 });
    expect(a).toEqual(b);
    expect(a.low).not.toBe(c.low);
    expect(a.low as number).toBeLessThan(a.statistic as number);
    expect(a.high as number).toBeGreaterThan(a.statistic as number);
  });

  test("undefined statistics give null bounds with a reason, never NaN", () => {
    // Resampling [1, 1, 1, 2] often yields a constant sample, where ρ is undefined.
    const r = bootstrapCi([[1, 1, 1, 2], [1, 2, 3, 4]], rho, { paired: true, nResamples: 200, seed: 1 });
    expect(r).toMatchObject({ low: null, high: null, reason: expect.stringMatching(/undefined on \d+ of 200 resamples/) });
    expect(bootstrapCi([[1]], mean)).toMatchObject({ low: null, reason: expect.stringMatching(/at least 2/) });
  });

  test("BCa on a constant sample is undefined (every θ* equals θ̂ … on one side)", () => {
    const r = bootstrapCi([[3, 3, 3, 3]], mean, { method: "bca", nResamples: 50 });
    expect(r).toMatchObject({ low: null, high: null, reason: expect.stringMatching(/jackknife|one side/) });
  });

  test("rejects malformed resample rows", () => {
    expect(() => bootstrapCi([data], mean, { resampleIndices: [[0, 1]] })).toThrow(/n indices/);
  });
});

describe("bootstrapCis: several statistics over one stream of resamples", () => {
  const random = seededRandom(9);
  const x = Array.from({ length: 80 }, () => random());
  const y = x.map((v) => Math.round(5 * v + 2 * random()));
  const dot = (a: Float64Array, b: Float64Array) => a.reduce((s, v, i) => s + v * b[i], 0);
  const max = (a: Float64Array) => Math.max(...a);

  test("the seeded results of bootstrapCi are unchanged (values computed before bootstrapCis existed)", () => {
    expect(bootstrapCi([x], mean, { seed: 7, nResamples: 500 })).toEqual({
      method: "percentile",
      confidenceLevel: 0.95,
      nResamples: 500,
      low: 0.4931917968558385,
      high: 0.6217044659495258,
      statistic: 0.55840738432568,
      standardError: 0.032527611886349846,
    });
    expect(bootstrapCi([x, y], dot, { seed: 3, nResamples: 400, paired: true, method: "bca" })).toEqual({
      method: "bca",
      confidenceLevel: 0.95,
      nResamples: 400,
      low: 171.95108727208503,
      high: 237.57350937536575,
      statistic: 203.12143555889594,
      standardError: 16.937395973504643,
      bca: { z0: 0.01253346950806924, acceleration: 0.003352163499059496, levels: [0.027286118535180037, 0.9771503500151926] },
    });
  });

  test("each result equals bootstrapCi of that statistic alone, with its own number of resamples", () => {
    for (const seed of [1, 2, 3]) {
      for (const method of ["percentile", "basic", "bca"] as const) {
        // One sample (and two unpaired samples): statistics with different resample counts.
        const single = [
          { statistic: mean, nResamples: 300 },
          { statistic: max, nResamples: 120 },
          { statistic: (a: Float64Array) => (a[0] === a[1] ? null : a[0] - a[1]) },
        ];
        const together = bootstrapCis([x], single, { seed, method, nResamples: 200 });
        single.forEach((s, k) => expect(together[k]).toEqual(bootstrapCi([x], s.statistic, { seed, method, nResamples: s.nResamples ?? 200 })));
        const unpaired = [
          { statistic: (a: Float64Array, b: Float64Array) => mean(a) - mean(b), nResamples: 150 },
          { statistic: (a: Float64Array, b: Float64Array) => max(a) - max(b), nResamples: 90 },
        ];
        const both = bootstrapCis([x, y], unpaired, { seed, method });
        unpaired.forEach((s, k) => expect(both[k]).toEqual(bootstrapCi([x, y], s.statistic, { seed, method, nResamples: s.nResamples })));
        // Paired, with a statistic that is often undefined and one defined everywhere.
        const paired = [{ statistic: rho, nResamples: 100 }, { statistic: dot }];
        const pairs = bootstrapCis([[1, 1, 1, 2, 3], [1, 2, 3, 4, 4]], paired, { seed, method, paired: true, nResamples: 60 });
        paired.forEach((s, k) => expect(pairs[k]).toEqual(bootstrapCi([[1, 1, 1, 2, 3], [1, 2, 3, 4, 4]], s.statistic, { seed, method, paired: true, nResamples: s.nResamples ?? 60 })));
      }
    }
  });

  test("explicit resamples apply to every statistic; too few observations or resamples give reasons", () => {
    const rows = [
      [0, 0, 1, 2],
      [3, 2, 1, 1],
      [2, 2, 2, 0],
    ];
    const data = [0.5, 0.1, 0.9, 0.3];
    const r = bootstrapCis([data], [{ statistic: mean, nResamples: 50 }, { statistic: max }], { resampleIndices: rows });
    expect(r.map((c) => c.nResamples)).toEqual([3, 3]);
    expect(r[0]).toEqual(bootstrapCi([data], mean, { resampleIndices: rows }));
    expect(bootstrapCis([data], [{ statistic: mean, nResamples: 1 }, { statistic: max, nResamples: 10 }])[0].reason).toMatch(/at least 2 resamples/);
    expect(bootstrapCis([[1]], [{ statistic: mean }, { statistic: max }]).map((c) => c.reason)).toEqual([expect.stringMatching(/at least 2/), expect.stringMatching(/at least 2/)]);
  });
});

describe("bootstrapCisPrepared: statistics of one prepared value per resample", () => {
  const random = seededRandom(21);
  const x = Array.from({ length: 30 }, () => random());

  test("prepare runs once per resample (and once on the data); each result equals bootstrapCi of statistic∘prepare", () => {
    for (const method of ["percentile", "bca"] as const) {
      let calls = 0;
      const sums = { total: 0, squares: 0, n: 0 };
      const prepare = (s: Float64Array) => {
        calls++;
        sums.total = s.reduce((a, v) => a + v, 0);
        sums.squares = s.reduce((a, v) => a + v * v, 0);
        sums.n = s.length;
        return sums;
      };
      const meanOf = (p: typeof sums) => p.total / p.n;
      const varianceOf = (p: typeof sums) => p.squares / p.n - (p.total / p.n) ** 2;
      const results = bootstrapCisPrepared([x], prepare, [{ statistic: meanOf, nResamples: 120 }, { statistic: varianceOf, nResamples: 80 }], { seed: 4, method });
      if (method === "percentile") expect(calls).toBe(1 + 120);
      expect(results[0]).toEqual(bootstrapCi([x], (s) => meanOf(prepare(s)), { seed: 4, method, nResamples: 120 }));
      expect(results[1]).toEqual(bootstrapCi([x], (s) => varianceOf(prepare(s)), { seed: 4, method, nResamples: 80 }));
    }
  });
});
