import { describe, expect, test } from "vitest";
import { getReferenceMetric, REFERENCE_METRICS, rougeL } from "@/lib/metrics";

const PAIRS: [candidate: string, reference: string][] = [
  ["", ""],
  ["", "Remove this unused import."],
  ["LGTM", ""],
  ["Why not use a HashMap here?", "Consider using a HashMap instead of a list here."],
  ["nit: typo", "Typo in the variable name"],
  ["abc", "xyz"],
  ["café 👍 résumé_v2", "cafe resume v2"],
];

describe("reference-metric registry", () => {
  test("lists the stable names once each, with distinct signatures", () => {
    expect(REFERENCE_METRICS.map((m) => m.name)).toEqual([
      "bleu-codereviewer",
      "bleu-nostop",
      "bleu-gradedreviews",
      "sacrebleu",
      "chrf",
      "chrfpp",
      "rouge-l",
      "rouge-l-stem",
      "meteor",
      "edit-distance",
      "exact-match",
    ]);
    expect(new Set(REFERENCE_METRICS.map((m) => m.signature)).size).toBe(REFERENCE_METRICS.length);
    for (const metric of REFERENCE_METRICS) expect(metric.signature).toMatch(/\|impl:\d+$/);
  });

  test("every score is a finite number inside the declared range", () => {
    for (const metric of REFERENCE_METRICS) {
      for (const [candidate, reference] of PAIRS) {
        const value = metric.score(candidate, reference);
        expect(Number.isFinite(value), `${metric.name}(${candidate}, ${reference})`).toBe(true);
        expect(value).toBeGreaterThanOrEqual(metric.range[0]);
        expect(value).toBeLessThanOrEqual(metric.range[1] + 1e-9);
      }
    }
  });

  test("identical texts get the best value (METEOR stays below 1 by design)", () => {
    const text = "Please add a null check before calling foo.bar().";
    for (const metric of REFERENCE_METRICS) {
      const value = metric.score(text, text);
      const best = metric.higherIsBetter ? metric.range[1] : metric.range[0];
      if (metric.name === "meteor") expect(value).toBeGreaterThan(0.99);
      else expect(value, metric.name).toBeCloseTo(best, 9);
    }
  });

  test("ROUGE entries pass the reference as rouge-score's target", () => {
    const metric = getReferenceMetric("rouge-l-stem");
    expect(metric?.score("tests fail", "the tests are failing")).toBe(
      rougeL("the tests are failing", "tests fail", { useStemmer: true }).fmeasure,
    );
    expect(getReferenceMetric("bleu")).toBeUndefined();
  });
});
