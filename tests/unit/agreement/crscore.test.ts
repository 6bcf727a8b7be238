import { describe, expect, test } from "vitest";
import { cohenKappa, type Rating } from "@/lib/agreement";
import { hasPhase1, readClaimSheet } from "../claims/crscore-phase1";

describe.skipIf(!hasPhase1)("CRScore phase 1: claim-accuracy agreement between the two annotators", () => {
  test("Cohen's kappa over the last 100 rows is 0.8043 (observed 0.900, expected 0.4889; paper 0.804)", () => {
    const ratings: Rating[] = [];
    for (const annotator of ["marcus", "atharva"] as const) {
      readClaimSheet(annotator)
        .slice(395, 495)
        .forEach((row, i) => {
          if (row.code !== null) ratings.push({ item: String(395 + i), rater: annotator, value: row.code });
        });
    }
    const r = cohenKappa(ratings, { raters: ["marcus", "atharva"] });
    expect(r.n).toBe(100);
    expect((r.value as number).toFixed(4)).toBe("0.8043");
    expect((r.observedAgreement as number).toFixed(3)).toBe("0.900");
    expect((r.expectedAgreement as number).toFixed(4)).toBe("0.4889");
    // Both annotators used exactly the codes {-2, -1, 0, 1} there.
    expect(new Set(ratings.map((x) => x.value))).toEqual(new Set([-2, -1, 0, 1]));
  });
});
