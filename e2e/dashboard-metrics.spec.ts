/**
 * Metric runs from the web: a lead starts a run on the page and watches it progress to the end
 * without reloading (the page enqueues it, the metric worker computes it, as under `npm start`);
 * the JSON route starts and reports runs too.
 */
import { expect, test } from "@playwright/test";
import { downloadCsv, expectCsvMatchesTable, readTable, row, startMetricWorker } from "./dashboard-helpers";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { watchPageErrors } from "./workspace-fixtures";

let stopWorker: (() => Promise<void>) | undefined;
test.beforeAll(async () => {
  stopWorker = await startMetricWorker();
});
test.afterAll(async () => {
  await stopWorker?.();
});

test("a lead starts a metric run on the page and sees it progress to done", async ({ page }) => {
  const errors = watchPageErrors(page);
  const db = testDb();
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies/demo");
  await page.getByRole("navigation", { name: "Study tools" }).getByRole("link", { name: "Metric runs" }).click();
  await expect(page.getByTestId("embedding-provider")).toContainText("offline TF-IDF default");
  await expect(page.getByTestId("llm-provider")).toContainText("not configured");

  const form = page.getByRole("form", { name: "Start a metric run" });
  await form.getByLabel("chrf", { exact: true }).check();
  await form.getByLabel("edit-distance").check();
  await form.getByLabel("Reviews per job").fill("10");
  await form.getByRole("button", { name: "Start run" }).click();
  await expect(form.getByRole("status")).toContainText(/Started run: \d+ of \d+ reviews to score in \d+ chunk/);

  const run = await db.metricRun.findFirstOrThrow({ where: { study: { slug: "demo" }, metrics: { equals: ["chrf", "edit-distance"] } }, orderBy: { createdAt: "desc" } });
  expect(run.total).toBeGreaterThan(10);
  const runRow = page.getByTestId("metric-runs").locator(`tr[data-row="${run.id}"]`);
  await expect(runRow).toBeVisible();
  // The page refreshes itself every 2 s while the run is queued or running.
  await expect(runRow.locator('td[data-col="status"]')).toHaveText("DONE", { timeout: 30_000 });
  await expect(runRow.getByRole("progressbar")).toHaveAttribute("aria-valuenow", String(run.total));
  await expect(page.getByTestId("polling")).toHaveCount(0);

  const done = await db.metricRun.findUniqueOrThrow({ where: { id: run.id } });
  expect(done.status).toBe("DONE");
  expect(done.done).toBe(done.total);
  const demoReviews = await db.review.findMany({ where: { codeChange: { study: { slug: "demo" } } }, select: { id: true } });
  expect(await db.metricScore.count({ where: { metric: "chrf", reviewId: { in: demoReviews.map((r) => r.id) } } })).toBe(done.total);

  const stored = await readTable(page, "stored-metrics");
  const chrf = stored.rows.find((r) => r.key.startsWith("chrf@"));
  expect(chrf?.cells.scored.value).toBe(String(done.total));
  const runs = await readTable(page, "metric-runs");
  expect(row(runs, run.id).done.value).toBe(String(done.total));
  const csv = await downloadCsv(page, "Metric runs");
  expectCsvMatchesTable(csv.rows, runs);
  expect(errors).toEqual([]);
});

test("the metric-runs route starts a run and reports its progress", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.lead);
  expect((await page.request.post("/api/studies/demo/metric-runs", { data: { metrics: ["no-such-metric"] } })).status()).toBe(400);
  expect((await page.request.post("/api/studies/demo/metric-runs", { data: { metrics: [] } })).status()).toBe(400);

  const response = await page.request.post("/api/studies/demo/metric-runs", { data: { metrics: ["exact-match"] } });
  expect(response.status()).toBe(202);
  const { run } = (await response.json()) as { run: { id: string; total: number; embedding: string } };
  expect(run.embedding).toBe("none (text metrics)");
  await expect
    .poll(async () => ((await (await page.request.get(`/api/studies/demo/metric-runs/${run.id}`)).json()) as { status: string }).status, { timeout: 30_000 })
    .toBe("DONE");
  const list = (await (await page.request.get("/api/studies/demo/metric-runs")).json()) as { embedding: { kind: string }; runs: { id: string; done: number; total: number }[] };
  expect(list.embedding.kind).toBe("offline");
  const listed = list.runs.find((r) => r.id === run.id);
  expect(listed?.done).toBe(listed?.total);
  expect((await page.request.get("/api/studies/demo/metric-runs/not-a-run")).status()).toBe(404);
});
