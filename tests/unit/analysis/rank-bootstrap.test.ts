import { describe, expect, test } from "vitest";
import { affordableResamples, bootstrapSettings, multiplicities, resampleKendall, resampleSpearman, sortPairs, type SortedPairs } from "@/lib/analysis";
import { kendallTauB, seededRandom, spearman } from "@/lib/stats";

describe("rank correlations of bootstrap resamples from multiplicities", () => {
  const random = seededRandom(11);
  const cases = [
    // continuous, heavy ties (Likert means), and all-tied x in small resamples
    { x: Array.from({ length: 300 }, () => random()), y: Array.from({ length: 300 }, () => random()) },
    { x: Array.from({ length: 500 }, () => Math.floor(random() * 6)), y: Array.from({ length: 500 }, () => 1 + Math.floor(random() * 9) / 2) },
    { x: [1, 1, 1, 2], y: [3, 1, 2, 2] },
  ];

  test("equal lib/stats' spearman and kendallTauB on the materialised resample", () => {
    for (const { x, y } of cases) {
      const fx = Float64Array.from(x);
      const fy = Float64Array.from(y);
      const pairs = sortPairs(fx, fy);
      for (let b = 0; b < 50; b++) {
        const picks = Array.from({ length: x.length }, () => Math.floor(random() * x.length));
        const counts = multiplicities(picks, x.length);
        const rx = picks.map((i) => x[i]);
        const ry = picks.map((i) => y[i]);
        const rho = spearman(rx, ry).statistic;
        const tau = kendallTauB(rx, ry).statistic;
        const mine = [resampleSpearman(pairs, counts), resampleKendall(pairs, counts)];
        if (rho === null) expect(mine[0]).toBeNull();
        else expect(mine[0]).toBeCloseTo(rho, 12);
        if (tau === null) expect(mine[1]).toBeNull();
        else expect(mine[1]).toBeCloseTo(tau, 12);
      }
    }
  });

  test("Spearman's ρ from per-level mid-ranks equals the rank-per-pair computation to the last bit", () => {
    // The computation as first written: mid-ranks written to every pair in sorted order.
    const reference = (pairs: SortedPairs, counts: Float64Array): number | null => {
      const ranks = (order: Uint32Array, starts: Uint8Array, into: Float64Array) => {
        let below = 0;
        for (let k = 0; k < order.length; ) {
          let end = k + 1;
          while (end < order.length && !starts[end]) end++;
          let group = 0;
          for (let j = k; j < end; j++) group += counts[order[j]];
          for (let j = k; j < end; j++) into[order[j]] = below + (group + 1) / 2;
          below += group;
          k = end;
        }
        return below;
      };
      const rx = new Float64Array(pairs.n);
      const ry = new Float64Array(pairs.n);
      const mean = (ranks(pairs.byX, pairs.xStarts, rx) + 1) / 2;
      ranks(pairs.byY, pairs.yStarts, ry);
      let sxx = 0;
      let syy = 0;
      let sxy = 0;
      for (let i = 0; i < pairs.n; i++) {
        const c = counts[i];
        if (c === 0) continue;
        sxx += c * (rx[i] - mean) * (rx[i] - mean);
        syy += c * (ry[i] - mean) * (ry[i] - mean);
        sxy += c * (rx[i] - mean) * (ry[i] - mean);
      }
      return sxx === 0 || syy === 0 ? null : Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
    };
    for (const { x, y } of cases) {
      const pairs = sortPairs(Float64Array.from(x), Float64Array.from(y));
      for (let b = 0; b < 50; b++) {
        const counts = multiplicities(Array.from({ length: x.length }, () => Math.floor(random() * x.length)), x.length);
        expect(Object.is(resampleSpearman(pairs, counts), reference(pairs, counts))).toBe(true);
      }
    }
  });

  test("Kendall's τ_b equals the two-query Fenwick computation to the last bit", () => {
    // The computation as first written: weight at or below a level read from the tree.
    const reference = (pairs: SortedPairs, counts: Float64Array): number | null => {
      const tree = new Float64Array(pairs.yLevels + 1);
      const prefix = (level: number) => {
        let s = 0;
        for (let i = level; i > 0; i -= i & -i) s += tree[i];
        return s;
      };
      const ties = (order: Uint32Array, starts: Uint8Array) => {
        let tied = 0;
        let group = 0;
        for (let k = 0; k < order.length; k++) {
          if (starts[k]) {
            tied += (group * (group - 1)) / 2;
            group = 0;
          }
          group += counts[order[k]];
        }
        return tied + (group * (group - 1)) / 2;
      };
      let pMinusQ = 0;
      let added = 0;
      for (let k = 0; k < pairs.n; ) {
        let end = k + 1;
        while (end < pairs.n && !pairs.xStarts[end]) end++;
        for (let j = k; j < end; j++) {
          const c = counts[pairs.byX[j]];
          if (c > 0) pMinusQ += c * (prefix(pairs.yDense[pairs.byX[j]] - 1) - (added - prefix(pairs.yDense[pairs.byX[j]])));
        }
        for (let j = k; j < end; j++) {
          const c = counts[pairs.byX[j]];
          if (c === 0) continue;
          for (let i = pairs.yDense[pairs.byX[j]]; i < tree.length; i += i & -i) tree[i] += c;
          added += c;
        }
        k = end;
      }
      const n0 = (added * (added - 1)) / 2;
      const xTies = ties(pairs.byX, pairs.xStarts);
      const yTies = ties(pairs.byY, pairs.yStarts);
      return n0 === xTies || n0 === yTies ? null : Math.max(-1, Math.min(1, pMinusQ / Math.sqrt(n0 - xTies) / Math.sqrt(n0 - yTies)));
    };
    for (const { x, y } of cases) {
      const pairs = sortPairs(Float64Array.from(x), Float64Array.from(y));
      for (let b = 0; b < 50; b++) {
        const counts = multiplicities(Array.from({ length: x.length }, () => Math.floor(random() * x.length)), x.length);
        expect(Object.is(resampleKendall(pairs, counts), reference(pairs, counts))).toBe(true);
      }
    }
  });

  test("the identity resample gives the statistics of the data", () => {
    const { x, y } = cases[1];
    const pairs = sortPairs(Float64Array.from(x), Float64Array.from(y));
    const counts = new Float64Array(x.length).fill(1);
    expect(resampleSpearman(pairs, counts)).toBeCloseTo(spearman(x, y).statistic as number, 13);
    expect(resampleKendall(pairs, counts)).toBeCloseTo(kendallTauB(x, y).statistic as number, 13);
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
