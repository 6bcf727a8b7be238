/**
 * A worked example small enough to check by hand, end to end on PostgreSQL: 3 pull requests,
 * 3 systems, 7 tests each tied to a human comment with a consensus category. X's outcomes come
 * as JUnit XML from pytest and Jest (one import per pull request), Y's and Z's as the outcomes
 * JSONL; `tools-report --json` gives every figure, and relates the lead's judgement whether each
 * test captures its comment's concern to the outcomes. Each system also commented: the
 * consensus of usefulness and of the matching question gives the usefulness table, its
 * correlation with the mean s_i, the annotators' matching, the location matcher's and a stored
 * matcher run's.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { createClient } from "@/lib/db/client";
import { runImport } from "@/lib/data/imports";
import { COMMAND_LINE } from "@/lib/data/study-access";
import { importTestResults } from "@/lib/data/test-outcomes";
import { exportOffer, streamExport } from "@/lib/data/exports";
import { COMMENT_QUESTION_TEMPLATES, DEFAULT_COMMENT_QUESTIONS } from "@/lib/annotation/comment-questions";
import { cli } from "./cli";
import { imported } from "./import-fixtures";

const client = createClient(inject("databaseUrl"));
const STUDY = "tools-report-example";

/** Each human comment: pull request, id, linked test file, category. p1 holds 3 tests, p2 1, p3 3. */
const HUMAN: [string, string, string, string][] = [
  ["p1", "a1", "tests/test_a1.py", "ROBUSTNESS"],
  ["p1", "a2", "tests/test_a2.py", "TESTING"],
  ["p1", "a3", "web/a3.test.js", "DESIGN"],
  ["p2", "b1", "tests/test_b1.py", "ROBUSTNESS"],
  ["p3", "c1", "web/c1.test.js", "TESTING"],
  ["p3", "c2", "tests/test_c2.py", "DESIGN"],
  ["p3", "c3", "tests/test_c3.py", "DOCUMENTATION"],
];
/** The test id each runner gives a comment's test: pytest's module::name, Jest's describe::title. */
const testIdOf = (id: string, path: string) => (path.endsWith(".py") ? `tests.test_${id}::test_it` : `${id} works::${id} works`);
/** Passed tests by system: X a1 and b1; Y a1, a2 and c1; Z only c2 (and it has no outcome for c3). */
const PASSES: Record<string, string[]> = { X: ["a1", "b1"], Y: ["a1", "a2", "c1"], Z: ["c2"] };

/**
 * The systems' own comments: pull request, id, system, line (the human comments are all on line 1
 * of retry.py), whether the consensus judges it useful, and the consensus of the matching question
 * toward the pull request's human comments not matched "none".
 */
const SYSTEM_COMMENTS: { pr: string; id: string; system: string; line: number; useful: "yes" | "no"; matches: Record<string, "fully" | "partly"> }[] = [
  { pr: "p1", id: "x1", system: "X", line: 1, useful: "yes", matches: { a1: "fully", a2: "partly" } },
  { pr: "p2", id: "x2", system: "X", line: 20, useful: "no", matches: {} },
  { pr: "p1", id: "y1", system: "Y", line: 30, useful: "yes", matches: {} },
  { pr: "p3", id: "z1", system: "Z", line: 1, useful: "no", matches: { c2: "partly" } },
];

/** The lead's decision whether each test captures its comment's concern (c3's undecided). */
const CAPTURES: Record<string, string> = { a1: "yes", a2: "yes", b1: "yes", c1: "yes", a3: "no", c2: "no" };

function bundle(): { name: string; content: Buffer } {
  const lines = ["p1", "p2", "p3"].flatMap((pr) => [
    { type: "pullRequest", id: pr, repository: "acme/api", url: `https://github.com/acme/api/pull/${pr.slice(1)}`, title: pr, headSha: "b".repeat(40), baseSha: "a".repeat(40), mergeBaseSha: "a".repeat(40) },
    // 40 lines, so that comments can sit far from the human comments' line 1.
    { type: "file", status: "MODIFIED", path: "retry.py", oldContents: "x = 1\n", newContents: Array.from({ length: 40 }, (_, i) => `x = ${i + 2}\n`).join("") },
    ...HUMAN.filter(([p]) => p === pr).map(([, id, testPath]) => ({ type: "comment", id, path: "retry.py", line: 1, body: `Concern ${id}.`, system: "human", testPath, testText: `test of ${id}` })),
    ...SYSTEM_COMMENTS.filter((c) => c.pr === pr).map(({ id, system, line }) => ({ type: "comment", id, path: "retry.py", line, body: `Comment ${id}.`, system })),
  ]);
  return { name: "bundle.jsonl", content: Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n")) };
}

/** X's results for one pull request: pytest's file and, when the pull request has Jest tests, Jest's. */
function junitFiles(pr: string): { name: string; content: Buffer }[] {
  const own = HUMAN.filter(([p]) => p === pr);
  const outcome = (id: string) => (PASSES.X.includes(id) ? "" : `<failure message="${id} still fails">AssertionError</failure>`);
  const pytest = own.filter(([, , path]) => path.endsWith(".py")).map(([, id]) => `<testcase classname="tests.test_${id}" name="test_it" time="0.01">${outcome(id)}</testcase>`);
  const jest = own.filter(([, , path]) => path.endsWith(".js")).map(([, id, path]) => `    <testcase classname="${id} works" name="${id} works" time="0.002" file="${path}">${outcome(id)}</testcase>`);
  const files = [{ name: `pytest-${pr}.xml`, content: Buffer.from(`<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="${pytest.length}">${pytest.join("")}</testsuite></testsuites>`) }];
  if (jest.length > 0) files.push({ name: `jest-${pr}.xml`, content: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="jest tests">\n  <testsuite name="${pr}">\n${jest.join("\n")}\n  </testsuite>\n</testsuites>\n`) });
  return files;
}

function jsonlOf(system: string): { name: string; content: Buffer } {
  const lines = HUMAN.filter(([, id]) => system !== "Z" || id !== "c3").map(([pr, id, path]) => ({ pr, system, test: testIdOf(id, path), outcome: PASSES[system].includes(id) ? "passed" : "failed", comment: id }));
  return { name: `${system}.jsonl`, content: Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n")) };
}

beforeAll(async () => {
  const { study } = imported(await runImport({ study: STUDY, format: "pull-request", files: [bundle()] }, client));
  await client.study.update({ where: { id: study.id }, data: { tasks: ["COMMENT_QUESTIONS"], commentQuestions: [...DEFAULT_COMMENT_QUESTIONS, COMMENT_QUESTION_TEMPLATES.matches] as object[] } });
  for (const [pr, id, , category] of HUMAN) {
    const comment = await client.reviewComment.findFirstOrThrow({ where: { externalId: id, pullRequest: { studyId: study.id, externalId: pr } } });
    await client.consensus.create({ data: { studyId: study.id, task: "COMMENT_QUESTIONS", itemId: comment.id, question: "category", value: category } });
    await client.consensus.create({ data: { studyId: study.id, task: "COMMENT_QUESTIONS", itemId: comment.id, question: "useful", value: id === "c3" ? "no" : "yes" } });
    if (id !== "c3") await client.consensus.create({ data: { studyId: study.id, task: "COMMENT_QUESTIONS", itemId: comment.id, question: "test-captures", value: CAPTURES[id] } });
  }
  const commentId = async (pr: string, id: string) => (await client.reviewComment.findFirstOrThrow({ where: { externalId: id, pullRequest: { studyId: study.id, externalId: pr } } })).id;
  for (const c of SYSTEM_COMMENTS) {
    const id = await commentId(c.pr, c.id);
    await client.consensus.create({ data: { studyId: study.id, task: "COMMENT_QUESTIONS", itemId: id, question: "useful", value: c.useful } });
    for (const [pr, human] of HUMAN.filter(([p]) => p === c.pr)) {
      await client.consensus.create({ data: { studyId: study.id, task: "COMMENT_QUESTIONS", itemId: `${id}:${await commentId(pr, human)}`, question: "matches", value: c.matches[human] ?? "none" } });
    }
  }
  for (const pr of ["p1", "p2", "p3"]) {
    const result = await importTestResults(COMMAND_LINE, { study: STUDY, system: "X", pullRequest: pr, files: junitFiles(pr) }, client);
    expect(result).toMatchObject({ status: "imported", summary: { linked: HUMAN.filter(([p]) => p === pr).length } });
  }
  const jsonl = await importTestResults(COMMAND_LINE, { study: STUDY, files: [jsonlOf("Y"), jsonlOf("Z")] }, client);
  expect(jsonl).toMatchObject({ status: "imported", summary: { pullRequests: ["p1", "p2", "p3"], systems: ["Y", "Z"], tests: 13, linked: 13 } });
});
afterAll(async () => {
  await client.$disconnect();
});

interface ReportJson {
  systems: { system: string; instances: number; tests: number; passed: number; missing: number; microPassRate: { value: number; ci: [number, number] | null }; macroPassRate: { value: number; ci: [number, number] | null } }[];
  overlap: { systems: string[]; tests: number; union: number; unionShare: number; none: number; combinations: { systems: string[]; passed: number }[]; unique: Record<string, number> };
  byCategory: { groups: string[]; ungrouped: number; rows: { system: string; cells: Record<string, { tests: number; passed: number }> }[] };
  byAnswer: { question: string; rates: ReportJson["byCategory"] }[];
  usefulness: { systems: { system: string; comments: number; useful: number }[] };
  usefulnessAgainstScores: { systems: { system: string; usefulShare: number; meanScore: number }[]; rho: number; pValue: number; n: number };
  humanMatching: { pairs: number; decided: number; fully: number; partly: number; systems: MatchRowJson[] };
  matching: { matcher: { kind: string; k: number; signature: string }; pairs: number; systems: MatchRowJson[]; scores: unknown[] };
  matcherRuns: { run: { id: string }; matcher: { k: number }; pairs: number; scores: unknown[] }[];
  llmMatching: unknown[];
  notes: string[];
}

type RateJson = { value: number; ci: [number, number] | null };
interface MatchRowJson {
  system: string;
  comments: number;
  matchingComments: number;
  humanComments: number;
  matchedHumanComments: number;
  recall: RateJson;
  precision: RateJson;
  usefulDecided: number;
  useful: number;
  usefulUnmatched: number;
}

describe("the worked example", () => {
  test("tools-report --json gives every figure: micro and macro pass rates that differ, the overlap and union, pass rates per category", async () => {
    const printed = await cli("tools-report", "--study", STUDY, "--json");
    expect(printed.code).toBe(0);
    const report = JSON.parse(printed.stdout) as ReportJson;
    // Every figure is defined: no note.
    expect(report.notes).toEqual([]);
    // s_i of X: p1 1/3, p2 1, p3 0; of Y: 2/3, 0, 1/3; of Z: 0, 0, 1/3.
    expect(report.systems.map((r) => [r.system, r.instances, r.tests, r.passed, r.missing, r.microPassRate.value, r.macroPassRate.value])).toEqual([
      ["human", 3, 7, 7, 0, 1, 1],
      ["X", 3, 7, 2, 0, 2 / 7, 4 / 9],
      ["Y", 3, 7, 3, 0, 3 / 7, 1 / 3],
      ["Z", 3, 7, 1, 1, 1 / 7, 1 / 9],
    ]);
    for (const row of report.systems) {
      for (const rate of [row.microPassRate, row.macroPassRate]) {
        expect(rate.ci![0]).toBeLessThanOrEqual(rate.value);
        expect(rate.ci![1]).toBeGreaterThanOrEqual(rate.value);
      }
    }
    expect(report.systems[0].microPassRate.ci).toEqual([1, 1]);
    // Figure 5's regions: a1 X and Y; a2, c1 only Y; b1 only X; c2 only Z; a3, c3 none.
    const { combinations, ...overlap } = report.overlap;
    expect(overlap).toEqual({ systems: ["X", "Y", "Z"], tests: 7, union: 5, unionShare: 5 / 7, none: 2, unique: { X: 1, Y: 2, Z: 1 } });
    expect(combinations.map((c) => `${c.systems.join("+")}: ${c.passed}`)).toEqual(["X: 1", "Y: 2", "Z: 1", "X+Y: 1", "X+Z: 0", "Y+Z: 0", "X+Y+Z: 0"]);
    const cells = (system: string) => {
      const row = report.byCategory.rows.find((r) => r.system === system)!;
      return Object.fromEntries(["ROBUSTNESS", "TESTING", "DESIGN", "DOCUMENTATION", "SECURITY"].map((c) => [c, `${row.cells[c].passed}/${row.cells[c].tests}`]));
    };
    expect(report.byCategory.ungrouped).toBe(0);
    expect(cells("human")).toEqual({ ROBUSTNESS: "2/2", TESTING: "2/2", DESIGN: "2/2", DOCUMENTATION: "1/1", SECURITY: "0/0" });
    expect(cells("X")).toEqual({ ROBUSTNESS: "2/2", TESTING: "0/2", DESIGN: "0/2", DOCUMENTATION: "0/1", SECURITY: "0/0" });
    expect(cells("Y")).toEqual({ ROBUSTNESS: "1/2", TESTING: "2/2", DESIGN: "0/2", DOCUMENTATION: "0/1", SECURITY: "0/0" });
    expect(cells("Z")).toEqual({ ROBUSTNESS: "0/2", TESTING: "0/2", DESIGN: "1/2", DOCUMENTATION: "0/1", SECURITY: "0/0" });
    // Tests judged to capture their comment's concern against those judged not to.
    expect(report.byAnswer.map((a) => a.question)).toEqual(["useful", "test-captures"]);
    expect(report.usefulness.systems).toMatchObject([
      { system: "human", comments: 7, useful: 6 },
      { system: "X", comments: 2, useful: 1 },
      { system: "Y", comments: 1, useful: 1 },
      { system: "Z", comments: 1, useful: 0 },
    ]);
    const captures = report.byAnswer[1].rates;
    expect(captures.ungrouped).toBe(1);
    expect(captures.rows.map((r) => [r.system, `${r.cells.yes.passed}/${r.cells.yes.tests}`, `${r.cells.no.passed}/${r.cells.no.tests}`])).toEqual([
      ["human", "4/4", "2/2"],
      ["X", "2/4", "0/2"],
      ["Y", "3/4", "0/2"],
      ["Z", "0/4", "1/2"],
    ]);

    // Usefulness against mean s_i (the macro rate): X 1/2 and 4/9, Y 1 and 1/3, Z 0 and 1/9. Ranks (2, 3, 1) and (3, 2, 1):
    // ρ = 1 - 6 (1 + 1 + 0) / (3 (9 - 1)) = 1/2; t = ρ √((n-2)/(1-ρ²)) = 1/√3 on 1 degree of freedom (Cauchy): p = 2 (1/2 - atan(1/√3)/π) = 2/3.
    expect(report.usefulnessAgainstScores.systems).toEqual([
      { system: "X", usefulShare: 1 / 2, meanScore: 4 / 9 },
      { system: "Y", usefulShare: 1, meanScore: 1 / 3 },
      { system: "Z", usefulShare: 0, meanScore: 1 / 9 },
    ]);
    expect(report.usefulnessAgainstScores.n).toBe(3);
    expect(report.usefulnessAgainstScores.rho).toBeCloseTo(1 / 2, 12);
    expect(report.usefulnessAgainstScores.pValue).toBeCloseTo(2 / 3, 12);

    // The annotators' matching: 10 pairs (x1, y1 with p1's 3 human comments, x2 with b1, z1 with p3's 3), all decided; x1-a1 fully, x1-a2 and z1-c2 partly.
    const rows = (m: { systems: MatchRowJson[] }) => m.systems.map((r) => [r.system, r.comments, r.matchingComments, r.matchedHumanComments, r.humanComments, r.recall.value, r.precision.value, r.usefulDecided, r.useful, r.usefulUnmatched]);
    expect(report.humanMatching).toMatchObject({ pairs: 10, decided: 10, fully: 1, partly: 2 });
    // Recall over the 7 human comments; precision over the system's comments (X: x1 of x1, x2); y1, useful, matches none.
    expect(rows(report.humanMatching)).toEqual([
      ["X", 2, 1, 2, 7, 2 / 7, 1 / 2, 2, 1, 0],
      ["Y", 1, 0, 0, 7, 0, 0, 1, 1, 1],
      ["Z", 1, 1, 1, 7, 1 / 7, 1, 1, 0, 0],
    ]);
    // The location matcher (k = 3): x1 and z1 share line 1 with their pull request's 3 human comments; x2 (line 20) and y1 (line 30) are far.
    expect(report.matching).toMatchObject({ matcher: { kind: "location", k: 3, signature: "matcher:location|k:3|side:same|range:one-side|whole-file:whole-file|impl:1" }, pairs: 6 });
    expect(rows(report.matching)).toEqual([
      ["X", 2, 1, 3, 7, 3 / 7, 1 / 2, 2, 1, 0],
      ["Y", 1, 0, 0, 7, 0, 0, 1, 1, 1],
      ["Z", 1, 1, 3, 7, 3 / 7, 1, 1, 0, 0],
    ]);
    // Against the annotators' matching: X found 3 pairs, 2 of the annotators' (precision 2/3, recall 1); Z 3, 1 (1/3, 1); Y none.
    expect(report.matching.scores).toEqual([
      { system: "X", found: 3, judged: 2, agreed: 2, precision: 2 / 3, recall: 1 },
      { system: "Y", found: 0, judged: 0, agreed: 0, precision: null, recall: null, reason: "the matcher found no pair; the human matching has no pair" },
      { system: "Z", found: 3, judged: 1, agreed: 1, precision: 1 / 3, recall: 1 },
    ]);
    for (const m of [report.humanMatching, report.matching]) {
      for (const r of m.systems) for (const rate of [r.recall, r.precision]) if (rate.ci) expect(rate.ci[0]).toBeLessThanOrEqual(rate.value);
    }
    expect(report.matcherRuns).toEqual([]);
    expect(report.llmMatching).toEqual([]);
  });

  test("a matcher run from the command line is stored and read back by tools-report: k = 0 finds the same 6 pairs, scored as above", async () => {
    const ran = await cli("matchers", "--study", STUDY, "--k", "0");
    expect(ran.code).toBe(0);
    const { run } = JSON.parse(ran.stdout) as { run: { id: string; status: string; pairs: number; signature: string } };
    expect(run).toMatchObject({ status: "DONE", pairs: 6, signature: "matcher:location|k:0|side:same|range:one-side|whole-file:whole-file|impl:1" });
    const report = JSON.parse((await cli("tools-report", "--study", STUDY, "--json")).stdout) as ReportJson;
    expect(report.matcherRuns.map((m) => [m.run.id, m.matcher.k, m.pairs])).toEqual([[run.id, 0, 6]]);
    expect(report.matcherRuns[0].scores).toEqual(report.matching.scores);
  });

  test("the exports carry the outcomes: test-outcomes as the outcomes JSONL, which imports back unchanged, and each human comment's outcomes in github-comments", async () => {
    const { id: studyId } = await client.study.findUniqueOrThrow({ where: { slug: STUDY } });
    expect((await exportOffer(studyId, client)).formats).toContain("test-outcomes");
    const stored = () => client.testOutcome.findMany({ where: { pullRequest: { studyId } }, orderBy: [{ system: "asc" }, { testId: "asc" }], select: { pullRequestId: true, system: true, testId: true, status: true, durationSeconds: true, message: true, reviewCommentId: true } });
    const before = await stored();
    const exported = await exportText(studyId, "test-outcomes");
    const lines = exported.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    // X's 7 from JUnit XML, Y's 7 and Z's 6 from JSONL.
    expect(lines).toHaveLength(20);
    expect(lines[0]).toEqual({ pr: "p1", system: "X", test: "a3 works::a3 works", outcome: "failed", comment: "a3", durationSeconds: 0.002, message: "a3 still fails" });
    const again = await importTestResults(COMMAND_LINE, { study: STUDY, files: [{ name: "exported.jsonl", content: Buffer.from(exported) }] }, client);
    expect(again).toMatchObject({ status: "imported", summary: { tests: 20, replaced: 20, linked: 20 } });
    expect(await stored()).toEqual(before);

    const comments = (await exportText(studyId, "github-comments")).trim().split("\n").map((l) => JSON.parse(l) as { id: string; crjudge: { testOutcomes?: { system: string; test: string; outcome: string }[] } });
    const a1 = comments.find((c) => c.id === "a1")!;
    expect(a1.crjudge.testOutcomes).toEqual([
      { system: "X", test: "tests.test_a1::test_it", outcome: "passed" },
      { system: "Y", test: "tests.test_a1::test_it", outcome: "passed" },
      { system: "Z", test: "tests.test_a1::test_it", outcome: "failed" },
    ]);
    expect(comments.find((c) => c.id === "c3")!.crjudge.testOutcomes).toEqual([
      { system: "X", test: "tests.test_c3::test_it", outcome: "failed" },
      { system: "Y", test: "tests.test_c3::test_it", outcome: "failed" },
    ]);
  });
});

async function exportText(studyId: string, format: "test-outcomes" | "github-comments"): Promise<string> {
  let text = "";
  for await (const chunk of streamExport({ studyId, format }, client)) text += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
  return text;
}
