import { describe, expect, test } from "vitest";
import {
  type AgreementResult,
  cohenKappa,
  fleissKappa,
  gwetAc,
  krippendorffAlpha,
  type Level,
  percentAgreement,
  perItemAgreement,
  type Rating,
  ratingsFromMatrix,
} from "@/lib/agreement";

const LEVELS = ["nominal", "ordinal", "interval", "ratio"] as const;

/** Every multi-rater coefficient on one input. */
function all(ratings: Rating[]): Record<"percent" | "fleiss" | "gwet" | Level, AgreementResult> {
  const alpha = (level: Level) => krippendorffAlpha(ratings, { level });
  return {
    percent: percentAgreement(ratings),
    fleiss: fleissKappa(ratings),
    gwet: gwetAc(ratings),
    nominal: alpha("nominal"),
    ordinal: alpha("ordinal"),
    interval: alpha("interval"),
    ratio: alpha("ratio"),
  };
}

/** No coefficient may be NaN: either a finite value, or null with a reason. */
function expectDefinedOrExplained(results: Record<string, { value: number | null; reason?: string }>) {
  for (const [name, r] of Object.entries(results)) {
    if (r.value === null) expect(r.reason, name).toMatch(/\w/);
    else expect(Number.isFinite(r.value), name).toBe(true);
  }
}

describe("degenerate inputs give defined values or null with a reason, never NaN", () => {
  test("empty input", () => {
    const r = all([]);
    expectDefinedOrExplained(r);
    for (const x of Object.values(r)) expect(x).toMatchObject({ value: null, reason: "no ratings", n: 0 });
    expect(perItemAgreement([])).toEqual([]);
  });

  test("one rater", () => {
    const ratings = ratingsFromMatrix([[1], [2], [3]], { rows: "units" });
    for (const x of Object.values(all(ratings))) expect(x).toMatchObject({ value: null, reason: "only one rater, so no item has two ratings" });
    expect(cohenKappa(ratings)).toMatchObject({ value: null, n: 0, reason: "Cohen's kappa needs two raters; the data has 1" });
    expect(cohenKappa(ratings, { raters: ["1", "2"] })).toMatchObject({ value: null, reason: "rater 2 has no ratings" });
  });

  test("two raters who never rate the same item", () => {
    const ratings = ratingsFromMatrix([[1, null], [null, 2]], { rows: "units" });
    for (const x of Object.values(all(ratings))) expect(x).toMatchObject({ value: null, reason: "no item has two or more ratings" });
    expect(cohenKappa(ratings)).toMatchObject({ value: null, n: 0, reason: expect.stringMatching(/no item in common/) });
  });

  test("all raters identical on varied items: perfect agreement everywhere", () => {
    const ratings = ratingsFromMatrix([[1, 1, 1], [2, 2, 2], [3, 3, 3], [5, 5, 5]], { rows: "units" });
    const r = all(ratings);
    for (const x of Object.values(r)) expect(x.value).toBeCloseTo(1, 12);
    expect(cohenKappa(ratingsFromMatrix([[1, 1], [2, 2], [3, 3]], { rows: "units" }), { weights: "quadratic" }).value).toBeCloseTo(1, 12);
  });

  test("all values identical: only percent agreement and Gwet (with a declared scale) are defined", () => {
    const ratings = ratingsFromMatrix([[4, 4], [4, 4], [4, 4]], { rows: "units" });
    const r = all(ratings);
    expectDefinedOrExplained(r);
    expect(r.percent.value).toBe(1);
    expect(r.fleiss).toMatchObject({ value: null, reason: expect.stringMatching(/one category/) });
    expect(r.gwet).toMatchObject({ value: null, reason: expect.stringMatching(/only one category/) });
    for (const level of LEVELS) expect(r[level]).toMatchObject({ value: null, reason: expect.stringMatching(/same value/) });
    expect(cohenKappa(ratings)).toMatchObject({ value: null, reason: expect.stringMatching(/one and the same category/) });
    // With the scale declared, AC1 is 1 (κ is NaN but AC1 = 1).
    expect(gwetAc(ratings, { scale: [1, 2, 3, 4, 5] })).toMatchObject({ value: 1, pa: 1, pe: 0 });
  });

  test("ties everywhere: one constant rater gives Cohen's κ = 0 (sklearn)", () => {
    const ratings = ratingsFromMatrix([[3, 1], [3, 2], [3, 3], [3, 1]], { rows: "units" });
    expect(cohenKappa(ratings).value).toBe(0);
    expectDefinedOrExplained(all(ratings));
  });

  test("items with a single rating are ignored by alpha but counted in Gwet's π", () => {
    const base = ratingsFromMatrix([[1, 2], [2, 2], [3, 3]], { rows: "units" });
    const extra = [...base, { item: "lonely", rater: "1", value: 5 }];
    expect(krippendorffAlpha(extra, { level: "interval", scale: [1, 2, 3, 5] }).value).toBeCloseTo(
      krippendorffAlpha(base, { level: "interval", scale: [1, 2, 3, 5] }).value as number,
      14,
    );
    expect(gwetAc(extra).pe).not.toBeCloseTo(gwetAc(base).pe as number, 6);
  });

  test("per-item agreement explains single ratings and reports the spread", () => {
    const items = perItemAgreement(ratingsFromMatrix([[1, 1, 2], [4, null, null]], { rows: "units" }));
    expect(items[0]).toMatchObject({ item: "1", n: 3, range: 1 });
    expect(items[0].agreement).toBeCloseTo(1 / 3, 15);
    expect(items[0].ratings).toEqual([
      { rater: "1", value: 1 },
      { rater: "2", value: 1 },
      { rater: "3", value: 2 },
    ]);
    expect(items[1]).toMatchObject({ item: "2", n: 1, agreement: null, reason: "fewer than two ratings", range: 0 });
  });
});

describe("input validation", () => {
  test("duplicate (item, rater), mixed types and off-scale values throw", () => {
    const dup: Rating[] = [
      { item: "a", rater: "x", value: 1 },
      { item: "a", rater: "x", value: 2 },
    ];
    expect(() => percentAgreement(dup)).toThrow(/more than once/);
    const mixed: Rating[] = [
      { item: "a", rater: "x", value: 1 },
      { item: "a", rater: "y", value: "1" },
    ];
    expect(() => percentAgreement(mixed)).toThrow(/mixes numbers and strings/);
    expect(() => percentAgreement([{ item: "a", rater: "x", value: 7 }], { scale: [1, 2, 3] })).toThrow(/not on the declared scale/);
    expect(() => percentAgreement([{ item: "a", rater: "x", value: Number.NaN }])).toThrow(/non-finite/);
  });

  test("interval and ratio alpha need numeric ratings; ordinal labels need a declared order", () => {
    const labels = ratingsFromMatrix([["low", "high"], ["mid", "mid"], ["high", "high"]], { rows: "units" });
    expect(() => krippendorffAlpha(labels, { level: "interval" })).toThrow(/numeric/);
    expect(krippendorffAlpha(labels, { level: "nominal" }).value).not.toBeNull();
    const ordered = krippendorffAlpha(labels, { level: "ordinal", scale: ["low", "mid", "high"] });
    const lexicographic = krippendorffAlpha(labels, { level: "ordinal" });
    expect(ordered.value).not.toBeCloseTo(lexicographic.value as number, 6);
  });
});
