/**
 * The workspace always shows what is stored: Back and forward to an item labelled
 * before show its labels, and a second tab's saves reach the first; neither leads to a false
 * conflict on the next change.
 */
import { expect, test, type Page } from "@playwright/test";
import { testDb } from "./fixtures";
import { assignmentFor, demoChange, expectSaved, gotoWorkspace, keys, openWorkspace } from "./workspace-fixtures";

async function expectLabels(page: Page, labels: boolean[]) {
  const reviews = page.getByTestId("review");
  for (const [i, high] of labels.entries()) {
    await expect(reviews.nth(i).getByRole("radio", { name: high ? "1 High quality" : "0 Low quality" })).toHaveAttribute("aria-checked", "true");
  }
}

test("Back and forward show the stored labels, and the next change saves without a conflict", async ({ page }) => {
  const first = await demoChange({ index: 6 });
  const second = await demoChange({ index: 7 });
  const a = await assignmentFor("back", "COMMENT_FILTERING", first.id);
  const next = await testDb().assignment.create({ data: { studyId: a.studyId, annotatorId: a.accountId, codeChangeId: second.id, task: "COMMENT_FILTERING", position: 1 } });
  await openWorkspace(page, a);

  const count = await page.getByTestId("review").count();
  const labels = Array.from({ length: count }, (_, i) => i % 2 === 0);
  for (const high of labels) await keys(page, high ? "1" : "0");
  await expectSaved(page);
  await keys(page, "n", "n");
  await expect(page).toHaveURL(new RegExp(`/annotate/${next.id}$`));
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");

  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/annotate/${a.assignmentId}$`));
  await expectLabels(page, labels);
  await expect(page.getByTestId("save-status")).not.toHaveText("Nothing to save");
  await page.getByTestId("review").first().getByRole("radio", { name: "0 Low quality" }).click();
  await expectSaved(page);
  await expect(page.getByTestId("conflict")).toHaveCount(0);
  const firstReviewLabel = async () => {
    const rows = await testDb().commentFilteringLabel.findMany({ where: { annotatorId: a.accountId, review: { codeChangeId: first.id } }, orderBy: { updatedAt: "desc" } });
    return rows.find((r) => r.version === 2);
  };
  await expect.poll(async () => (await firstReviewLabel())?.highQuality).toBe(false);

  await page.goForward();
  await expect(page).toHaveURL(new RegExp(`/annotate/${next.id}$`));
  await page.goBack();
  labels[0] = false;
  await expectLabels(page, labels);
  await expect(page.getByTestId("conflict")).toHaveCount(0);
});

test("a second tab's save reaches the first tab, whose next change is no conflict", async ({ page, context }) => {
  const change = await demoChange({ index: 8 });
  const a = await assignmentFor("tabs", "COMMENT_FILTERING", change.id);
  await openWorkspace(page, a);
  const other = await context.newPage();
  await gotoWorkspace(other, a.assignmentId);

  await keys(other, "1");
  await expectSaved(other);
  await expectLabels(page, [true]);
  await keys(page, "0");
  await expectSaved(page);
  await expect(page.getByTestId("conflict")).toHaveCount(0);
  const label = await testDb().commentFilteringLabel.findFirstOrThrow({ where: { annotatorId: a.accountId } });
  expect(label).toMatchObject({ highQuality: false, version: 2 });

  // and again the other way round (a digit moved each tab's cursor on: back to the first review)
  await keys(other, "k", "1");
  await expectSaved(other);
  await expectLabels(page, [true]);
  await expect(page.getByTestId("conflict")).toHaveCount(0);
});
