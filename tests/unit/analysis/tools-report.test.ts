/** The tools report from stored outcomes (lib/analysis/tools-report.ts): tests per pull request, answers inherited from comments, undefined figures with their reasons. */
import { describe, expect, test } from "vitest";
import { toolsReport, type AnswerOf, type ReportQuestions, type StoredOutcome } from "@/lib/analysis/tools-report";

const NO_CI = { bootstrap: { nResamples: 0, adaptive: false, seed: 1, confidenceLevel: 0.95 } };
const QUESTIONS: ReportQuestions = { category: { key: "category", codes: ["ROBUSTNESS", "DESIGN"] }, binary: ["high-quality", "test-captures"] };
/** Comment k1: robustness, high quality; k2: design, low quality; k3 undecided. Nobody answered test-captures. */
const ANSWERS: Record<string, Record<string, string>> = { k1: { category: "ROBUSTNESS", "high-quality": "yes" }, k2: { category: "DESIGN", "high-quality": "no" } };
const answerOf: AnswerOf = (comment, question) => ANSWERS[comment]?.[question] ?? null;

const o = (pullRequest: string, system: string, testId: string, passed: boolean, comment: string | null = null): StoredOutcome => ({ pullRequest, system, testId, passed, comment });

describe("the tools report", () => {
  test("the same test id on two pull requests is two tests; a test inherits its comment's answers from any system's outcome; a test a system lacks is missing", () => {
    const report = toolsReport([o("p1", "X", "t", true, "k1"), o("p2", "X", "t", false), o("p1", "Y", "t", false), o("p2", "Y", "t", true, "k2"), o("p2", "Y", "u", true, "k3")], QUESTIONS, answerOf, NO_CI);
    expect(report.notes).toEqual([]);
    expect(report.systems.map((r) => [r.system, r.instances, r.tests, r.passed, r.missing, r.microPassRate.value, r.macroPassRate.value])).toEqual([
      ["human", 2, 3, 3, 0, 1, 1],
      ["X", 2, 3, 1, 1, 1 / 3, (1 + 0) / 2],
      ["Y", 2, 3, 2, 0, 2 / 3, (0 + 1) / 2],
    ]);
    expect(report.overlap).toMatchObject({ union: 3, none: 0, unique: { X: 1, Y: 2 } });
    expect(report.byCategory!.ungrouped).toBe(1);
    expect(report.byCategory!.rows.map((r) => [r.system, r.cells.ROBUSTNESS.passed, r.cells.DESIGN.passed])).toEqual([
      ["human", 1, 1],
      ["X", 1, 0],
      ["Y", 0, 1],
    ]);
    // High-quality comments' tests against low-quality ones'; test-captures has no decided test.
    expect(report.byAnswer.map((a) => a.question)).toEqual(["high-quality"]);
    expect(report.byAnswer[0].rates.rows.map((r) => [r.system, `${r.cells.yes.passed}/${r.cells.yes.tests}`, `${r.cells.no.passed}/${r.cells.no.tests}`])).toEqual([
      ["human", "1/1", "1/1"],
      ["X", "1/1", "0/1"],
      ["Y", "0/1", "1/1"],
    ]);
  });

  test("undefined figures say why: no outcomes, one system, no categories, tests tied to different comments", () => {
    expect(toolsReport([], QUESTIONS, answerOf, NO_CI)).toMatchObject({ overlap: null, byCategory: null, byAnswer: [], notes: ["No test outcomes are imported: no pass rates."] });
    expect(toolsReport([o("p1", "X", "t", true)], QUESTIONS, answerOf, NO_CI).notes).toEqual([
      "The overlap of passed tests needs at least two systems.",
      "No test's human comment has a consensus category: no pass rates per category.",
    ]);
    const conflict = toolsReport([o("p1", "X", "t", true, "k1"), o("p1", "Y", "t", true, "k2"), o("p1", "Y", "u", true, "k2")], QUESTIONS, answerOf, NO_CI);
    expect(conflict.notes).toEqual(["1 test(s) are tied to different comments by different systems' imports: they inherit no answers."]);
    expect(conflict.byCategory!.ungrouped).toBe(1);
    expect(toolsReport([o("p1", "X", "t", true, "k1"), o("p1", "Y", "t", true)], { category: null, binary: [] }, answerOf, NO_CI)).toMatchObject({ byCategory: null, byAnswer: [], notes: [] });
  });
});
