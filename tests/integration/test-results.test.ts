/** Importing a system's JUnit XML test outcomes for a pull request (lib/data/test-outcomes.ts), on PostgreSQL and through the CLI. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { createClient } from "@/lib/db/client";
import { runImport } from "@/lib/data/imports";
import { COMMAND_LINE } from "@/lib/data/study-access";
import { importTestResults } from "@/lib/data/test-outcomes";
import type { TestResultsResult } from "@/lib/import/test-results";
import { studyToolsReport } from "@/lib/data/tools-report";
import { cli } from "./cli";
import { imported } from "./import-fixtures";

const client = createClient(inject("databaseUrl"));
const STUDY = "test-results";
let dir: string;

/** A pull request whose two human comments have linked tests (a pytest file and a Jest file), and a tool's comment. */
function pullRequestBundle(): { name: string; content: Buffer } {
  const lines = [
    { type: "pullRequest", id: "acme/api#3", repository: "acme/api", url: "https://github.com/acme/api/pull/3", title: "Retry", headSha: "b".repeat(40), baseSha: "a".repeat(40), mergeBaseSha: "a".repeat(40) },
    { type: "file", status: "MODIFIED", path: "retry.py", oldContents: "x = 1\ny = 2\n", newContents: "x = 2\ny = 2\nz = 3\n" },
    { type: "comment", id: "h1", path: "retry.py", line: 1, body: "Retry three times.", system: "human", testPath: "tests/test_retry.py", testText: "def test_retries(): ..." },
    { type: "comment", id: "h2", path: "retry.py", line: 3, body: "Give up after 5 s.", system: "human", testPath: "web/retry.test.js", testText: "test('gives up', () => {});" },
    { type: "comment", id: "t1", path: "retry.py", line: 3, body: "z is unused.", system: "codex" },
  ];
  return { name: "pull-request.jsonl", content: Buffer.from(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`) };
}

const PYTEST = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="2"><testcase classname="tests.test_retry" name="test_retries" time="0.010"/><testcase classname="tests.test_retry" name="test_backoff" time="0.020"><failure message="assert 1 == 2">AssertionError</failure></testcase></testsuite></testsuites>`;
const JEST = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="jest tests">\n  <testsuite name="retry" tests="1">\n    <testcase classname="retry gives up" name="retry gives up" time="0.004" file="web/retry.test.js"/>\n  </testsuite>\n</testsuites>\n`;
const file = (name: string, text: string) => ({ name, content: Buffer.from(text) });

function summaryOf(result: TestResultsResult) {
  if (result.status === "refused") throw new Error(`refused: ${JSON.stringify(result.errors)}`);
  return result.summary;
}

beforeAll(async () => {
  imported(await runImport({ study: STUDY, format: "pull-request", files: [pullRequestBundle()] }, client));
  dir = mkdtempSync(path.join(tmpdir(), "test-results-"));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await client.$disconnect();
});

const stored = (system: string) =>
  client.testOutcome.findMany({
    where: { system, pullRequest: { externalId: "acme/api#3", study: { slug: STUDY } } },
    orderBy: { testId: "asc" },
    select: { testId: true, status: true, durationSeconds: true, message: true, importedFile: true, importedLine: true, reviewComment: { select: { externalId: true } } },
  });

describe("import-test-results", () => {
  test("pytest's and Jest's results are stored with their comments, the run recorded; importing again replaces them", async () => {
    const first = summaryOf(await importTestResults(COMMAND_LINE, { study: STUDY, system: "codex", pullRequest: "acme/api#3", files: [file("pytest.xml", PYTEST), file("jest.xml", JEST)] }, client));
    expect(first).toMatchObject({ study: STUDY, pullRequests: ["acme/api#3"], systems: ["codex"], files: ["pytest.xml", "jest.xml"], tests: 3, byStatus: { PASSED: 2, FAILED: 1, ERROR: 0, SKIPPED: 0 }, linked: 3, replaced: 0, warnings: [], skipped: [] });
    expect(await stored("codex")).toEqual([
      { testId: "retry gives up::retry gives up", status: "PASSED", durationSeconds: 0.004, message: "", importedFile: "jest.xml", importedLine: 4, reviewComment: { externalId: "h2" } },
      { testId: "tests.test_retry::test_backoff", status: "FAILED", durationSeconds: 0.02, message: "assert 1 == 2", importedFile: "pytest.xml", importedLine: 1, reviewComment: { externalId: "h1" } },
      { testId: "tests.test_retry::test_retries", status: "PASSED", durationSeconds: 0.01, message: "", importedFile: "pytest.xml", importedLine: 1, reviewComment: { externalId: "h1" } },
    ]);
    const run = await client.importRun.findUniqueOrThrow({ where: { id: first.importRunId } });
    expect(run).toMatchObject({ format: "test-results", files: ["pytest.xml", "jest.xml"], summary: { tests: 3, systems: ["codex"] } });

    // Again, by the pull request's URL, with only pytest's file: the Jest outcome is gone.
    const again = summaryOf(await importTestResults(COMMAND_LINE, { study: STUDY, system: "codex", pullRequest: "https://github.com/acme/api/pull/3", files: [file("pytest.xml", PYTEST)] }, client));
    expect(again).toMatchObject({ tests: 2, replaced: 3 });
    expect((await stored("codex")).map((o) => o.testId)).toEqual(["tests.test_retry::test_backoff", "tests.test_retry::test_retries"]);
  });

  test("errors name the file and line, and change nothing", async () => {
    const before = await client.testOutcome.count();
    const runs = await client.importRun.count();
    const bad = await importTestResults(COMMAND_LINE, { study: STUDY, system: "devin", pullRequest: "acme/api#3", files: [file("ok.xml", JEST), file("broken.xml", `<testsuite>\n<testcase name="a">\n</testsuite>`), file("named.xml", `<testsuite>\n<testcase name="b"><properties><property name="comment" value="nope"/></properties></testcase></testsuite>`)] }, client);
    expect(bad.status).toBe("refused");
    if (bad.status === "refused") {
      expect(bad.errors.map((e) => [e.file, e.line, e.field])).toEqual([
        ["broken.xml", 3, undefined],
        ["named.xml", 2, "comment"],
      ]);
    }
    expect(await importTestResults(COMMAND_LINE, { study: STUDY, system: "devin", pullRequest: "acme/api#99", files: [file("ok.xml", JEST)] }, client)).toEqual({
      status: "refused",
      totalErrors: 1,
      errors: [{ file: "ok.xml", line: 4, field: "pr", message: `"acme/api#99" is not a pull request of study ${STUDY} (neither its id nor its URL)` }],
    });
    expect(await importTestResults(COMMAND_LINE, { study: STUDY, files: [file("ok.xml", JEST)] }, client)).toMatchObject({ status: "refused", errors: [{ file: "ok.xml", line: 4, message: "the file names no pull request (--pr) and no system (--system): give it to the import" }] });
    expect((await importTestResults(COMMAND_LINE, { study: STUDY, system: "human", pullRequest: "acme/api#3", files: [file("ok.xml", JEST)] }, client)).status).toBe("refused");
    const jsonl = `{"pr": "acme/api#3", "system": "devin", "test": "t", "outcome": "passed"}\n{"pr": "acme/api#7", "system": "devin", "test": "t", "outcome": "passed"}\n`;
    expect(await importTestResults(COMMAND_LINE, { study: STUDY, files: [file("o.jsonl", jsonl)] }, client)).toMatchObject({ status: "refused", errors: [{ file: "o.jsonl", line: 2, field: "pr" }] });
    await expect(importTestResults(COMMAND_LINE, { study: "no-such-study", system: "devin", pullRequest: "acme/api#3", files: [file("ok.xml", JEST)] }, client)).rejects.toThrow("No such study.");
    expect(await client.testOutcome.count()).toBe(before);
    expect(await client.importRun.count()).toBe(runs);
  });

  test("the CLI imports a system's files and refuses an unknown pull request", async () => {
    const results = path.join(dir, "jest.xml");
    writeFileSync(results, JEST);
    const ok = await cli("import-test-results", "--study", STUDY, "--system", "pr-agent", "--pr", "acme/api#3", results);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ systems: ["pr-agent"], tests: 1, linked: 1 });
    expect(await stored("pr-agent")).toHaveLength(1);
    const unknown = await cli("import-test-results", "--study", STUDY, "--system", "pr-agent", "--pr", "acme/api#4", results);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain(`"acme/api#4" is not a pull request of study ${STUDY}`);
    // --tool, the spelling, is another name for --system
    const byTool = await cli("import-test-results", "--study", STUDY, "--tool", "pr-agent", "--pr", "acme/api#3", results);
    expect(byTool.code).toBe(0);
    expect(JSON.parse(byTool.stdout)).toMatchObject({ systems: ["pr-agent"], tests: 1 });
    const both = await cli("import-test-results", "--study", STUDY, "--system", "pr-agent", "--tool", "devin", "--pr", "acme/api#3", results);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain(`--system "pr-agent" and --tool "devin" differ`);
  });
});

describe("tools-report", () => {
  const REPORT_STUDY = "tools-report";

  test("pass rates, the overlap and pass rates per consensus category of the tests' human comments, from the CLI", async () => {
    const { study } = imported(await runImport({ study: REPORT_STUDY, format: "pull-request", files: [pullRequestBundle()] }, client));
    await client.study.update({ where: { id: study.id }, data: { tasks: ["COMMENT_QUESTIONS"] } });
    const h1 = await client.reviewComment.findFirstOrThrow({ where: { externalId: "h1", pullRequest: { studyId: study.id } } });
    await client.consensus.create({ data: { studyId: study.id, task: "COMMENT_QUESTIONS", itemId: h1.id, question: "category", value: "ROBUSTNESS" } });
    const results = (system: string, files: { name: string; content: Buffer }[]) => importTestResults(COMMAND_LINE, { study: REPORT_STUDY, system, pullRequest: "acme/api#3", files }, client).then(summaryOf);
    await results("codex", [file("pytest.xml", PYTEST), file("jest.xml", JEST)]);
    // devin's outcome as the outcomes JSONL, naming its comment.
    const devin = summaryOf(await importTestResults(COMMAND_LINE, { study: REPORT_STUDY, files: [file("devin.jsonl", `{"pr": "https://github.com/acme/api/pull/3", "system": "devin", "test": "retry gives up::retry gives up", "outcome": "failed", "comment": "h2"}\n`)] }, client));
    expect(devin).toMatchObject({ pullRequests: ["acme/api#3"], systems: ["devin"], tests: 1, linked: 1, byStatus: { FAILED: 1 } });

    const report = await studyToolsReport(COMMAND_LINE, REPORT_STUDY, {}, client);
    // Tests: jest's (h2, no category), pytest's two (h1, ROBUSTNESS). codex passes 2 of 3; devin fails jest's and lacks pytest's.
    expect(report.systems.map((r) => [r.system, r.instances, r.tests, r.passed, r.missing, r.microPassRate.value])).toEqual([
      ["human", 1, 3, 3, 0, 1],
      ["codex", 1, 3, 2, 0, 2 / 3],
      ["devin", 1, 3, 0, 2, 0],
    ]);
    expect(report.overlap).toMatchObject({ systems: ["codex", "devin"], union: 2, unique: { codex: 2, devin: 0 } });
    expect(report.byCategory!.ungrouped).toBe(1);
    expect(report.byCategory!.rows.map((r) => [r.system, r.cells.ROBUSTNESS.passed, r.cells.ROBUSTNESS.tests])).toEqual([
      ["human", 2, 2],
      ["codex", 1, 2],
      ["devin", 0, 2],
    ]);

    const printed = await cli("tools-report", "--study", REPORT_STUDY, "--json");
    expect(printed.code).toBe(0);
    const json = JSON.parse(printed.stdout) as { systems: { system: string; microPassRate: { value: number } }[]; overlap: { union: number } };
    expect(json.systems.map((s) => [s.system, s.microPassRate.value])).toEqual([["human", 1], ["codex", 2 / 3], ["devin", 0]]);
    expect(json.overlap.union).toBe(2);

    // Matching under the location matcher: codex's t1 (line 3) meets h2 (line 3) at k = 0, and h1 (line 1) too at the default k = 3.
    expect(report.matching).toMatchObject({ matcher: { kind: "location", k: 3 }, pairs: 2, systems: [{ system: "codex", humanComments: 2, matchedHumanComments: 2, comments: 1, matchingComments: 1, recall: { value: 1 }, precision: { value: 1 } }] });
    const t1 = await client.reviewComment.findFirstOrThrow({ where: { externalId: "t1", pullRequest: { studyId: study.id } } });
    await client.consensus.create({ data: { studyId: study.id, task: "COMMENT_QUESTIONS", itemId: t1.id, question: "useful", value: "yes" } });
    const exact = await cli("tools-report", "--study", REPORT_STUDY, "--match-lines", "0");
    const matching = (JSON.parse(exact.stdout) as { matching: { matcher: { k: number }; pairs: number; systems: { system: string; recall: { value: number }; precision: { value: number }; usefulDecided: number; useful: number; usefulUnmatched: number }[] } }).matching;
    expect(matching.matcher.k).toBe(0);
    expect(matching.pairs).toBe(1);
    expect(matching.systems.map((r) => [r.system, r.recall.value, r.precision.value, r.usefulDecided, r.useful, r.usefulUnmatched])).toEqual([["codex", 1 / 2, 1, 1, 1, 0]]);
    const refused = await cli("tools-report", "--study", REPORT_STUDY, "--match-lines", "-1");
    expect(refused.code).not.toBe(0);
    // A matcher run from the command line, stored: k = 0 pairs t1 with h2 only; --list names it; a negative k is refused, storing nothing.
    const ran = await cli("matchers", "--study", REPORT_STUDY, "--k", "0");
    expect(ran.code).toBe(0);
    const stored = JSON.parse(ran.stdout) as { run: { id: string; signature: string; status: string; pairs: number }; matching: { run: { id: string }; pairs: number; systems: { system: string; recall: { value: number }; precision: { value: number } }[] } };
    expect(stored.run).toMatchObject({ signature: "matcher:location|k:0|side:same|range:one-side|whole-file:whole-file|impl:1", status: "DONE", pairs: 1 });
    expect(stored.matching.run.id).toBe(stored.run.id);
    expect(stored.matching.systems.map((r) => [r.system, r.recall.value, r.precision.value])).toEqual([["codex", 1 / 2, 1]]);
    expect((await cli("matchers", "--study", REPORT_STUDY, "--k", "-1")).code).not.toBe(0);
    const listed = await cli("matchers", "--study", REPORT_STUDY, "--list");
    expect((JSON.parse(listed.stdout) as { runs: { id: string }[] }).runs.map((r) => r.id)).toEqual([stored.run.id]);
  });
});
