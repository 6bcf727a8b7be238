/**
 * The study page "Review tools" in the browser: a lead uploads one system's JUnit XML (pytest's and
 * Jest's) for a pull request and another's outcomes JSONL, a broken file is refused naming its
 * file and line (nothing written), and the lead reads Table 5 (micro and macro pass rates, which
 * differ here, the human reviewers passing every test), the UpSet chart of passed tests with the
 * union, and the pass rates per category, and the matching of X's comment to the human comments:
 * the annotators' (the matching question's consensus), the location matcher's, and the location
 * matcher scored against the annotators'. An annotator and another study's lead are refused. The
 * LLM matcher (a judge run on the matching question against a chat server on loopback) has its
 * rows, scored against the annotators' matching; a location matcher run started on the page is
 * computed by the worker, stored, listed and scored.
 * Screenshots in test-results/tools-report/.
 */
import { expect, test } from "@playwright/test";
import { hashPassword } from "@/lib/auth/password";
import { unifiedDiff } from "@/lib/diff";
import { COMMENT_QUESTION_TEMPLATES, DEFAULT_COMMENT_QUESTIONS } from "@/lib/annotation/comment-questions";
import { startFakeLlm, userText } from "../tests/unit/judges/fake-llm";
import { readTable, row, startMetricWorker, useTestDatabaseForLib } from "./dashboard-helpers";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";

const STUDY = `tools-e2e-${Date.now()}`;
const OTHER_LEAD = { email: `tools-other-lead-${Date.now()}@e2e.test`, password: "other-lead-password-1" };
const shot = (name: string) => `test-results/tools-report/${name}.png`;

/** The human comments: pull request, id, linked test file, consensus category. */
const HUMAN: [string, string, string, string][] = [
  ["p1", "a1", "tests/test_a1.py", "ROBUSTNESS"],
  ["p1", "a2", "web/a2.test.js", "TESTING"],
  ["p2", "b1", "tests/test_b1.py", "ROBUSTNESS"],
];

const PYTEST_P1 = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="1"><testcase classname="tests.test_a1" name="test_it" time="0.01"/></testsuite></testsuites>`;
const JEST_P1 = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jest tests">
  <testsuite name="a2">
    <testcase classname="a2 works" name="a2 works" time="0.002" file="web/a2.test.js"><failure>Error: expected 2</failure></testcase>
  </testsuite>
</testsuites>
`;
/** Y: p1's a1 failed and a2 passed, p2's b1 passed. */
const Y_JSONL = [
  { pr: "p1", tool: "Y", test: "tests.test_a1::test_it", outcome: "failed", comment: "a1" },
  { pr: "p1", tool: "Y", test: "a2 works::a2 works", outcome: "passed", comment: "a2" },
  { pr: "p2", tool: "Y", test: "tests.test_b1::test_it", outcome: "passed", comment: "b1" },
]
  .map((l) => JSON.stringify(l))
  .join("\n");

const file = (name: string, content: string) => ({ name, mimeType: name.endsWith(".xml") ? "application/xml" : "application/x-ndjson", buffer: Buffer.from(content) });

let studyId: string;
let otherLeadId: string;

test.beforeAll(async () => {
  const db = testDb();
  const lead = await db.account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } });
  const study = await db.study.create({ data: { slug: STUDY, name: "Review tools by execution e2e", tasks: ["COMMENT_QUESTIONS"], ownerId: lead.id, commentQuestions: [...DEFAULT_COMMENT_QUESTIONS, COMMENT_QUESTION_TEMPLATES.matches] as object[] } });
  studyId = study.id;
  for (const [position, pr] of ["p1", "p2"].entries()) {
    const pullRequest = await db.pullRequest.create({ data: { studyId, externalId: pr, repository: "acme/api", title: `Retry ${pr}`, headSha: "a".repeat(40), baseSha: "b".repeat(40) } });
    const change = await db.codeChange.create({
      data: { studyId, pullRequestId: pullRequest.id, externalId: `${pr}:retry.py`, filePath: "retry.py", status: "MODIFIED", language: "python", diff: unifiedDiff("x = 1\n", "x = 2\n", { path: "retry.py" }), oldFile: "x = 1\n", newFile: "x = 2\n", position },
    });
    for (const [, id, testPath, category] of HUMAN.filter(([p]) => p === pr)) {
      const comment = await db.reviewComment.create({ data: { pullRequestId: pullRequest.id, codeChangeId: change.id, externalId: id, path: "retry.py", side: "RIGHT", line: 1, body: `Concern ${id}.`, system: "human", author: "ada", position, testPath } });
      await db.consensus.create({ data: { studyId, task: "COMMENT_QUESTIONS", itemId: comment.id, question: "category", value: category, decidedById: lead.id } });
    }
    // X's own comment on p1, on the human comments' line.
    if (pr === "p1") {
      const x1 = await db.reviewComment.create({ data: { pullRequestId: pullRequest.id, codeChangeId: change.id, externalId: "x1", path: "retry.py", side: "RIGHT", line: 1, body: "Retry forever?", system: "X", author: "x[bot]", position: 9 } });
      // The lead's matching: x1 raises a1's concern fully, not a2's.
      for (const [human, degree] of [["a1", "fully"], ["a2", "none"]]) {
        const h = await db.reviewComment.findFirstOrThrow({ where: { pullRequestId: pullRequest.id, externalId: human } });
        await db.consensus.create({ data: { studyId, task: "COMMENT_QUESTIONS", itemId: `${x1.id}:${h.id}`, question: "matches", value: degree, decidedById: lead.id } });
      }
    }
  }
  otherLeadId = (await db.account.create({ data: { email: OTHER_LEAD.email, name: "Other lead", role: "LEAD", passwordHash: await hashPassword(OTHER_LEAD.password) } })).id;
});

test.afterAll(async () => {
  await testDb().study.deleteMany({ where: { id: studyId } });
  await testDb().account.deleteMany({ where: { id: otherLeadId } });
});

test("a lead uploads test results on the page and reads Table 5, the overlap chart and the pass rates per category", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 1000 });
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${STUDY}`);
  await page.getByRole("navigation", { name: "Study tools" }).getByRole("link", { name: "Review tools" }).click();
  await expect(page).toHaveURL(`/studies/${STUDY}/tools`);
  await expect(page.getByTestId("tools-notes")).toContainText("No test outcomes are imported: no pass rates.");
  await expect(page.getByTestId("tools-figure-5")).toHaveCount(0);

  const form = page.getByRole("form", { name: "Upload test results" });
  // A broken file refuses the whole upload, naming the file and line; nothing is written.
  await form.getByLabel("System").fill("X");
  await form.getByLabel("Pull request").selectOption("p1");
  await form.getByLabel(/^Files/).setInputFiles([file("pytest.xml", PYTEST_P1), file("broken.xml", `<testsuite>\n<testcase name="a">\n</testsuite>`)]);
  await form.getByRole("button", { name: "Import test results" }).click();
  await expect(page.getByRole("region", { name: "Import refused" })).toContainText("nothing was written");
  await expect(page.getByTestId("import-errors")).toContainText("broken.xml:3");
  expect(await testDb().testOutcome.count({ where: { pullRequest: { studyId } } })).toBe(0);

  // X: pytest's and Jest's files for p1.
  await form.getByLabel(/^Files/).setInputFiles([file("pytest.xml", PYTEST_P1), file("jest.xml", JEST_P1)]);
  await form.getByRole("button", { name: "Import test results" }).click();
  await expect(page.getByTestId("test-results-summary")).toContainText("2 test outcomes of X for p1: 1 passed, 1 failed");
  await expect(page.getByTestId("test-results-summary")).toContainText("2 tied to a human comment");
  // One system: the table, and why there is no overlap.
  await expect(page.getByTestId("tools-notes")).toContainText("The overlap of passed tests needs at least two systems.");

  // Y: the outcomes JSONL, naming pull requests and the system ("tool") per line.
  await form.getByLabel("System").fill("");
  await form.getByLabel("Pull request").selectOption("");
  await form.getByLabel(/^Files/).setInputFiles([file("y.jsonl", Y_JSONL)]);
  await form.getByRole("button", { name: "Import test results" }).click();
  await expect(page.getByTestId("test-results-summary")).toContainText("3 test outcomes of Y for p1, p2: 2 passed, 1 failed");

  // Table 5: tests a1, a2 (p1) and b1 (p2). X passed a1: micro 1/3, macro (1/2 + 0/1) / 2; Y passed a2 and b1: micro 2/3, macro (1/2 + 1) / 2.
  await expect(page.getByTestId("overlap-chart")).toBeVisible();
  const table5 = await readTable(page, "tools-table-5");
  expect(table5.rows.map((r) => r.key)).toEqual(["human", "X", "Y"]);
  const cells = (system: string) => {
    const r = row(table5, system);
    return [r.instances.text, r.tests.text, r.passed.text, r.missing.text, Number(r.micro.value), Number(r.macro.value)];
  };
  expect(cells("human")).toEqual(["2", "3", "3", "0", 1, 1]);
  expect(cells("X")).toEqual(["2", "3", "1", "1", 1 / 3, 0.25]);
  expect(cells("Y")).toEqual(["2", "3", "2", "0", 2 / 3, 0.75]);
  for (const system of ["X", "Y"]) {
    const r = row(table5, system);
    expect(Number(r.microLow.value)).toBeLessThanOrEqual(Number(r.micro.value));
    expect(Number(r.microHigh.value)).toBeGreaterThanOrEqual(Number(r.micro.value));
    expect(Number(r.macroLow.value)).toBeLessThanOrEqual(Number(r.macro.value));
  }
  await expect(page.getByRole("columnheader", { name: "Micro pass rate" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Macro pass rate" })).toBeVisible();

  // Figure 5: X alone 1 (a1), Y alone 2 (a2, b1), both 0; the union 3 of 3.
  const chart = page.getByTestId("overlap-chart");
  await expect(chart).toContainText("Union: 3 of 3 tests passed by at least one system (100.0 %); 0 by none.");
  // A bar per combination with passed tests (X+Y's is empty), its count and a column of dots under every combination.
  await expect(chart.locator(".recharts-bar-rectangle")).toHaveCount(2);
  await expect(chart.getByTestId("overlap-matrix-column")).toHaveCount(3);
  await expect(chart.locator('[data-combination="X+Y"] circle')).toHaveCount(2);
  await expect(chart.getByTestId("overlap-system")).toHaveText(["X", "Y"]);
  await expect(chart.getByTestId("overlap-count")).toHaveText(["1", "2", "0"]);
  const figure5 = await readTable(page, "tools-figure-5");
  expect(figure5.rows.map((r) => [r.key, r.cells.passed.text])).toEqual([
    ["X", "1"],
    ["Y", "2"],
    ["X+Y", "0"],
  ]);
  await expect(page.getByTestId("tools-figure-5").locator("tfoot")).toContainText("Union: passed by at least one system3100.00 %");

  // Figure 7: per consensus category of the tests' human comments (b1 has no outcome of X: not passed).
  const figure7 = await readTable(page, "tools-figure-7");
  const byCategory = (system: string) => Object.fromEntries(["ROBUSTNESS", "TESTING"].map((c) => [c, Number(row(figure7, system)[c].value)]));
  expect(byCategory("X")).toEqual({ ROBUSTNESS: 0.5, TESTING: 0 });
  expect(byCategory("Y")).toEqual({ ROBUSTNESS: 0.5, TESTING: 1 });

  // Matching under the location matcher (k = 3): X's comment meets a1 and a2 on p1, none on p2: recall 2/3, precision 1/1.
  const matching = await readTable(page, "tools-matching");
  const x = row(matching, "X");
  expect([x.comments.text, x.matchingComments.text, x.matchedHumanComments.text, Number(x.recall.value), Number(x.precision.value)]).toEqual(["1", "1", "2", 2 / 3, 1]);
  // The annotators' matching: x1 matches a1 only: recall 1/3, precision 1/1.
  const human = row(await readTable(page, "tools-human-matching"), "X");
  expect([human.comments.text, human.matchingComments.text, human.matchedHumanComments.text, Number(human.recall.value), Number(human.precision.value)]).toEqual(["1", "1", "1", 1 / 3, 1]);
  // The location matcher against it: 2 pairs found, 1 matched by the annotators, both 1: precision 1/2, recall 1.
  const scores = row(await readTable(page, "tools-matcher-scores"), "X");
  expect([scores.found.text, scores.judged.text, scores.agreed.text, Number(scores.precision.value), Number(scores.recall.value)]).toEqual(["2", "1", "1", 0.5, 1]);
  await expect(page.getByTestId("tools-human-matching")).toBeVisible();
  await page.getByTestId("tools-human-matching").screenshot({ path: shot("human-matching") });
  await page.screenshot({ path: shot("tools"), fullPage: true });
  await chart.screenshot({ path: shot("overlap-chart") });
});

test("an annotator and another study's lead are refused the page", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.ann1);
  expect((await page.goto(`/studies/${STUDY}/tools`))?.status()).toBe(403);
  await page.context().clearCookies();
  await signIn(page, OTHER_LEAD);
  expect((await page.goto(`/studies/${STUDY}/tools`))?.status()).toBe(404);
});

test("the LLM matcher's row (a judge run on the matching question, against a chat server on loopback) and a location matcher run started on the page, each scored against the annotators' matching", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 1000 });
  useTestDatabaseForLib();
  const { runJudge } = await import("@/lib/judge-runs/run");
  const tag = Date.now();
  // The judge: x1 raises a2's concern fully and a1's not at all (the annotators said the opposite).
  const llm = await startFakeLlm();
  llm.handle((r) => ({ content: JSON.stringify({ answer: userText(r).includes("Concern a2.") ? "fully" : "none", reason: "e2e" }), usage: { prompt_tokens: 100, completion_tokens: 10 } }));
  const stopWorker = await startMetricWorker();
  try {
    const { run } = await runJudge({ study: STUDY, task: "COMMENT_QUESTIONS", question: "matches", name: `e2e-matcher-${tag}`, llm: { url: llm.url, model: "gpt-4o-mini", backoffMs: 1, maxBackoffMs: 5_000 } });
    expect(run).toMatchObject({ status: "DONE", total: 2, done: 2, error: null });
    expect(llm.requests).toHaveLength(2);

    await signIn(page, E2E_ACCOUNTS.lead);
    await page.goto(`/studies/${STUDY}/tools`);
    const section = page.getByRole("region", { name: `LLM matcher judge:e2e-matcher-${tag}` });
    await expect(section).toContainText("model:gpt-4o-mini");
    // Under the LLM matcher's pair (x1, a2): X's one comment matches, 1 of the 3 human comments is matched.
    const llmRow = row(await readTable(page, "tools-llm-matching-1"), "X");
    expect([llmRow.comments.text, llmRow.matchingComments.text, llmRow.matchedHumanComments.text, Number(llmRow.recall.value), Number(llmRow.precision.value)]).toEqual(["1", "1", "1", 1 / 3, 1]);
    // Against the annotators' matching ((x1, a1) only): 1 pair found, 1 judged, none in common.
    const llmScores = row(await readTable(page, "tools-llm-matcher-scores-1"), "X");
    expect([llmScores.found.text, llmScores.judged.text, llmScores.agreed.text, Number(llmScores.precision.value), Number(llmScores.recall.value)]).toEqual(["1", "1", "0", 0, 0]);
    await section.screenshot({ path: shot("llm-matcher") });

    // A location matcher run with k = 0, started on the page and computed by the worker: x1, a1 and a2 share line 1, so 2 pairs.
    const form = page.getByRole("form", { name: "Run the location matcher" });
    await form.getByLabel("k (lines apart)").fill("0");
    await form.getByRole("button", { name: "Run the location matcher" }).click();
    await expect(form.getByRole("status")).toContainText("Queued");
    const stored = await testDb().matcherRun.findFirstOrThrow({ where: { studyId } });
    expect(stored).toMatchObject({ matcher: "location", signature: "matcher:location|k:0|side:same|range:one-side|whole-file:whole-file|impl:1" });
    await expect(async () => {
      expect((await testDb().matcherRun.findUniqueOrThrow({ where: { id: stored.id } })).status).toBe("DONE");
    }).toPass({ timeout: 60_000 });
    await page.reload();
    const runs = await readTable(page, "tools-matcher-runs");
    expect(runs.rows.map((r) => [r.cells.signature.text, r.cells.status.text, r.cells.pairs.text])).toEqual([["matcher:location|k:0|side:same|range:one-side|whole-file:whole-file|impl:1", "done", "2"]]);
    const runScores = row(await readTable(page, "tools-matcher-run-scores-1"), "X");
    expect([runScores.found.text, runScores.judged.text, runScores.agreed.text, Number(runScores.precision.value), Number(runScores.recall.value)]).toEqual(["2", "1", "1", 0.5, 1]);
    expect(await testDb().matcherMatch.count({ where: { runId: stored.id } })).toBe(2);
    await page.getByRole("region", { name: "Matcher runs" }).screenshot({ path: shot("matcher-runs") });
  } finally {
    await stopWorker();
    await llm.close();
    await testDb().account.deleteMany({ where: { email: `judge:e2e-matcher-${tag}` } });
  }
});
