import { describe, expect, test } from "vitest";
import { type SystemScore, systemRankCorrelation } from "@/lib/stats";
import { expectPValue, expectValue } from "./reference-vectors";

// CRScore Table 10: per-system means of human relevance (normalised Likert) and Rel (τ_best).
const TABLE_10: [string, number, number][] = [
  ["BM-25 retriever", 0.0163, 0],
  ["LSTM", 0.0515, 0.0179],
  ["CodeReviewer", 0.2311, 0.2974],
  ["Stable-Code-3B", 0.1718, 0.2319],
  ["DeepSeekCoder-6.7B-Instruct", 0.3797, 0.4043],
  ["Magicoder-S-DS-6.7B", 0.3351, 0.4032],
  ["LLaMA-3-8B-Instruct", 0.4046, 0.3404],
  ["CodeLLaMA-13B", 0.1564, 0.2309],
  ["GPT-3.5", 0.4759, 0.5507],
];

/** Two reviews per system whose mean is the table value, so the averaging step is exercised. */
function perReview(column: 1 | 2): SystemScore[] {
  return TABLE_10.flatMap((row) => [
    { system: row[0], score: row[column] - 0.01 },
    { system: row[0], score: row[column] + 0.01 },
  ]);
}

describe("systemRankCorrelation", () => {
  test("reproduces CRScore Table 2 (Rel vs human relevance) from the Table 10 system means", () => {
    const r = systemRankCorrelation(perReview(1), perReview(2));
    expect(r.systems).toHaveLength(9);
    expect(r.systems[0]).toMatchObject({ system: "BM-25 retriever", nA: 2, nB: 2 });
    expect(r.systems[0].meanA).toBeCloseTo(0.0163, 12);
    // Paper: ρ 0.95 (p 8.7e-5), τ 0.8889 (p 2.4e-4); exact values from SciPy on the same means.
    expectValue(r.spearman.statistic, 0.95);
    expectPValue(r.spearman.pValue, 8.762523965086185e-5);
    expectValue(r.kendall.statistic, 0.8888888888888888);
    expectPValue(r.kendall.pValue, 0.00024250440917107584);
    expect(r.kendall.method).toBe("exact");
  });

  test("systems missing from one set are reported and left out", () => {
    const a = [...perReview(1), { system: "only-in-a", score: 1 }];
    const b = [...perReview(2), { system: "only-in-b", score: 0 }];
    const r = systemRankCorrelation(a, b);
    expect(r.unmatched).toEqual(["only-in-a", "only-in-b"]);
    expect(r.systems).toHaveLength(9);
  });

  test("fewer than two common systems: undefined correlations with reasons", () => {
    const r = systemRankCorrelation([{ system: "x", score: 1 }], [{ system: "x", score: 2 }]);
    expect(r.spearman).toMatchObject({ statistic: null, reason: expect.stringMatching(/at least 2/) });
    expect(r.kendall).toMatchObject({ statistic: null });
  });
});
