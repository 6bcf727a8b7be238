/**
 * Judges against humans (lib/analysis/judge-agreement.ts) on a worked example small enough to
 * compute by hand: three annotators A, B, C and a judge J answer a yes/no question on six items.
 *
 *        item  1  2  3  4  5  6
 *        A     y  y  n  n  y  n
 *        B     y  n  n  n  y  y
 *        C     y  y  n  y  y  n
 *        J     y  y  n  n  n  n
 *
 * Unweighted Cohen's κ = (p_o − p_e) / (1 − p_e), p_e from the two raters' marginals:
 *   A–B: agree on 1, 3, 4, 5: p_o = 4/6; yes rates 3/6, 3/6: p_e = 1/2; κ = (2/3 − 1/2)/(1/2) = 1/3
 *   A–C: agree on 1, 2, 3, 5, 6: p_o = 5/6; yes 3/6, 4/6: p_e = 3/6·4/6 + 3/6·2/6 = 1/2; κ = 2/3
 *   B–C: agree on 1, 3, 5: p_o = 1/2; yes 3/6, 4/6: p_e = 1/2; κ = 0
 *   Human–Human: min 0, max 2/3, mean (1/3 + 2/3 + 0)/3 = 1/3
 *   A–J: agree on 1, 2, 3, 4, 6: p_o = 5/6; yes 3/6, 2/6: p_e = 1/2; κ = 2/3
 *   B–J: agree on 1, 3, 4: p_o = 1/2; p_e = 1/2; κ = 0
 *   C–J: agree on 1, 2, 3, 6: p_o = 4/6; yes 4/6, 2/6: p_e = 8/36 + 8/36 = 4/9; κ = (2/3 − 4/9)/(5/9) = 2/5
 *   Human–Judge mean: (2/3 + 0 + 2/5)/3 = 16/45
 * The majority of A, B, C (the consensus) is y y n n y n; J agrees on 5 of 6 (accuracy 5/6),
 * says yes on 1 and 2 (both consensus yes: TP 2, FP 0) and no on 5 (FN 1): precision 1,
 * recall 2/3, F1 = 2·2/(2·2 + 0 + 1) = 4/5.
 */
import { describe, expect, test } from "vitest";
import { buildAnswerTable, type Rating } from "@/lib/agreement";
import { judgeAgreement } from "@/lib/analysis/judge-agreement";
import { bootstrapSettings } from "@/lib/analysis/resample";

const ANSWERS: Record<string, string> = { A: "yynnyn", B: "ynnnyy", C: "yynyyn", J: "yynnnn" };
const ratings: Rating[] = Object.entries(ANSWERS).flatMap(([rater, answers]) => [...answers].map((a, i) => ({ item: `i${i + 1}`, rater, value: a === "y" ? "yes" : "no" })));
const table = buildAnswerTable(ratings, { scale: ["no", "yes"] });
const names = new Map([["J", "judge:j"]]);
const consensus = new Map([..."yynnyn"].map((a, i) => [`i${i + 1}`, a === "y" ? 1 : 0]));

describe("judges against humans, the SWE-Judge way", () => {
  const report = judgeAgreement(table, new Set(["J"]), names, consensus, { weights: "unweighted", bootstrap: bootstrapSettings({ nResamples: 200, seed: 3 }) });

  test("Human–Human: every annotator pair's κ, with min, max and mean", () => {
    expect(report.humanHuman.pairs.map((p) => [p.raters[0].id, p.raters[1].id, p.value, p.n])).toEqual([
      ["A", "B", expect.closeTo(1 / 3, 12), 6],
      ["A", "C", expect.closeTo(2 / 3, 12), 6],
      ["B", "C", expect.closeTo(0, 12), 6],
    ]);
    expect(report.humanHuman.min).toBeCloseTo(0, 12);
    expect(report.humanHuman.max).toBeCloseTo(2 / 3, 12);
    expect(report.humanHuman.mean).toBeCloseTo(1 / 3, 12);
  });

  test("Human–Judge: the judge's κ with each annotator and their mean, with a bootstrap CI around it", () => {
    const j = report.humanJudge["judge:j"];
    expect(j.perAnnotator.map((p) => [p.rater.id, p.value])).toEqual([
      ["A", expect.closeTo(2 / 3, 12)],
      ["B", expect.closeTo(0, 12)],
      ["C", expect.closeTo(2 / 5, 12)],
    ]);
    expect(j.mean).toBeCloseTo(16 / 45, 12);
    expect(j.ci).toMatchObject({ nResamples: 200 });
    expect(j.ci!.low!).toBeLessThan(16 / 45);
    expect(j.ci!.high!).toBeGreaterThan(16 / 45);
    // The judge is no annotator of Human–Human.
    expect(report.humanHuman.pairs.some((p) => p.raters.some((r) => r.id === "J"))).toBe(false);
  });

  test("against the consensus: accuracy, and for the binary question precision, recall and F1 of yes", () => {
    const c = report.againstConsensus["judge:j"];
    expect(c).toMatchObject({ items: 6, positive: "yes", accuracy: { value: 5 / 6, n: 6 }, precision: { value: 1, n: 2 }, recall: { value: 2 / 3, n: 3 } });
    expect(c.f1!.value).toBeCloseTo(4 / 5, 12);
    expect(c.accuracy.ci![0]).toBeLessThan(5 / 6);
    // F1 is undefined on a resample where neither says yes: the interval is then withheld, naming how often.
    const ci = c.f1!.ci!;
    if (ci.low === null) expect(ci.reason).toMatch(/undefined on \d+ of 200 resamples/);
    else {
      expect(ci.low).toBeLessThanOrEqual(4 / 5);
      expect(ci.high).toBeGreaterThanOrEqual(4 / 5);
    }
  });

  test("quadratic weights on request: A 0 1 2 2 and J 0 2 2 1 on a 0-2 scale", () => {
    // O: (0,0) (1,2) (2,2) (2,1): Σ w O = 0 + 1 + 0 + 1 = 2 with w = (i − j)²; both marginals 1, 1, 2 of 4:
    // Σ w E = (1·1·1 + 4·1·2 + 1·1·1 + 1·1·2 + 4·2·1 + 1·2·1)/4 = 22/4; κ = 1 − 2/(22/4) = 7/11.
    // Unweighted: p_o = 2/4, p_e = (1 + 1 + 4)/16 = 3/8, κ = (1/2 − 3/8)/(5/8) = 1/5.
    const ordinal = buildAnswerTable([..."0122"].flatMap((a, i) => [{ item: `i${i}`, rater: "A", value: Number(a) }, { item: `i${i}`, rater: "J", value: Number("0221"[i]) }]), { scale: [0, 1, 2] });
    const of = (weights: "quadratic" | "unweighted") => judgeAgreement(ordinal, new Set(["J"]), new Map(), new Map(), { weights, bootstrap: null }).humanJudge.J;
    expect(of("quadratic").mean).toBeCloseTo(7 / 11, 12);
    expect(of("unweighted").mean).toBeCloseTo(1 / 5, 12);
    expect(of("quadratic").ci).toBeNull();
  });
});

describe("undefined figures say why", () => {
  test("one annotator: no Human–Human pair; a judge sharing no item with the annotator: no Human–Judge κ; no consensus: no accuracy", () => {
    // A rated items 1-2, the judge items 3-4; no consensus answers at all.
    const apart = buildAnswerTable(
      [
        { item: "i1", rater: "A", value: "yes" },
        { item: "i2", rater: "A", value: "no" },
        { item: "i3", rater: "J", value: "yes" },
        { item: "i4", rater: "J", value: "no" },
      ],
      { scale: ["no", "yes"] },
    );
    const r = judgeAgreement(apart, new Set(["J"]), names, new Map(), { weights: "unweighted", bootstrap: null });
    expect(r.humanHuman).toMatchObject({ min: null, max: null, mean: null, reason: "one annotator: no pair of annotators to compare" });
    expect(r.humanJudge["judge:j"]).toMatchObject({ mean: null, perAnnotator: [], reason: "no annotator rated an item the judge answered" });
    const c = r.againstConsensus["judge:j"];
    expect(c).toMatchObject({ items: 0, reason: "no item the judge answered has a consensus answer", accuracy: { value: null, reason: "no item the judge answered has a consensus answer" } });
    expect(c.f1).toMatchObject({ value: null, reason: "no item the judge answered has a consensus answer" });
  });

  test("a judge that never says yes has no precision, named; the defined figures carry no reason", () => {
    const never = judgeAgreement(buildAnswerTable([..."yn"].flatMap((a, i) => [{ item: `i${i}`, rater: "A", value: a === "y" ? "yes" : "no" }, { item: `i${i}`, rater: "J", value: "no" }]), { scale: ["no", "yes"] }), new Set(["J"]), names, new Map([["i0", 1], ["i1", 0]]), { weights: "unweighted", bootstrap: null });
    const c = never.againstConsensus["judge:j"];
    expect(c.precision).toMatchObject({ value: null, n: 0, reason: "the judge never answered yes" });
    expect(c.recall).toMatchObject({ value: 0, n: 1 });
    expect(c.recall!.reason).toBeUndefined();
    expect(c.reason).toBeUndefined();
    const worked = judgeAgreement(table, new Set(["J"]), names, consensus, { weights: "unweighted", bootstrap: null });
    expect(worked.humanHuman.reason).toBeUndefined();
    expect(worked.humanJudge["judge:j"].reason).toBeUndefined();
  });
});
