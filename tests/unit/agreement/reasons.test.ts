/**
 * Every undefined or degenerate coefficient of a report says why, as the rounds page, the
 * dashboards and the agreement CLI's JSON show it: undefined values a reason, defined values that
 * say little a note (one item; no two agreeing ratings; a constant rater's kappa of 0; a bootstrap
 * interval without width). Among them the round that showed "-1.0000 [-1.0000, -1.0000]": ten
 * items, each split between two annotators. That -1 is Fleiss' kappa, and correct (statsmodels'
 * formula); Krippendorff's alpha of the same ratings is -0.9, not -1.
 */
import { describe, expect, test } from "vitest";
import { buildAnswerTable, type Rating, type AnswerValue } from "@/lib/agreement";
import { coefficientReports, type CoefficientReport } from "@/lib/analysis/agreement-report";
import type { Question } from "@/lib/analysis/questions";
import { bootstrapSettings } from "@/lib/analysis/resample";
import { expectValue, hasVectors, vectorGroup } from "../stats/reference-vectors";

const grade: Question = { task: "REFERENCE_GRADING", key: "grade", label: "Grade", level: "ordinal", scale: [1, 2, 3, 4, 5], weights: "quadratic" };
const code: Question = { task: "CLAIM_VERIFICATION", key: "code", label: "Code", level: "nominal", scale: [1, 2, 3, 4], weights: "unweighted" };

/** Rows are items, columns raters ("A", "B", …); null = not rated. */
function reports(question: Question, rows: (AnswerValue | null)[][]): Map<string, CoefficientReport> {
  const ratings: Rating[] = rows.flatMap((row, i) => row.flatMap((value, r) => (value === null ? [] : [{ item: `i${i}`, rater: "ABCD"[r], value }])));
  const table = buildAnswerTable(ratings, { scale: question.scale });
  return new Map(coefficientReports(table, question, bootstrapSettings({ nResamples: 200 })).map((c) => [c.key, c]));
}

describe("the round of ten items each split between two annotators", () => {
  const split = Array.from({ length: 10 }, () => [1, 2]);
  const r = reports(grade, split);

  test("Fleiss' kappa is -1, as statsmodels computes it: mean P_i = 0, P_e = 0.5² + 0.5²", () => {
    const pBar = 0;
    const pe = 0.5 ** 2 + 0.5 ** 2;
    expect(r.get("fleiss")!.value).toBe((pBar - pe) / (1 - pe));
    expect(r.get("fleiss")!.value).toBe(-1);
  });

  test("Krippendorff's alpha is -0.9, not -1: 1 - (n-1)·Σo·δ / Σ n_c·n_k·δ with 20 pairable values", () => {
    // o_12 = o_21 = 10, n_1 = n_2 = 10, n = 20; with two categories every level gives the same alpha.
    const alpha = 1 - (19 * (10 + 10)) / (10 * 10 + 10 * 10);
    expect(alpha).toBeCloseTo(-0.9, 12);
    expect(r.get("alpha")!.value).toBeCloseTo(alpha, 12);
    expect(r.get("alpha-interval")!.value).toBeCloseTo(alpha, 12);
  });

  test("each says why the value says little: no agreeing ratings, and an interval without width", () => {
    for (const key of ["fleiss", "alpha", "cohen", "gwet"]) {
      const c = r.get(key)!;
      expect(c.ci!.low, key).toBe(c.ci!.high);
      expect(c.note, key).toContain("no item has two agreeing ratings");
      expect(c.note, key).toContain("every bootstrap resample gives this same value, so the interval shows no uncertainty");
    }
    // A's 1 and B's 2 throughout: Cohen's kappa is 0 whatever B did, and says so.
    expect(r.get("cohen")).toMatchObject({ value: 0, note: expect.stringContaining("A gave the same answer to every item, so kappa is 0 whatever B answered") });
    // Percent agreement 0 is its own statement; only its flat interval is noted.
    expect(r.get("percent")!.note).toBe("every bootstrap resample gives this same value, so the interval shows no uncertainty.");
  });
});

describe("undefined coefficients carry their reason, and no note", () => {
  test("one category observed: kappa and alpha are 0/0", () => {
    const r = reports(grade, Array.from({ length: 10 }, () => [3, 3]));
    expect(r.get("fleiss")).toMatchObject({ value: null, reason: "all ratings fall in one category, so chance agreement is 1 and kappa is undefined", ci: null });
    expect(r.get("alpha")).toMatchObject({ value: null, reason: expect.stringMatching(/same value, so expected disagreement is 0/) });
    expect(r.get("cohen")).toMatchObject({ value: null, reason: "both raters used one and the same category throughout, so kappa is 0/0" });
    for (const key of ["fleiss", "alpha", "cohen"]) expect(r.get(key)!.note, key).toBeUndefined();
  });

  test("no item rated twice: every multi-rater coefficient says so", () => {
    const r = reports(code, [
      [1, null],
      [null, 2],
    ]);
    for (const key of ["percent", "fleiss", "alpha", "gwet"]) expect(r.get(key), key).toMatchObject({ value: null, reason: "no item has two or more ratings" });
  });

  test.skipIf(!hasVectors)("the reference vector with one distinct value: alpha undefined, with the reason", () => {
    const vector = vectorGroup<{ reliability_data: (number | null)[][] }, Record<string, number | null>>("krippendorff_alpha").find((v) => v.expected.nominal === null)!;
    const r = reports(grade, ratingsMatrix(vector.input.reliability_data));
    expectValue(r.get("alpha")!.value, vector.expected.ordinal);
    expect(r.get("alpha")!.reason).toMatch(/expected disagreement is 0 and alpha is undefined/);
  });
});

describe("defined but degenerate, and sound", () => {
  test("a single item: noted", () => {
    const r = reports(grade, [[2, 4]]);
    expect(r.get("fleiss")!.note).toMatch(/^computed on a single item, so it says nothing about agreement in general/);
  });

  test.skipIf(!hasVectors)("sklearn's one constant rater: kappa 0 with the note naming the rater", () => {
    const vector = vectorGroup<{ y1: number[]; y2: number[] }, Record<string, number | null>>("cohen_kappa_sklearn").find((v) => /one rater constant/.test(v.note ?? ""))!;
    const r = reports(code, vector.input.y1.map((a, i) => [a, vector.input.y2[i]]));
    expectValue(r.get("cohen")!.value, vector.expected.unweighted);
    expect(r.get("cohen")!.note).toContain("A gave the same answer to every item, so kappa is 0 whatever B answered");
  });

  test.skipIf(!hasVectors)("Krippendorff's canonical example: values and no note", () => {
    const vector = vectorGroup<{ reliability_data: (number | null)[][] }, Record<string, number | null>>("krippendorff_alpha")[0];
    const r = reports(grade, ratingsMatrix(vector.input.reliability_data));
    expectValue(r.get("alpha")!.value, vector.expected.ordinal);
    expect([...r.values()].filter((c) => c.note !== undefined || c.reason !== undefined)).toEqual([]);
  });
});

/** Coders × units (the vectors' layout) as rows of items. */
function ratingsMatrix(codersByUnits: (number | null)[][]): (number | null)[][] {
  return Array.from({ length: codersByUnits[0].length }, (_, u) => codersByUnits.map((coder) => coder[u]));
}
