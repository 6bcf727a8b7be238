/**
 * The judge lab's rows (lib/analysis/judge-lab.ts): cost per 1,000 items of the requested
 * answers (none for a model without a price or a version served from the cache), and each row's
 * agreement taken from the agreement report's judges section: F1 on a binary question, else
 * accuracy, and why a figure is missing.
 */
import { describe, expect, test } from "vitest";
import { costPerThousandItems, judgeLabRows, type JudgeVersionStats } from "@/lib/analysis/judge-lab";
import type { AgreementReport } from "@/lib/analysis";
import type { JudgeAgreement } from "@/lib/analysis/judge-agreement";

const stats = (over: Partial<JudgeVersionStats>): JudgeVersionStats => ({
  task: "COMMENT_FILTERING",
  question: "high-quality",
  promptVersion: "a".repeat(64),
  preset: "",
  model: "gpt-4o-mini",
  rater: "judge:a",
  runs: 1,
  items: 10,
  answers: 9,
  parseFailures: 1,
  cached: 2,
  promptTokens: 8000,
  completionTokens: 800,
  costUsd: 0.002,
  latencyMedianMs: 300,
  latencyP95Ms: 900,
  ...over,
});

const judges = (binary: boolean): JudgeAgreement => ({
  method: "m",
  humanHuman: { min: 0.2, max: 0.6, mean: 0.4, pairs: [] },
  humanJudge: { "judge:a": { mean: 0.5, ci: { low: 0.3, high: 0.7, nResamples: 100 }, perAnnotator: [] }, "judge:lone": { mean: null, ci: null, perAnnotator: [], reason: "no annotator rated an item the judge answered" } },
  againstConsensus: {
    "judge:a": { items: 6, accuracy: { value: 5 / 6, n: 6, ci: [0.4, 0.97] }, ...(binary ? { positive: "yes", f1: { value: 0.8, ci: { low: 0.5, high: 1, nResamples: 100 } } } : {}) },
  },
});

const report = (binary: boolean) => ({ tasks: [{ task: "COMMENT_FILTERING", claimQuality: null, questions: [{ question: "high-quality", judges: judges(binary) }] }] }) as unknown as Pick<AgreementReport, "tasks">;

describe("cost per 1,000 items", () => {
  test("of the requested answers only: $0.002 over 10 − 2 cached items is $0.25 per 1,000", () => {
    expect(costPerThousandItems(stats({})).value).toBeCloseTo(0.25, 12);
  });
  test("a model without a price, a version served wholly from the cache: none, with why", () => {
    expect(costPerThousandItems(stats({ model: "local-llama" }))).toEqual({ value: null, note: "no price" });
    expect(costPerThousandItems(stats({ cached: 10, costUsd: 0 }))).toEqual({ value: null, note: "every answer came from the cache" });
  });
});

describe("the lab's rows", () => {
  test("the judge's mean κ with its CI beside the Human–Human mean, and F1 on a binary question", () => {
    const [row] = judgeLabRows([stats({})], report(true));
    expect(row).toMatchObject({ kappa: 0.5, kappaCi: { low: 0.3, high: 0.7 }, humanHuman: 0.4, versusConsensus: { measure: "F1", value: 0.8, ci: [0.5, 1], items: 6 }, notes: [] });
    expect(row.costPerThousand).toBeCloseTo(0.25, 12);
  });
  test("accuracy on a question with more answers; a judge with no annotator to compare and a question outside the report say why", () => {
    expect(judgeLabRows([stats({})], report(false))[0].versusConsensus).toEqual({ measure: "accuracy", value: 5 / 6, ci: [0.4, 0.97], items: 6 });
    expect(judgeLabRows([stats({ rater: "judge:lone" })], report(true))[0]).toMatchObject({ kappa: null, versusConsensus: null, notes: ["no annotator rated an item the judge answered"] });
    expect(judgeLabRows([stats({ question: "necessary", task: "CLAIM_VERIFICATION", model: "local" })], report(true))[0].notes).toEqual(["the agreement report has no such question", "no price"]);
  });
});
