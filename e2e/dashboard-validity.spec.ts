/**
 * The validity dashboard renders exactly the `validity` CLI's report (and the library's) for a
 * metric and a human question of the demo study, with its scatter plot and Figure 8 chart,
 * every section of the report, and CSV downloads holding the table's cells.
 */
import { expect, test } from "@playwright/test";
import { formatCount, formatP } from "@/components/dashboard/format";
import { SWEEP_ROW_LABELS } from "@/components/dashboard/validity-tables";
import type { ValidityReport, CorrelationSet } from "@/lib/analysis";
import { validityReport } from "@/lib/data/reports";
import { requireStudy } from "@/lib/data/studies";
import { cli, downloadCsv, expectCharts, expectComplete, expectCsvMatchesTable, expectNumber, type PageTable, readTable, row, useTestDatabaseForLib } from "./dashboard-helpers";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { watchPageErrors } from "./workspace-fixtures";

test.beforeAll(async () => {
  // Scores for the demo study (idempotent: an already complete run computes nothing).
  test.setTimeout(120_000);
  await cli(["metrics", "--study", "demo", "--metric", "bleu-gradedreviews,crscore"]);
});

function expectCorrelations(table: PageTable, key: string, set: CorrelationSet) {
  const cells = row(table, key);
  expect(cells.n.value, `${key} n`).toBe(String(set.n));
  for (const test of ["spearman", "kendall", "pearson"] as const) {
    expectNumber(cells[test], set[test].statistic, `${key} ${test}`);
    expectNumber(cells[`${test}P`], set[test].pValue, `${key} ${test} p`, formatP);
    expectNumber(cells[`${test}Low`], set[test].ci?.low, `${key} ${test} CI low`);
    expectNumber(cells[`${test}High`], set[test].ci?.high, `${key} ${test} CI high`);
  }
}

async function expectReport(page: import("@playwright/test").Page, r: ValidityReport) {
  await expectComplete(page, "validity-report");
  await expect(page.getByTestId("metric-label")).toHaveText(r.metric.label);
  await expect(page.getByTestId("metric-signature")).toHaveText(r.metric.signature);
  await expectCharts(page, '[data-testid="validity-report"]', 2);

  const correlations = await readTable(page, "correlations");
  expect(correlations.rows.map((x) => x.key)).toEqual(["overall", ...r.correlations.byLanguage.map((l) => `language:${l.language}`)]);
  expectCorrelations(correlations, "overall", r.correlations.overall);
  for (const l of r.correlations.byLanguage) expectCorrelations(correlations, `language:${l.language}`, l);

  const systems = await readTable(page, "systems");
  expect(systems.rows.map((x) => x.key)).toEqual(r.systems.rows.map((s) => s.system));
  for (const s of r.systems.rows) {
    const cells = row(systems, s.system);
    expectNumber(cells.metricMean, s.metricMean, `${s.system} metric mean`);
    expectNumber(cells.humanMean, s.humanMean, `${s.system} human mean`);
    expectNumber(cells.metricRank, s.metricRank, `${s.system} metric rank`, formatCount);
    expectNumber(cells.humanRank, s.humanRank, `${s.system} human rank`, formatCount);
    expect(cells.n.value).toBe(String(s.n));
  }
  const ranks = await readTable(page, "rank-correlation");
  for (const test of ["spearman", "kendall"] as const) {
    expectNumber(row(ranks, test).statistic, r.systems[test].statistic, `system ${test}`);
    expectNumber(row(ranks, test).p, r.systems[test].pValue, `system ${test} p`, formatP);
  }

  const levels = await readTable(page, "levels");
  expect(levels.rows.map((x) => x.key)).toEqual(r.byHumanLevel.map((l) => String(l.level)));
  for (const l of r.byHumanLevel) for (const f of ["mean", "min", "q1", "median", "q3", "max"] as const) expectNumber(row(levels, String(l.level))[f], l[f], `level ${l.level} ${f}`);

  const ksD = await readTable(page, "ks-statistic");
  const ksP = await readTable(page, "ks-p");
  r.ksMatrix.levels.forEach((a, i) =>
    r.ksMatrix.levels.forEach((b, j) => {
      const cell = r.ksMatrix.matrix[i][j];
      expectNumber(row(ksD, String(a))[String(b)], cell?.statistic ?? null, `KS D ${a}/${b}`);
      expectNumber(row(ksP, String(a))[String(b)], cell?.pValue ?? null, `KS p ${a}/${b}`, formatP);
    }),
  );

  if (r.thresholdSweep) {
    const sweep = await readTable(page, "threshold-sweep");
    expect(sweep.rows).toHaveLength(r.thresholdSweep.length);
    r.thresholdSweep.forEach((s, i) => {
      const cells = sweep.rows[i].cells;
      expectNumber(cells.tau, s.tau, `sweep τ ${s.tau}`);
      expect(cells.stored.text).toBe(SWEEP_ROW_LABELS[s.kind]);
      expectNumber(cells.meanMetric, s.meanMetric, `sweep mean ${s.tau}`);
      expectNumber(cells.spearman, s.spearman.statistic, `sweep spearman ${s.tau}`);
      expectNumber(cells.kendallP, s.kendall.pValue, `sweep kendall p ${s.tau}`, formatP);
    });
  } else {
    await expect(page.getByTestId("threshold-sweep")).toHaveCount(0);
  }

  const a = r.humanMetricAgreement;
  if (a) {
    const hm = await readTable(page, "human-metric");
    for (const p of a.humanHuman.pairs) expectNumber(row(hm, `hh:${p.a}:${p.b}`).kappa, p.value, "human-human pair");
    for (const p of a.humanMetric.pairs) expectNumber(row(hm, `hm:${p.annotator}`).kappa, p.value, "human-metric pair");
    expectNumber(row(hm, "hh:min").kappa, a.humanHuman.min, "human-human min");
    expectNumber(row(hm, "hh:max").kappa, a.humanHuman.max, "human-human max");
    expectNumber(row(hm, "hh:mean").kappa, a.humanHuman.mean, "human-human mean");
    expectNumber(row(hm, "hm:mean").kappa, a.humanMetric.mean, "human-metric mean");
  }
}

test("CRScore Rel against relevance: the validity dashboard shows the validity CLI's numbers, labelled as offline TF-IDF", async ({ page }) => {
  const errors = watchPageErrors(page);
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies/demo");
  await page.getByRole("navigation", { name: "Study tools" }).getByRole("link", { name: "Validity" }).click();
  const form = page.getByRole("form", { name: "Choose metric and question" });
  await form.getByLabel("Metric").selectOption("crscore-rel");
  await form.getByLabel("Human question").selectOption("relevance");
  await form.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/metric=crscore-rel/);

  const expected = await cli<ValidityReport>(["validity", "--study", "demo", "--metric", "crscore-rel", "--human", "relevance", "--json"]);
  expect(expected.counts.paired).toBeGreaterThan(5);
  expect(expected.thresholdSweep).not.toBeNull();
  await expect(page.getByTestId("offline-embedder")).toBeVisible();
  await expectReport(page, expected);
  // One scatter point per paired review.
  await expect(page.locator('[data-testid="validity-report"] figure .recharts-scatter-symbol')).toHaveCount(expected.points.length);
  expect(errors).toEqual([]);
});

test("BLEU against the reference grade at the system level equals the library's report and the JSON route", async ({ page }) => {
  useTestDatabaseForLib();
  const study = await requireStudy({ slug: "demo" }, testDb());
  const expected = await validityReport(study.id, { metric: "bleu-gradedreviews", human: "grade", level: "system" }, testDb());
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies/demo/validity?metric=bleu-gradedreviews&human=grade&level=system");
  await expect(page.getByTestId("offline-embedder")).toHaveCount(0);
  await expectReport(page, expected);

  const response = await page.request.get("/api/studies/demo/validity?metric=bleu-gradedreviews&human=grade&level=system");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual(JSON.parse(JSON.stringify(expected)));
  expect((await page.request.get("/api/studies/demo/validity?metric=no-such-metric&human=grade")).status()).toBe(404);
  // The route's earlier address redirects, with its query.
  const retired = "correlate";
  const moved = await page.request.get(`/api/studies/demo/${retired}?metric=bleu-gradedreviews&human=grade&level=system`, { maxRedirects: 0 });
  expect(moved.status()).toBe(308);
  expect(moved.headers().location).toBe("/api/studies/demo/validity?metric=bleu-gradedreviews&human=grade&level=system");
});

test("validity tables download as CSV with their rows", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies/demo/validity?metric=crscore-rel&human=relevance");
  await expectComplete(page, "validity-report");
  for (const [id, title] of [
    ["correlations", "Correlations over reviews, overall and per language"],
    ["systems", "System-level ranking: metric and human side by side"],
    ["ks-p", "Kolmogorov-Smirnov p-value between human levels"],
    ["threshold-sweep", "CRScore Table 18: correlation with the human score across thresholds τ (the paper's grid, the stored τ, τ_GT, τ_best)"],
  ] as const) {
    const table = await readTable(page, id);
    const csv = await downloadCsv(page, title);
    expect(csv.name).toMatch(/^demo-validity-crscore-rel-relevance-review-.*\.csv$/);
    expectCsvMatchesTable(csv.rows, table);
  }
});
