/** Dashboards are for leads and admins only: annotators get 403 on every page and route, visitors 401. */
import { expect, test } from "@playwright/test";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";

const PAGES = ["/studies/demo/agreement", "/studies/demo/validity", "/studies/demo/metrics"];
const GET_ROUTES = [
  "/api/studies/demo/agreement",
  "/api/studies/demo/validity?metric=bleu-gradedreviews&human=grade",
  "/api/studies/demo/metric-runs",
  "/api/studies/demo/metric-runs/some-run",
];

test("an annotator gets 403 on every dashboard page and route and cannot start a metric run", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.ann1);
  for (const path of PAGES) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  }
  for (const path of GET_ROUTES) expect((await page.request.get(path)).status(), path).toBe(403);
  const runsBefore = await testDb().metricRun.count();
  expect((await page.request.post("/api/studies/demo/metric-runs", { data: { metrics: ["exact-match"] } })).status()).toBe(403);
  expect(await testDb().metricRun.count()).toBe(runsBefore);
});

test("signed-out visitors are sent to sign in and dashboard routes answer 401", async ({ page }) => {
  for (const path of PAGES) {
    await page.goto(path);
    await expect(page).toHaveURL(`/signin?callbackUrl=${encodeURIComponent(path)}`);
  }
  for (const path of GET_ROUTES) expect((await page.request.get(path)).status(), path).toBe(401);
});

test("an admin sees the dashboards too", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.admin);
  for (const path of PAGES) expect((await page.goto(path))?.status(), path).toBe(200);
});
