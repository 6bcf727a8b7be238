/**
 * Backpressure in the browser: while the server answers 503 with Retry-After, the
 * workspace says it is waiting ("Server busy, retrying in N s…"), keeps every change, waits at
 * least the Retry-After between attempts, and then stores the newest value once through the real
 * server. Playwright's interception only answers the first two saves with 503 in front of the
 * real server; every later save goes through to it.
 */
import { expect, test } from "@playwright/test";
import { testDb } from "./fixtures";
import { assignmentFor, demoChange, expectSaved, keys, openWorkspace } from "./workspace-fixtures";

test("a busy server: the waiting state with its countdown, retries after Retry-After, the newest value stored once", async ({ page }) => {
  const change = await demoChange({ index: 6 });
  const a = await assignmentFor("busy", "REFERENCE_GRADING", change.id);
  await openWorkspace(page, a);
  const attempts: number[] = [];
  await page.route("**/api/annotations", (route) => {
    attempts.push(Date.now());
    if (attempts.length > 2) return route.continue();
    return route.fulfill({
      status: 503,
      headers: { "retry-after": "2", "content-type": "application/json" },
      body: JSON.stringify({ error: "The server is busy; nothing was saved. Retrying shortly is safe.", code: "UNAVAILABLE" }),
    });
  });

  await keys(page, "3");
  const status = page.getByTestId("save-status");
  await expect(status).toHaveAttribute("data-retry", "busy");
  await expect(status).toHaveText(/Server busy, retrying in [12] s… your changes are kept/);
  expect(await testDb().referenceGrade.count({ where: { annotatorId: a.accountId } })).toBe(0);
  // A change while the server is busy is kept and goes with the retry.
  await keys(page, "k", "4");
  await expect.poll(() => attempts.length).toBe(2);
  await expect(status).toHaveAttribute("data-retry", "busy");

  await expect(status).toHaveAttribute("data-state", "saved", { timeout: 20_000 });
  await expectSaved(page);
  expect(attempts.length).toBe(3);
  // Never sooner than the server's Retry-After of 2 s.
  for (let i = 1; i < attempts.length; i++) expect(attempts[i] - attempts[i - 1]).toBeGreaterThanOrEqual(1900);
  const grades = await testDb().referenceGrade.findMany({ where: { annotatorId: a.accountId } });
  expect(grades).toHaveLength(1);
  expect(grades[0]).toMatchObject({ grade: 4, version: 1 });
  const history = await testDb().annotationHistory.findMany({ where: { kind: "REFERENCE_GRADE", annotationId: grades[0].id } });
  expect(history.map((h) => h.action)).toEqual(["CREATE"]);
});
