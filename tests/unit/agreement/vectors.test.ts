import { describe, expect, test } from "vitest";
import {
  cohenKappa,
  fleissKappa,
  fleissKappaFromCounts,
  gwetAc,
  krippendorffAlpha,
  type Level,
  percentAgreement,
  ratingsFromMatrix,
  type AnswerValue,
  type WeightScheme,
} from "@/lib/agreement";
import { expectValue, hasVectors, vectorGroup } from "../stats/reference-vectors";

type Matrix = (AnswerValue | null)[][];
const label = (note: string | undefined) => note ?? "";

describe.skipIf(!hasVectors)("cohen_kappa_sklearn vectors", () => {
  type E = Record<"unweighted" | "linear" | "quadratic", number | null>;
  test.each(vectorGroup<{ y1: AnswerValue[]; y2: AnswerValue[] }, E>("cohen_kappa_sklearn").map((v) => [label(v.note), v] as const))("%s", (_n, v) => {
    const ratings = ratingsFromMatrix(v.input.y1.map((a, i) => [a, v.input.y2[i]]), { rows: "units" });
    for (const weights of ["unweighted", "linear", "quadratic"] as const) {
      const r = cohenKappa(ratings, { weights });
      expectValue(r.value, v.expected[weights]);
      expect(r.n).toBe(v.input.y1.length);
      if (v.expected[weights] === null) expect(r.reason).toMatch(/one and the same category/);
    }
  });
});

describe.skipIf(!hasVectors)("fleiss_kappa_statsmodels vectors", () => {
  type I = { table?: number[][]; raw_subjects_x_raters?: number[][]; table_from_aggregate_raters?: number[][] };
  test.each(vectorGroup<I, { fleiss: number | null; randolph: number }>("fleiss_kappa_statsmodels").map((v) => [label(v.note), v] as const))("%s", (_n, v) => {
    const table = v.input.table ?? (v.input.table_from_aggregate_raters as number[][]);
    expectValue(fleissKappaFromCounts(table).value, v.expected.fleiss);
    expectValue(fleissKappaFromCounts(table, { method: "randolph" }).value, v.expected.randolph);
    if (v.input.raw_subjects_x_raters) {
      // The same data as raw ratings (aggregate_raters maps the observed values to columns).
      const ratings = ratingsFromMatrix(v.input.raw_subjects_x_raters, { rows: "units" });
      expectValue(fleissKappa(ratings).value, v.expected.fleiss);
      expectValue(fleissKappa(ratings, { method: "randolph" }).value, v.expected.randolph);
    }
    if (v.expected.fleiss === null) expect(fleissKappaFromCounts(table).reason).toMatch(/one category/);
  });
});

describe.skipIf(!hasVectors)("krippendorff_alpha vectors", () => {
  type E = Record<Level, number | null>;
  const vectors = vectorGroup<{ reliability_data: Matrix }, E>("krippendorff_alpha");
  test.each(vectors.map((v) => [label(v.note), v] as const))("%s", (_n, v) => {
    const ratings = ratingsFromMatrix(v.input.reliability_data, { rows: "raters" });
    for (const level of ["nominal", "ordinal", "interval", "ratio"] as const) {
      const r = krippendorffAlpha(ratings, { level });
      expectValue(r.value, v.expected[level]);
      if (v.expected[level] === null) expect(r.reason).toMatch(/same value/);
    }
  });

  test("Krippendorff's canonical 4 coders × 12 units reproduces the published 0.743 / 0.815 / 0.849 / 0.797", () => {
    const ratings = ratingsFromMatrix(vectors[0].input.reliability_data, { rows: "raters" });
    const published: Record<Level, number> = { nominal: 0.743, ordinal: 0.815, interval: 0.849, ratio: 0.797 };
    for (const level of ["nominal", "ordinal", "interval", "ratio"] as const) {
      const r = krippendorffAlpha(ratings, { level });
      expect((r.value as number).toFixed(3)).toBe(published[level].toFixed(3));
      // Unit 12 has a single rating and is not pairable: 11 units, 40 pairable values.
      expect(r).toMatchObject({ n: 11, pairableValues: 40 });
    }
  });
});

describe.skipIf(!hasVectors)("gwet_ac vectors", () => {
  type I = { ratings_units_x_raters: Matrix; categories: number[]; weights: "identity" | "linear" | "quadratic" };
  type E = { coefficient: number; pa: number; pe: number; se?: number; name?: "AC1" | "AC2"; cohen_kappa_same_data?: number };
  test.each(vectorGroup<I, E>("gwet_ac").map((v) => [`${label(v.note)} (${v.input.weights})`, v] as const))("%s", (_n, v) => {
    const ratings = ratingsFromMatrix(v.input.ratings_units_x_raters, { rows: "units" });
    const weights: WeightScheme = v.input.weights === "identity" ? "unweighted" : v.input.weights;
    const r = gwetAc(ratings, { scale: v.input.categories, weights });
    expectValue(r.value, v.expected.coefficient);
    expectValue(r.pa, v.expected.pa);
    expectValue(r.pe, v.expected.pe);
    if (v.expected.se !== undefined) expectValue(r.standardError, v.expected.se);
    if (v.expected.name) expect(r.name).toBe(v.expected.name);
    if (v.expected.cohen_kappa_same_data !== undefined) expectValue(cohenKappa(ratings).value, v.expected.cohen_kappa_same_data);
  });
});

describe.skipIf(!hasVectors)("Fleiss' kappa with missing ratings (irrCAC generalisation)", () => {
  test("the irrCAC docstring example (Krippendorff's 12 × 4 data): κ 0.76117, pa 0.81818, pe 0.23872", () => {
    const data = vectorGroup<{ ratings_units_x_raters: Matrix }>("gwet_ac")[0].input.ratings_units_x_raters;
    const r = fleissKappa(ratingsFromMatrix(data, { rows: "units" }));
    expect((r.value as number).toFixed(5)).toBe("0.76117");
    expect((r.pa as number).toFixed(5)).toBe("0.81818");
    expect((r.pe as number).toFixed(5)).toBe("0.23872");
    expect(r.n).toBe(11);
  });
});

describe.skipIf(!hasVectors)("percent_agreement vectors", () => {
  test.each(vectorGroup<{ ratings_units_x_raters: Matrix }, { pa: number }>("percent_agreement").map((v) => [label(v.note), v] as const))("%s", (_n, v) => {
    expectValue(percentAgreement(ratingsFromMatrix(v.input.ratings_units_x_raters, { rows: "units" })).value, v.expected.pa);
  });
});
