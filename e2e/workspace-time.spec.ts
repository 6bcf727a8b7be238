/**
 * Time on task: counted in seconds while the tab is visible and the annotator active,
 * shown ticking in the workspace, not counted while the tab is hidden or the annotator idle
 * for a minute, stored for the lead. The page's clock is Playwright's (so seconds are exact);
 * headless Chromium keeps every tab visible, so hiding the tab sets document.visibilityState
 * and sends the browser's visibilitychange event.
 */
import { expect, test, type Page } from "@playwright/test";
import { formatDuration } from "@/components/format";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { assignmentFor, demoChange, openWorkspace } from "./workspace-fixtures";

const shown = async (page: Page) => Number(await page.getByTestId("time-on-task").getAttribute("data-ms"));

async function setVisibility(page: Page, state: "visible" | "hidden") {
  await page.evaluate((s) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => s });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => s === "hidden" });
    document.dispatchEvent(new Event("visibilitychange"));
  }, state);
}

test("the time on task ticks each active second, stops while hidden or idle, and is stored and summed for the lead", async ({ page, browser }) => {
  const change = await demoChange({ index: 2 });
  const a = await assignmentFor("clock", "REFERENCE_GRADING", change.id);
  await page.clock.install({ time: new Date("2026-01-05T09:00:00Z") });
  await openWorkspace(page, a);
  await page.clock.pauseAt(new Date("2026-01-05T10:00:00Z"));
  await page.keyboard.press("Shift");

  const start = await shown(page);
  await page.clock.runFor(3000);
  await expect(page.getByTestId("time-on-task")).toHaveAttribute("data-ms", String(start + 3000));
  await expect(page.getByTestId("time-on-task")).toContainText(/^\d+ s on task$/);

  await setVisibility(page, "hidden");
  await page.clock.runFor(5000);
  expect(await shown(page)).toBe(start + 3000);
  // leaving the tab reported the time counted so far
  await expect.poll(async () => (await testDb().assignment.findUniqueOrThrow({ where: { id: a.assignmentId } })).timeSpentMs).toBe(start + 3000);

  await setVisibility(page, "visible");
  await page.clock.runFor(2000);
  expect(await shown(page)).toBe(start + 5000);

  // no input for a minute: idle, the counter stops
  await page.clock.runFor(90_000);
  const idle = await shown(page);
  expect(idle).toBeLessThanOrEqual(start + 5000 + 60_000);
  await page.clock.runFor(10_000);
  expect(await shown(page)).toBe(idle);
  await page.keyboard.press("Shift");
  await page.clock.runFor(1000);
  expect(await shown(page)).toBe(idle + 1000);
  await expect(page.getByTestId("time-on-task")).toContainText(/^1 min \d\d s on task$/);

  // leaving the page reports the rest; the lead sees the annotator's total in seconds
  const total = await shown(page);
  await page.close({ runBeforeUnload: true });
  await expect.poll(async () => (await testDb().assignment.findUniqueOrThrow({ where: { id: a.assignmentId } })).timeSpentMs).toBe(total);
  const lead = await (await browser.newContext()).newPage();
  await signIn(lead, E2E_ACCOUNTS.admin);
  await lead.goto("/studies/demo");
  await expect(lead.getByRole("row").filter({ hasText: "clock tester" })).toContainText(formatDuration(total));
});
