/**
 * WCAG 2.2 AA on the pages annotators and leads use every hour: axe-core finds no
 * serious or critical violation on the workspace of each task, the agreement and the validity
 * dashboards, and the study settings page.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { openQuestionDetails } from "./dashboard-helpers";
import { E2E_ACCOUNTS, signIn } from "./fixtures";
import { assignmentFor, demoChange, openWorkspace } from "./workspace-fixtures";

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
}

for (const task of ["CLAIM_VERIFICATION", "REFERENCE_GRADING", "COMMENT_FILTERING"] as const) {
  test(`the ${task.toLowerCase().replace("_", " ")} workspace has no serious accessibility violation`, async ({ page }) => {
    const a = await assignmentFor("axe", task, (await demoChange({ mostClaims: true })).id);
    await openWorkspace(page, a);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test("the agreement and validity dashboards have no serious accessibility violation", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, E2E_ACCOUNTS.admin);
  for (const path of ["/studies/demo/agreement", "/studies/demo/validity"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    // With every question's details open: their tables and charts are checked too.
    await openQuestionDetails(page);
    expect(await seriousViolations(page), path).toEqual([]);
  }
});

test("the study settings page has no serious accessibility violation", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.admin);
  await page.goto("/studies/demo/settings");
  await expect(page.getByRole("region", { name: "Guidelines preview" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
