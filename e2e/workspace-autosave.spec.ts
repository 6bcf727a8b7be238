/**
 * No lost work: a save during a network cut shows "failed", is retried once the network is
 * back and stored exactly once; a reload before the save keeps the value; two sessions of one
 * annotator editing the same annotation get a conflict instead of an overwrite. The save badge
 * keeps its size in every state (no layout shift).
 */
import { expect, test } from "@playwright/test";
import { signIn, testDb } from "./fixtures";
import { assignmentFor, demoChange, expectSaved, gotoWorkspace, keys, openWorkspace } from "./workspace-fixtures";

test("network cut during a save: failed state, restored, the value stored once", async ({ page }) => {
  const change = await demoChange({ index: 3 });
  const a = await assignmentFor("netcut", "REFERENCE_GRADING", change.id);
  await openWorkspace(page, a);
  const layout = () => Promise.all([page.getByTestId("save-status").boundingBox(), page.getByRole("region", { name: "Code change" }).boundingBox()]);
  const before = await layout();
  let attempts = 0;
  await page.route("**/api/annotations", (route) => {
    attempts++;
    return route.abort("internetdisconnected");
  });
  await keys(page, "3");
  await expect(page.getByTestId("save-status")).toHaveAttribute("data-state", "failed");
  await expect(page.getByTestId("save-status")).toContainText("retrying");
  // the longer message and the retry button open over the page: the badge and the item do not move
  await expect(page.getByTestId("save-problem").getByRole("button", { name: "retry now" })).toBeVisible();
  expect(await layout()).toEqual(before);
  expect(await testDb().referenceGrade.count({ where: { annotatorId: a.accountId } })).toBe(0);
  // the unsaved value is kept in the page and in local storage meanwhile
  const drafts = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("crjudge:drafts:")).map((k) => localStorage.getItem(k)));
  expect(drafts.join()).toContain('"grade":3');
  await expect.poll(() => attempts).toBeGreaterThanOrEqual(2);

  await page.unroute("**/api/annotations");
  await expectSaved(page);
  const grades = await testDb().referenceGrade.findMany({ where: { annotatorId: a.accountId } });
  expect(grades).toHaveLength(1);
  expect(grades[0]).toMatchObject({ grade: 3, version: 1 });
  const history = await testDb().annotationHistory.findMany({ where: { kind: "REFERENCE_GRADE", annotationId: grades[0].id } });
  expect(history.map((h) => h.action)).toEqual(["CREATE"]);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("crjudge:drafts:")).length)).toBe(0);
});

test("a reload before the save keeps the unsaved value and saves it", async ({ page }) => {
  const change = await demoChange({ index: 4 });
  const a = await assignmentFor("reload", "COMMENT_FILTERING", change.id);
  await openWorkspace(page, a);
  // every save fails until after the reload, so no save can reach the server first (a held
  // request let go before the reload could, on a slow machine, and the reload then had nothing to save)
  await page.route("**/api/annotations", (route) => route.abort("internetdisconnected"));
  await keys(page, "m");
  await page.keyboard.type("kept across the reload");
  await keys(page, "Escape", "1");
  await expect(page.getByTestId("save-status")).toHaveAttribute("data-state", "failed");
  await page.reload();
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  const first = page.getByTestId("review").first();
  await expect(first.getByRole("radio", { name: "1 High quality" })).toHaveAttribute("aria-checked", "true");
  await expect(first.getByRole("textbox")).toHaveValue("kept across the reload");
  expect(await testDb().commentFilteringLabel.count({ where: { annotatorId: a.accountId } })).toBe(0);
  await page.unroute("**/api/annotations");
  await expectSaved(page);
  const labels = await testDb().commentFilteringLabel.findMany({ where: { annotatorId: a.accountId } });
  expect(labels).toHaveLength(1);
  expect(labels[0]).toMatchObject({ highQuality: true, justification: "kept across the reload" });
});

test("a reload before the saves land opens on the first review the kept answers leave without a grade", async ({ page }) => {
  const change = await demoChange({ index: 3 });
  const a = await assignmentFor("reload-cursor", "REFERENCE_GRADING", change.id);
  await openWorkspace(page, a);
  const reviews = page.getByTestId("review");
  // the server is out of reach until after the reload: the two grades are only kept in the browser
  await page.route("**/api/annotations", (route) => route.abort("internetdisconnected"));
  await keys(page, "2", "3");
  await expect(page.getByTestId("save-status")).toHaveAttribute("data-state", "failed");
  await page.reload();
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await expect(reviews.nth(1).getByRole("radio", { name: "3" })).toHaveAttribute("aria-checked", "true");
  // not on the second review, whose kept grade the next digit would replace
  await expect(reviews.nth(2)).toHaveAttribute("aria-current", "true");
  await page.unroute("**/api/annotations");
  await keys(page, "4");
  await expectSaved(page);
  await expect(reviews.nth(2).getByRole("radio", { name: "4" })).toHaveAttribute("aria-checked", "true");
  // three reviews graded, none replaced
  const grades = await testDb().referenceGrade.findMany({ where: { annotatorId: a.accountId } });
  expect(grades.map((g) => g.grade).sort()).toEqual([2, 3, 4]);
});

test("two sessions of one annotator: the second save is refused with both values shown, history holds both", async ({ browser }) => {
  const change = await demoChange({ index: 5 });
  const a = await assignmentFor("conflict", "REFERENCE_GRADING", change.id);
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  const pageA = await contextA.newPage();
  const pageB = await contextB.newPage();
  await signIn(pageA, a.account);
  await signIn(pageB, a.account);
  await gotoWorkspace(pageA, a.assignmentId);
  await gotoWorkspace(pageB, a.assignmentId);

  await keys(pageA, "3");
  await expectSaved(pageA);
  await keys(pageB, "5");
  await expect(pageB.getByTestId("save-status")).toHaveAttribute("data-state", "conflict");
  const conflict = pageB.getByTestId("conflict");
  await expect(conflict).toBeVisible();
  await expect(conflict.getByTestId("conflict-stored")).toHaveText(/grade 3/);
  await expect(conflict.getByTestId("conflict-mine")).toHaveText(/grade 5/);

  const grade = await testDb().referenceGrade.findFirstOrThrow({ where: { annotatorId: a.accountId } });
  expect(grade).toMatchObject({ grade: 3, version: 1 });
  const history = await testDb().annotationHistory.findMany({ where: { kind: "REFERENCE_GRADE", annotationId: grade.id }, orderBy: { id: "asc" } });
  expect(history.map((h) => [h.action, (h.newValue as { grade: number }).grade])).toEqual([
    ["CREATE", 3],
    ["CONFLICT", 5],
  ]);
  expect(history[1].oldValue).toMatchObject({ grade: 3 });

  // the annotator decides: keep theirs over the stored value
  await conflict.getByRole("button", { name: /Keep mine/ }).click();
  await expectSaved(pageB);
  expect(await testDb().referenceGrade.findFirstOrThrow({ where: { annotatorId: a.accountId } })).toMatchObject({ grade: 5, version: 2 });
  await contextA.close();
  await contextB.close();
});

test("a claim typed into 'add a missing claim', then Esc and a reload, is still there; the status says it is not saved", async ({ page }) => {
  const change = await demoChange({ mostClaims: true });
  const a = await assignmentFor("addclaim", "CLAIM_VERIFICATION", change.id);
  await openWorkspace(page, a);
  // the server is out of reach until after the reload
  await page.route("**/api/annotations", (route) => route.abort("internetdisconnected"));
  await keys(page, "a");
  await page.keyboard.type("The change also renames the helper");
  await keys(page, "Escape");
  await expect(page.getByLabel("Add a missing claim")).not.toBeFocused();
  await expect(page.getByLabel("Added claim 1")).toHaveValue("The change also renames the helper");
  await expect(page.getByTestId("save-status")).toHaveAttribute("data-state", "failed");
  await expect(page.getByTestId("save-status")).not.toContainText("saved");
  await page.reload();
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await expect(page.getByLabel("Added claim 1")).toHaveValue("The change also renames the helper");
  await expect(page.getByTestId("save-status")).not.toHaveAttribute("data-state", "saved");
  expect(await testDb().pseudoReference.count({ where: { addedById: a.accountId } })).toBe(0);
  await page.unroute("**/api/annotations");
  await expectSaved(page);
  const added = await testDb().pseudoReference.findMany({ where: { addedById: a.accountId } });
  expect(added.map((r) => [r.kind, r.text, r.correctsId])).toEqual([["ANNOTATOR_ADDED", "The change also renames the helper", null]]);
});

test("an added claim is saved after a pause in typing, not only on Enter", async ({ page }) => {
  const change = await demoChange({ mostClaims: true });
  const a = await assignmentFor("pause", "CLAIM_VERIFICATION", change.id);
  await openWorkspace(page, a);
  await keys(page, "a");
  await page.keyboard.type("Saved while the box still has focus");
  await expectSaved(page);
  await expect(page.getByLabel("Add a missing claim")).toBeFocused();
  await expect.poll(async () => (await testDb().pseudoReference.findMany({ where: { addedById: a.accountId } })).map((r) => r.text)).toEqual(["Saved while the box still has focus"]);
});

test("a comment written before its grade is a draft: said so, kept across a reload, saved with the grade", async ({ page }) => {
  const change = await demoChange({ index: 2 });
  const a = await assignmentFor("draft", "REFERENCE_GRADING", change.id);
  await openWorkspace(page, a);
  await keys(page, "m");
  await page.keyboard.type("same idea as the reference");
  await keys(page, "Escape");
  const status = page.getByTestId("save-status");
  await expect(status).toHaveAttribute("data-state", "draft");
  await expect(status).toHaveText("1 unsaved draft");
  await expect(status).toHaveAttribute("title", /Review A: kept in this browser until the review has a grade/);
  await page.reload();
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await expect(page.getByLabel("Comment on Review A")).toHaveValue("same idea as the reference");
  await expect(status).toHaveText("1 unsaved draft");
  await keys(page, "4");
  await expectSaved(page);
  const grades = await testDb().referenceGrade.findMany({ where: { annotatorId: a.accountId } });
  expect(grades.map((g) => [g.grade, g.comment])).toEqual([[4, "same idea as the reference"]]);
});

test("submit waits for saves in flight, then submits", async ({ page }) => {
  const change = await demoChange({ index: 3 });
  const generated = change.reviews.filter((r) => !r.isReference);
  const a = await assignmentFor("inflight", "REFERENCE_GRADING", change.id);
  await openWorkspace(page, a);
  // every save takes 2 s to reach the server
  await page.route("**/api/annotations", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await route.continue();
  });
  for (let i = 0; i < generated.length; i++) await keys(page, "2");
  await expect(page.getByTestId("save-status")).toHaveAttribute("data-state", "saving");
  await keys(page, "Control+Enter");
  await expect(page).toHaveURL(/\/annotate$/);
  expect((await testDb().assignment.findUniqueOrThrow({ where: { id: a.assignmentId } })).status).toBe("DONE");
  expect(await testDb().referenceGrade.count({ where: { annotatorId: a.accountId, grade: 2 } })).toBe(generated.length);
});
