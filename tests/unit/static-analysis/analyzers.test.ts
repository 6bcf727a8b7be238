/**
 * The real analyzers (installed by scripts/ensure-analyzers.sh) on small changes the fixtures
 * write: findings the change introduced on or near changed lines are kept with tool, version,
 * rule and line; findings the old file already had are not; radon's ranks give Table 6.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { analyzeChanges, type AnalyzerStatus, type ChangeToAnalyze, changedNewLines, detectAnalyzers, type Finding, nearChangedLine, splitIntroduced } from "@/lib/static-analysis";
import { JAVA_CHANGE, JS_CHANGE, PYTHON_CHANGE } from "./fixtures";
import { requireTools } from "./require-tools";

let statuses: AnalyzerStatus[] = [];
let versions: Record<string, string> = {};

beforeAll(async () => {
  statuses = await detectAnalyzers();
  versions = Object.fromEntries(statuses.flatMap((s) => (s.available ? [[s.tool, s.version]] : [])));
}, 60_000);

const analyzeChange = async (change: ChangeToAnalyze, versions: Record<string, string>) => (await analyzeChanges([change], versions))[0];
const pick = (findings: Finding[]) => findings.map((f) => ({ tool: f.tool, ruleId: f.ruleId, line: f.line }));

describe("which lines count as changed", () => {
  test("added lines, and the new-file line where lines were deleted", () => {
    const diff = ["--- a/x.py", "+++ b/x.py", "@@ -1,4 +1,3 @@", " a", "-b", "+B", " c", "-d", ""].join("\n");
    expect(changedNewLines(diff)).toEqual([2, 4]);
    expect(nearChangedLine({ line: 7, endLine: 7 }, [4])).toBe(true);
    expect(nearChangedLine({ line: 8, endLine: 9 }, [4])).toBe(false);
    expect(nearChangedLine({ line: 1, endLine: 30 }, [20])).toBe(true);
  });

  test("a finding the old file had on a line of the same text is existing, whatever its line number", () => {
    const f = (line: number, ruleId = "W033"): Finding => ({ tool: "jshint", toolVersion: "1", ruleId, smellType: ruleId, line, endLine: line, message: "", sentence: "" });
    const { introduced, existing } = splitIntroduced([f(3), f(4), f(4, "W041")], "x\ny\nreturn a\nreturn a\n", [f(1)], "return a\n");
    expect(existing.map((x) => x.line)).toEqual([3]);
    expect(introduced.map((x) => [x.line, x.ruleId])).toEqual([[4, "W033"], [4, "W041"]]);
  });
});

describe("the analyzers on fixture changes", () => {
  test("every analyzer reports a version or one sentence with its install command", () => {
    for (const s of statuses) {
      if (s.available) expect(s.version).toMatch(/\S/);
      else expect(s.message).toMatch(/apt-get install|npm install/);
    }
  });

  test("JSHint: the two missing semicolons the change added, not the one the old file had", async () => {
    if (!requireTools(statuses, "jshint")) return;
    const result = await analyzeChange(JS_CHANGE, versions);
    expect(pick(result.findings)).toEqual([
      { tool: "jshint", ruleId: "W033", line: 6 },
      { tool: "jshint", ruleId: "W033", line: 7 },
    ]);
    expect(result.tools.jshint).toMatchObject({ found: 3, existing: 1, kept: 2 });
    expect(result.findings[0]).toMatchObject({ toolVersion: versions.jshint, sentence: "Missing semicolon at line 6: `var y = x * 2`." });
  });

  test("PMD (quickstart ruleset): the if without braces the change added", async () => {
    if (!requireTools(statuses, "pmd")) return;
    const result = await analyzeChange(JAVA_CHANGE, versions);
    expect(pick(result.findings)).toContainEqual({ tool: "pmd", ruleId: "ControlStatementBraces", line: 6 });
    expect(result.findings.every((f) => f.toolVersion === versions.pmd && f.line >= 3)).toBe(true);
  }, 120_000);

  test("pylint, radon and the PyScent detectors: Table 14 smells of the new functions, radon's ranks for Table 6", async () => {
    if (!requireTools(statuses, "pylint", "radon", "pyscent")) return;
    const result = await analyzeChange(PYTHON_CHANGE, versions);
    const found = pick(result.findings);
    expect(found).toContainEqual({ tool: "pylint", ruleId: "R0913 too-many-arguments", line: 9 });
    expect(found).toContainEqual({ tool: "radon", ruleId: "cc-rank-C", line: 19 });
    expect(found).toContainEqual({ tool: "pyscent", ruleId: "long-lambda", line: 11 });
    expect(found).toContainEqual({ tool: "pyscent", ruleId: "useless-exception", line: 14 });
    const smellTypes = new Set(result.findings.map((f) => f.smellType));
    for (const t of ["Long parameter list", "Code complexity", "Long lambda", "Useless exception"]) expect(smellTypes).toContain(t);
    // keep (line 4) is outside the change: no finding about it.
    expect(result.findings.every((f) => f.line >= 6)).toBe(true);
    expect(result.radonRanks).toEqual({ A: 2, B: 0, C: 1, D: 0, E: 0, F: 0 });
  }, 120_000);
});
