/** The tools report from stored outcomes (lib/analysis/tools-report.ts): tests per pull request, categories from comments, undefined figures with their reasons. */
import { describe, expect, test } from "vitest";
import { toolsReport, type StoredOutcome } from "@/lib/analysis/tools-report";

const NO_CI = { bootstrap: { nResamples: 0, adaptive: false, seed: 1, confidenceLevel: 0.95 } };

const o = (pullRequest: string, system: string, testId: string, passed: boolean, category: string | null = null): StoredOutcome => ({ pullRequest, system, testId, passed, category });

describe("the tools report", () => {
  test("the same test id on two pull requests is two tests; a test's category comes from any system's outcome; a test a system lacks is missing", () => {
    const report = toolsReport(
      [o("p1", "X", "t", true, "ROBUSTNESS"), o("p2", "X", "t", false), o("p1", "Y", "t", false), o("p2", "Y", "t", true, "DESIGN"), o("p2", "Y", "u", true)],
      ["ROBUSTNESS", "DESIGN"],
      NO_CI,
    );
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
  });

  test("undefined figures say why: no outcomes, one system, no categories, conflicting categories", () => {
    expect(toolsReport([], [], NO_CI)).toMatchObject({ overlap: null, byCategory: null, notes: ["No test outcomes are imported: no pass rates."] });
    expect(toolsReport([o("p1", "X", "t", true)], [], NO_CI).notes).toEqual([
      "The overlap of passed tests needs at least two systems.",
      "No test's human comment has a consensus category: no pass rates per category.",
    ]);
    const conflict = toolsReport([o("p1", "X", "t", true, "DESIGN"), o("p1", "Y", "t", true, "TESTING"), o("p1", "Y", "u", true, "TESTING")], ["DESIGN", "TESTING"], NO_CI);
    expect(conflict.notes).toEqual(["1 test(s) are tied to comments of different categories by different systems' imports: they are in no category."]);
    expect(conflict.byCategory!.ungrouped).toBe(1);
    expect(toolsReport([o("p1", "X", "t", true, "DESIGN"), o("p1", "Y", "t", true)], null, NO_CI)).toMatchObject({ byCategory: null, notes: [] });
  });
});
