import { describe, expect, test } from "vitest";
import { claimQualityRates, countClaimCodes } from "@/lib/claims";
import { hasPhase1, readClaimSheet } from "./crscore-phase1";

describe.skipIf(!hasPhase1)("CRScore phase 1, Python (paper Table 1)", () => {
  // The data README: marcus labelled rows 0-494, atharva rows 246-494; the paper's figures
  // combine marcus for rows < 246 and atharva from row 246 on.
  const marcus = readClaimSheet("marcus");
  const atharva = readClaimSheet("atharva");
  const combined = [...marcus.slice(0, 246), ...atharva.slice(246)];

  test("the sheets have 495 claim rows each", () => {
    expect(marcus).toHaveLength(495);
    expect(atharva).toHaveLength(495);
  });

  test("accuracy 83.65 %, error rate 12.02 %, unverifiable rate 4.33 % over 416 claims", () => {
    const counts = countClaimCodes(combined.map((r) => r.code));
    expect(counts).toEqual({ correct: 348, incorrect: 50, unverifiable: 18, incomplete: 74, ambiguous: 1, unlabelled: 4 });
    const rates = claimQualityRates(counts, combined.filter((r) => r.added).length);
    expect(rates.judged).toBe(416);
    expect(((rates.accuracy as number) * 100).toFixed(2)).toBe("83.65");
    expect(((rates.errorRate as number) * 100).toFixed(2)).toBe("12.02");
    expect(((rates.unverifiableRate as number) * 100).toFixed(2)).toBe("4.33");
    // 24 rows carry an added or corrected claim: 24/416 = 5.77 %, the paper's missing rate.
    expect(((rates.missingRate as number) * 100).toFixed(2)).toBe("5.77");
  });
});

describe("claimQualityRates", () => {
  test("the three rates share one denominator and sum to 1", () => {
    const counts = countClaimCodes([1, 1, 1, 0, -1, -2, 2, null]);
    expect(counts).toEqual({ correct: 3, incorrect: 1, unverifiable: 1, incomplete: 1, ambiguous: 1, unlabelled: 1 });
    const r = claimQualityRates(counts, 2);
    expect(r).toEqual({ accuracy: 0.6, errorRate: 0.2, unverifiableRate: 0.2, missingRate: 0.4, judged: 5 });
  });

  test("no judged claim: null rates with a reason", () => {
    expect(claimQualityRates(countClaimCodes([]), 0)).toMatchObject({ accuracy: null, missingRate: null, judged: 0, reason: expect.stringMatching(/no claim/) });
    expect(claimQualityRates(countClaimCodes([-2, null]), 3)).toMatchObject({ accuracy: null, judged: 0 });
  });

  test("codes outside the codebook and bad added counts are rejected", () => {
    expect(() => countClaimCodes([3])).toThrow(/unknown claim judgement code 3/);
    expect(() => claimQualityRates(countClaimCodes([1]), -1)).toThrow(/non-negative/);
  });
});
