/**
 * Authorization with forged ids: an annotator can neither read nor write another annotator's
 * assignments or annotations through any page, route or server action. Plus skip with a
 * reason, and the lead's assignment and consolidation pages.
 */
import { expect, test } from "@playwright/test";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { assignmentFor, demoChange, demoStudy, expectSaved, keys, openWorkspace } from "./workspace-fixtures";

test("forged assignment and annotation ids are refused on every workspace page and route; nothing is written", async ({ page }) => {
  const change = await demoChange({ index: 6 });
  const victim = await assignmentFor("victim", "CLAIM_VERIFICATION", change.id);
  const attacker = await assignmentFor("attacker", "CLAIM_VERIFICATION", change.id);
  const claim = change.pseudoReferences.find((r) => r.kind === "CLAIM" || r.kind === "IMPLICATION")!;
  const db = testDb();
  const before = { judgements: await db.claimJudgement.count(), history: await db.annotationHistory.count(), refs: await db.pseudoReference.count() };

  await signIn(page, attacker.account);
  expect((await page.goto(`/annotate/${victim.assignmentId}`))?.status()).toBe(404);
  expect((await page.request.get(`/api/annotations/assignments/${victim.assignmentId}`)).status()).toBe(404);
  const save = (body: object) => page.request.post("/api/annotations", { data: body });
  const judgement = { code: "INCORRECT", necessary: null, errorType: null, note: "forged" };
  expect((await save({ kind: "judgement", assignmentId: victim.assignmentId, targetId: claim.id, baseVersion: 0, value: judgement })).status()).toBe(404);
  expect((await save({ kind: "addedClaim", assignmentId: victim.assignmentId, targetId: "new:x", baseVersion: 0, value: { text: "forged", correctsId: null } })).status()).toBe(404);
  for (const action of ["submit", "skip", "resume", "time"]) {
    const response = await page.request.post(`/api/annotations/assignments/${victim.assignmentId}/${action}`, { data: action === "skip" ? { reason: "forged skip" } : action === "time" ? { deltaMs: 1000 } : {} });
    expect(response.status(), action).toBe(404);
  }
  // a claim of another item through the attacker's own assignment
  const other = await demoChange({ index: 7 });
  const foreignClaim = other.pseudoReferences.find((r) => r.kind === "CLAIM")!;
  expect((await save({ kind: "judgement", assignmentId: attacker.assignmentId, targetId: foreignClaim.id, baseVersion: 0, value: judgement })).status()).toBe(404);
  // the demo annotators' judgements are out of reach too: their ids are not in the attacker's queue
  const demoAssignment = await db.assignment.findFirstOrThrow({ where: { annotator: { email: E2E_ACCOUNTS.ann1.email } } });
  expect((await page.request.get(`/api/annotations/assignments/${demoAssignment.id}`)).status()).toBe(404);

  expect({ judgements: await db.claimJudgement.count(), history: await db.annotationHistory.count(), refs: await db.pseudoReference.count() }).toEqual(before);
  const untouched = await db.assignment.findUniqueOrThrow({ where: { id: victim.assignmentId } });
  expect(untouched).toMatchObject({ status: "PENDING", timeSpentMs: 0, skipReason: null });

  // signed out: 401
  const anonymous = await page.context().browser()!.newContext({ baseURL: test.info().project.use.baseURL });
  expect((await anonymous.request.post("/api/annotations", { data: { kind: "judgement", assignmentId: victim.assignmentId, targetId: claim.id, baseVersion: 0, value: judgement } })).status()).toBe(401);
  await anonymous.close();
});

test("a lead's server action replayed by an annotator is refused and changes nothing", async ({ browser }) => {
  const lead = await browser.newPage();
  await signIn(lead, E2E_ACCOUNTS.lead);
  await lead.goto("/studies/demo/assignments");
  const requestPromise = lead.waitForRequest((r) => r.method() === "POST" && !!r.headers()["next-action"]);
  await lead.getByRole("button", { name: "Save settings" }).click();
  const request = await requestPromise;
  await expect(lead.getByText("Settings saved.")).toBeVisible();
  const study = await demoStudy();

  const annotator = await browser.newPage();
  await signIn(annotator, E2E_ACCOUNTS.ann2);
  const forged = (request.postData() ?? "").replace(/"annotatorsPerItem":\d+/, '"annotatorsPerItem":9').replace(/"reliabilitySetSize":\d+/, '"reliabilitySetSize":99');
  expect(forged).toContain('"annotatorsPerItem":9');
  const response = await annotator.request.post(request.url(), {
    headers: { "next-action": request.headers()["next-action"], "content-type": request.headers()["content-type"] ?? "text/plain;charset=UTF-8", accept: "text/x-component" },
    data: forged,
  });
  expect(await response.text()).toContain("Your role may not do this.");
  const after = await demoStudy();
  expect([after.annotatorsPerItem, after.reliabilitySetSize]).toEqual([study.annotatorsPerItem, study.reliabilitySetSize]);
  // and the lead pages themselves answer 403
  for (const path of ["/studies/demo/assignments", "/studies/demo/consolidate"]) expect((await annotator.goto(path))?.status(), path).toBe(403);
  await lead.close();
  await annotator.close();
});

test("skip with a reason (keyboard), then the lead sees it and reassigns the item", async ({ page, browser }) => {
  const change = await demoChange({ index: 0 });
  const a = await assignmentFor("skipper", "COMMENT_FILTERING", change.id);
  await openWorkspace(page, a);
  await keys(page, "1");
  await expectSaved(page);
  await keys(page, "s");
  await expect(page.getByLabel("Reason for skipping")).toBeFocused();
  await page.keyboard.type("the diff does not load the whole file");
  await keys(page, "Enter");
  await expect(page).toHaveURL(/\/annotate$/);
  expect(await testDb().assignment.findUniqueOrThrow({ where: { id: a.assignmentId } })).toMatchObject({ status: "SKIPPED", skipReason: "the diff does not load the whole file" });

  const lead = await browser.newPage();
  await signIn(lead, E2E_ACCOUNTS.lead);
  await lead.goto("/studies/demo");
  await lead.getByRole("link", { name: "Assignments and progress" }).click();
  await expect(lead.getByTestId("progress-row").filter({ hasText: a.account.email })).toBeVisible();
  // (select options name every annotator, so find the list by its summary)
  const listOf = (name: string) => lead.locator("details").filter({ has: lead.locator("summary", { hasText: name }) });
  const list = listOf("skipper tester");
  await list.locator("summary").click();
  const row = list.getByTestId("assignment-admin-row");
  await expect(row).toContainText("the diff does not load the whole file");
  const target = await testDb().account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.ann2.email } });
  const clash = await testDb().assignment.findFirst({ where: { annotatorId: target.id, codeChangeId: change.id, task: "COMMENT_FILTERING" } });
  const other = clash ? await assignmentFor("receiver", "CLAIM_VERIFICATION", (await demoChange({ index: 7 })).id) : null;
  await lead.reload();
  await listOf("skipper tester").locator("summary").click();
  const form = listOf("skipper tester").getByRole("form", { name: "Reassign" });
  await form.getByLabel("Reassign to").selectOption(other ? other.accountId : target.id);
  await form.getByRole("button", { name: "Reassign" }).click();
  await expect.poll(async () => (await testDb().assignment.findUniqueOrThrow({ where: { id: a.assignmentId } })).annotatorId).toBe(other ? other.accountId : target.id);
  expect(await testDb().assignment.findUniqueOrThrow({ where: { id: a.assignmentId } })).toMatchObject({ status: "PENDING", skipReason: null });
  await lead.close();
});

test("a lead consolidates an item's stage 1; annotators then rate against the consolidated set", async ({ page }) => {
  const change = await demoChange({ index: 7 });
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies/demo/consolidate");
  await page.getByTestId("consolidation-row").filter({ hasText: change.externalId }).getByRole("link").click();
  const rows = page.getByTestId("consolidation-claim");
  await expect(rows.first()).toBeVisible();
  // drop the first claim, replace the second
  await rows.nth(0).getByLabel("drop").check();
  await rows.nth(1).getByLabel("replace").check();
  await rows.nth(1).getByLabel("Replacement for claim 2").fill("The lead's wording of claim 2");
  await page.getByRole("button", { name: "Save consolidation" }).click();
  await expect(page.getByText(/Consolidated: \d+ decisions saved/)).toBeVisible();

  const db = testDb();
  const current = await db.codeChange.findUniqueOrThrow({ where: { id: change.id } });
  expect(current.consolidatedAt).not.toBeNull();
  const decisions = await db.consolidationDecision.findMany({ where: { codeChangeId: change.id } });
  const decidable = change.pseudoReferences.filter((r) => r.kind !== "SMELL");
  expect(decisions).toHaveLength(decidable.length);
  expect(decisions.filter((d) => d.action === "REPLACE").map((d) => d.replacementText)).toContain("The lead's wording of claim 2");

  // a fresh annotator rating this item sees the lead's wording and not the dropped claim
  const rater = await assignmentFor("consolidated", "REVIEW_RATING", change.id);
  await page.context().clearCookies();
  await openWorkspace(page, rater);
  await expect(page.getByText("consolidated by a lead")).toBeVisible();
  await expect(page.getByTestId("link-row").filter({ hasText: "The lead's wording of claim 2" })).toHaveCount(1);
});
