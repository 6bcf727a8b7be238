/**
 * The agreement dashboard renders, for every task and question of the demo study, exactly the
 * numbers of the `agreement` CLI (raw values in data-value, 4-decimal text), with its charts,
 * and its tables download as CSV files holding the same cells.
 */
import { expect, test } from "@playwright/test";
import { questionId } from "@/components/dashboard/agreement-tables";
import { formatPercent } from "@/components/dashboard/format";
import type { AgreementReport, CoefficientReport } from "@/lib/analysis";
import { agreementReport } from "@/lib/data/reports";
import { requireStudy } from "@/lib/data/studies";
import { cli, downloadCsv, expectCharts, expectComplete, expectCsvMatchesTable, expectNumber, openQuestionDetails, type PageTable, readTable, row, useTestDatabaseForLib } from "./dashboard-helpers";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { reportItemSets } from "@/lib/data/item-sets";
import { COMMAND_LINE } from "@/lib/data/study-access";
import { newAnnotator, watchPageErrors } from "./workspace-fixtures";

function expectCoefficients(table: PageTable, coefficients: readonly CoefficientReport[], label: string) {
  expect(table.rows.map((r) => r.key)).toEqual(coefficients.map((c) => c.key));
  for (const c of coefficients) {
    const cells = row(table, c.key);
    expectNumber(cells.value, c.value, `${label} ${c.key} value`);
    expectNumber(cells.ciLow, c.ci?.low, `${label} ${c.key} CI low`);
    expectNumber(cells.ciHigh, c.ci?.high, `${label} ${c.key} CI high`);
    expect(cells.n.value, `${label} ${c.key} n`).toBe(String(c.n));
    expect(cells.method.text, `${label} ${c.key} method`).toBe(c.method);
  }
}

test("the agreement dashboard shows the agreement CLI's numbers for every task and question, each with its chart", async ({ page }) => {
  const errors = watchPageErrors(page);
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies/demo");
  await page.getByRole("navigation", { name: "Study tools" }).getByRole("link", { name: "Agreement" }).click();
  await expect(page.getByRole("heading", { name: "Agreement", level: 1 })).toBeVisible();
  await expectComplete(page, "agreement-report");
  const expected = await cli<AgreementReport>(["agreement", "--study", "demo", "--json"]);

  const questions = expected.tasks.flatMap((t) => t.questions);
  expect(questions.length).toBeGreaterThanOrEqual(4);
  // Each question's pairwise, confusion, window and disagreement figures are drawn when opened.
  await expectCharts(page, "", 0);
  await openQuestionDetails(page);
  await expectCharts(page, "", questions.length);

  for (const task of expected.tasks) {
    await expect(page.getByTestId(`task-${task.task}`)).toBeVisible();
    for (const q of task.questions) {
      const qid = questionId(q);
      const label = `${q.task}/${q.question}`;
      await expectCharts(page, `[data-testid="question-${qid}"]`, 1);
      expectCoefficients(await readTable(page, `coefficients-${qid}`), q.coefficients, label);
      if (q.reliabilitySet) expectCoefficients(await readTable(page, `reliability-${qid}`), q.reliabilitySet.coefficients, `${label} reliability set`);

      const pairwise = await readTable(page, `pairwise-${qid}`);
      expect(pairwise.rows.map((r) => r.key)).toEqual(q.raters.map((r) => r.id));
      q.raters.forEach((a, i) =>
        q.raters.forEach((b, j) => {
          const cell = row(pairwise, a.id)[b.id];
          const expectedCell = q.pairwise.matrix[i][j];
          expectNumber(cell, expectedCell?.value ?? null, `${label} pairwise ${a.name}/${b.name}`);
          if (expectedCell) expect(cell.n).toBe(String(expectedCell.n));
        }),
      );

      if (q.confusion) {
        const confusion = await readTable(page, `confusion-${qid}`);
        q.confusion.categories.forEach((cat, i) => q.confusion?.categories.forEach((other, j) => expect(row(confusion, String(cat))[String(other)].value, `${label} confusion ${cat}/${other}`).toBe(String(q.confusion?.counts[i][j]))));
      }

      const windows = await readTable(page, `windows-${qid}`);
      expect(windows.rows.map((r) => r.key)).toEqual(q.windows.map((b) => String(b.window)));
      for (const b of q.windows) {
        const cells = row(windows, String(b.window));
        expect(cells.items.value).toBe(String(b.items));
        expect(cells.firstItem.text).toBe(b.firstItem);
        for (const c of b.coefficients) expectNumber(cells[c.key], c.value, `${label} window ${b.window} ${c.key}`);
      }

      const disagreements = await readTable(page, `disagreements-${qid}`);
      expect(disagreements.rows.map((r) => r.key)).toEqual(q.disagreements.map((d) => d.item.id));
      for (const d of q.disagreements) {
        const cells = row(disagreements, d.item.id);
        expect(cells.item.text).toBe(d.item.label);
        expect(cells.item.href).toBe(q.task === "CLAIM_VERIFICATION" ? `/studies/demo/consolidate/${d.item.codeChangeId}` : `/studies/demo#change-${encodeURIComponent(d.item.codeChangeExternalId)}`);
        expectNumber(cells.agreement, d.agreement, `${label} disagreement ${d.item.label}`);
        expectNumber(cells.range, d.range, `${label} disagreement range ${d.item.label}`);
      }
    }
    if (task.claimQuality) {
      const table = await readTable(page, "claim-quality");
      const rows = [...task.claimQuality.byLanguage, task.claimQuality.overall];
      expect(table.rows.map((r) => r.key)).toEqual(rows.map((r) => r.language));
      for (const r of rows) {
        const cells = row(table, r.language);
        expect(cells.claims.value).toBe(String(r.claims));
        expect(cells.correct.value).toBe(String(r.counts.correct));
        expect(cells.judged.value).toBe(String(r.rates.judged));
        expectNumber(cells.accuracy, r.rates.accuracy, `claim accuracy ${r.language}`, formatPercent);
        expectNumber(cells.error, r.rates.errorRate, `claim error ${r.language}`, formatPercent);
        expectNumber(cells.unverifiableRate, r.rates.unverifiableRate, `claim unverifiable ${r.language}`, formatPercent);
        expectNumber(cells.missing, r.rates.missingRate, `claim missing ${r.language}`, formatPercent);
      }
    }
  }
  expect(errors).toEqual([]);
});

test("one task with smaller windows equals the library's report, and so does the JSON route", async ({ page }) => {
  useTestDatabaseForLib();
  const study = await requireStudy({ slug: "demo" }, testDb());
  const expected = await agreementReport(study.id, { task: "REVIEW_RATING", windowSize: 8, ...(await reportItemSets(COMMAND_LINE, "demo")) }, testDb());
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies/demo/agreement?task=REVIEW_RATING&windowSize=8");
  await expectComplete(page, "agreement-report");
  await expect(page.getByTestId("task-CLAIM_VERIFICATION")).toHaveCount(0);
  const [task] = expected.tasks;
  await openQuestionDetails(page);
  await expectCharts(page, "", task.questions.length);
  for (const q of task.questions) {
    expect(q.windows.length).toBeGreaterThan(1);
    const windows = await readTable(page, `windows-${questionId(q)}`);
    expect(windows.rows).toHaveLength(q.windows.length);
    for (const b of q.windows) for (const c of b.coefficients) expectNumber(row(windows, String(b.window))[c.key], c.value, `${q.question} window ${b.window} ${c.key}`);
    // One line point per window and coefficient.
    await expect(page.locator(`[data-testid="question-${questionId(q)}"] figure .recharts-line-dot`)).toHaveCount(q.windows.reduce((n, b) => n + b.coefficients.filter((c) => c.value !== null).length, 0));
  }

  const response = await page.request.get("/api/studies/demo/agreement?task=REVIEW_RATING&windowSize=8");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual(JSON.parse(JSON.stringify(expected)));
});

test("Download CSV gives the rows of the table, raw numbers included", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies/demo/agreement");
  await expectComplete(page, "agreement-report");
  const section = page.getByTestId("question-review_rating-relevance");
  await expect(section).toBeVisible();
  await openQuestionDetails(page, '[data-testid="question-review_rating-relevance"]');

  for (const [testId, title] of [
    ["coefficients-review_rating-relevance", "Agreement coefficients"],
    ["confusion-review_rating-relevance", null],
    ["disagreements-review_rating-relevance", null],
  ] as const) {
    const table = await readTable(page, testId);
    const heading = title ?? (await page.locator(`[id="${testId}-title"]`).innerText());
    const download = page.waitForEvent("download");
    await section.getByRole("button", { name: `Download CSV: ${heading}`, exact: true }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^demo-agreement-review_rating-relevance-.*\.csv$/);
    const { parse } = await import("csv-parse/sync");
    const text = Buffer.concat(await (await file.createReadStream()).toArray()).toString("utf8");
    expectCsvMatchesTable(parse(text) as string[][], table);
  }

  const claims = await readTable(page, "claim-quality");
  const csv = await downloadCsv(page, "Claim quality per language (CRScore Table 1)");
  expect(csv.name).toBe("demo-claim-quality.csv");
  expectCsvMatchesTable(csv.rows, claims);
});

test("the dashboard follows new annotations by itself (auto-refresh) and with Refresh now", async ({ page }) => {
  useTestDatabaseForLib();
  const db = testDb();
  const study = await requireStudy({ slug: "demo" }, db);
  const { accountId } = await newAnnotator("dashboard-grader");
  try {
    await signIn(page, E2E_ACCOUNTS.lead);
    await page.goto("/studies/demo/agreement?task=REFERENCE_GRADING");
    const before = (await agreementReport(study.id, { task: "REFERENCE_GRADING" }, db)).tasks[0].questions[0];
    await openQuestionDetails(page);
    await expect(page.getByTestId("pairwise-reference_grading-grade").locator("tbody tr")).toHaveCount(before.raters.length);
    await expectComplete(page, "agreement-report");

    const graded = await db.referenceGrade.findMany({ where: { review: { codeChange: { studyId: study.id } } }, select: { reviewId: true, grade: true }, distinct: ["reviewId"], take: 6 });
    await db.referenceGrade.createMany({ data: graded.map((g, i) => ({ annotatorId: accountId, reviewId: g.reviewId, grade: i % 2 === 0 ? g.grade : Math.min(5, g.grade + 1) })) });
    const after = (await agreementReport(study.id, { task: "REFERENCE_GRADING" }, db)).tasks[0].questions[0];
    expect(after.raters).toHaveLength(before.raters.length + 1);

    // No reload: the page re-renders itself every 10 s.
    await expect(page.getByTestId("pairwise-reference_grading-grade").locator("tbody tr")).toHaveCount(after.raters.length, { timeout: 20_000 });
    await expectComplete(page, "agreement-report");
    expectCoefficients(await readTable(page, "coefficients-reference_grading-grade"), after.coefficients, "after new grades");

    await db.referenceGrade.deleteMany({ where: { annotatorId: accountId } });
    await page.getByRole("button", { name: "Refresh now" }).click();
    await expect(page.getByTestId("pairwise-reference_grading-grade").locator("tbody tr")).toHaveCount(before.raters.length);
    await expectComplete(page, "agreement-report");
    expectCoefficients(await readTable(page, "coefficients-reference_grading-grade"), before.coefficients, "after removing them");
  } finally {
    await db.account.delete({ where: { id: accountId } });
  }
});
