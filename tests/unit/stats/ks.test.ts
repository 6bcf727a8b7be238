import { describe, expect, test } from "vitest";
import { ks2samp } from "@/lib/stats";
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
