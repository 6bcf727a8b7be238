/**
 * CRScore's stage order in the browser: in a study with both stages (the
 * setting on by default), stage 1 asks only the claim verdict; stage 2 of the item stays closed
 * until the lead has consolidated its stage 1, then asks the necessity of every consolidated
 * pseudo-reference, the smell included, before the reviews are rated.
 */
import { expect, test } from "@playwright/test";
import { unifiedDiff } from "@/lib/diff";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { expectSaved, gotoWorkspace, newAnnotator } from "./workspace-fixtures";

const STUDY = `stage-order-e2e-${Date.now()}`;
let annotator: Awaited<ReturnType<typeof newAnnotator>>;
let change: { id: string; claims: string[]; smell: string };
let stage1: string;
let stage2: string;

test.beforeAll(async () => {
  const db = testDb();
  const lead = await db.account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } });
  // stageOrder left unset: on by default, since the study has both CRScore stages
  const study = await db.study.create({ data: { slug: STUDY, name: "Stage order e2e", tasks: ["CLAIM_VERIFICATION", "REVIEW_RATING"], ownerId: lead.id, hideSystemNames: true } });
  const oldFile = "def area(r):\n    return 3.14 * r * r\n";
  const newFile = "import math\n\ndef area(r):\n    return math.pi * r ** 2\n";
  const created = await db.codeChange.create({ data: { studyId: study.id, externalId: "change-0", filePath: "area.py", language: "python", diff: unifiedDiff(oldFile, newFile, { path: "area.py" }), oldFile, newFile } });
  const ref = (externalId: string, kind: "CLAIM" | "SMELL", text: string, position: number) =>
    db.pseudoReference.create({ data: { codeChangeId: created.id, externalId, kind, text, source: kind === "SMELL" ? "pylint" : "model", position } });
  const claims = [(await ref("claim-0", "CLAIM", "The change uses math.pi instead of 3.14.", 0)).id, (await ref("claim-1", "CLAIM", "The change squares r with the power operator.", 1)).id];
  const smell = (await ref("smell-0", "SMELL", "Missing function docstring (C0116).", 2)).id;
  for (const [i, text] of ["Use math.pi: good.", "Add a docstring to area()."].entries()) {
    await db.review.create({ data: { codeChangeId: created.id, externalId: `r${i}`, system: `system-${i}`, text, position: i } });
  }
  change = { id: created.id, claims, smell };
  annotator = await newAnnotator("stage-order");
  await db.studyMember.create({ data: { studyId: study.id, accountId: annotator.accountId, role: "ANNOTATOR" } });
  stage1 = (await db.assignment.create({ data: { studyId: study.id, annotatorId: annotator.accountId, codeChangeId: created.id, task: "CLAIM_VERIFICATION", position: 0 } })).id;
  stage2 = (await db.assignment.create({ data: { studyId: study.id, annotatorId: annotator.accountId, codeChangeId: created.id, task: "REVIEW_RATING", position: 1 } })).id;
});

test("stage 2 is closed until the lead consolidates stage 1; necessity is asked in stage 2, claims and smell, not in stage 1", async ({ page, browser }) => {
  await signIn(page, annotator.account);

  // stage 1: verdicts only, no necessity
  await gotoWorkspace(page, stage1);
  await expect(page.getByTestId("claim-judgement")).toHaveCount(2);
  await expect(page.getByRole("button", { name: /unnecessary/ })).toHaveCount(0);
  await expect(page.getByRole("radiogroup", { name: /Necessity/ })).toHaveCount(0);
  for (const n of [1, 2]) await page.getByRole("radiogroup", { name: `Code of claim ${n}` }).getByRole("radio", { name: "1 Correct" }).click();
  await expectSaved(page);
  // submitted, the annotator is back on the queue (stage 2 waits): the workspace's "submitted" badge shows only until the queue loads
  await page.keyboard.press("Control+Enter");
  await expect(page).toHaveURL(/\/annotate$/);
  const queue = page.getByTestId("assignment-status");
  await expect(queue).toHaveText(["done", "waiting for a lead to consolidate stage 1"]);

  // stage 2 before consolidation: closed, and a necessity save is refused
  await gotoWorkspace(page, stage2);
  await expect(page.getByRole("status").filter({ hasText: "opens once a lead has consolidated its stage 1" })).toBeVisible();
  await expect(page.getByRole("radiogroup", { name: /Necessity/ })).toHaveCount(0);
  const refused = await page.request.post("/api/annotations", { data: { kind: "necessity", assignmentId: stage2, targetId: change.smell, baseVersion: 0, value: { necessary: false } } });
  expect(refused.status()).toBe(423);

  // the lead consolidates the item (keeps both claims)
  const leadContext = await browser.newContext();
  const leadPage = await leadContext.newPage();
  await signIn(leadPage, E2E_ACCOUNTS.lead);
  await leadPage.goto(`/studies/${STUDY}/consolidate/${change.id}`);
  await leadPage.getByRole("button", { name: "Save consolidation" }).click();
  await expect(leadPage.getByRole("status").filter({ hasText: "Consolidated" })).toBeVisible();
  await leadContext.close();

  // stage 2 is open: necessity of both claims and of the smell, then the ratings
  await gotoWorkspace(page, stage2);
  await expect(page.getByRole("status").filter({ hasText: "opens once a lead has consolidated" })).toHaveCount(0);
  const rows = page.getByTestId("necessity");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(2)).toContainText("Missing function docstring");
  await expect(rows.nth(2)).toContainText("(smell)");
  // one key per answer, from anywhere in the item (here from review B): y necessary, u not necessary, each moving on to the next
  await expect(rows.nth(0)).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("j");
  await expect(page.getByTestId("review").nth(1)).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("y");
  await expect(rows.nth(1)).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("u");
  await page.keyboard.press("y");
  for (const [n, choice] of [
    [1, "necessary"],
    [2, "not necessary"],
    [3, "necessary"],
  ] as const) {
    await expect(page.getByRole("radiogroup", { name: `Necessity of pseudo-reference ${n}` }).getByRole("radio", { name: choice, exact: true })).toHaveAttribute("aria-checked", "true");
  }
  // past the last one the keys answer nothing; a click marks a row again
  await page.keyboard.press("u");
  await expect(page.getByRole("radiogroup", { name: "Necessity of pseudo-reference 3" }).getByRole("radio", { name: "necessary", exact: true })).toHaveAttribute("aria-checked", "true");
  await expectSaved(page);
  const stored = await testDb().claimJudgement.findMany({ where: { annotatorId: annotator.accountId }, select: { pseudoReferenceId: true, code: true, necessary: true } });
  const byRef = new Map(stored.map((j) => [j.pseudoReferenceId, j]));
  expect(byRef.get(change.claims[0])).toMatchObject({ code: "CORRECT", necessary: true });
  expect(byRef.get(change.claims[1])).toMatchObject({ code: "CORRECT", necessary: false });
  expect(byRef.get(change.smell)).toMatchObject({ code: null, necessary: true });

  // back in stage 1, still no necessity question
  await gotoWorkspace(page, stage1);
  await expect(page.getByTestId("claim-judgement")).toHaveCount(2);
  await expect(page.getByRole("button", { name: /unnecessary/ })).toHaveCount(0);
});

test("the queue and the workspace say which items wait and for what, and n skips them", async ({ page }) => {
  const db = testDb();
  const study = await db.study.findUniqueOrThrow({ where: { slug: STUDY } });
  const other = await db.codeChange.create({ data: { studyId: study.id, externalId: "change-1", filePath: "other.py", language: "python", diff: unifiedDiff("", "x = 1\n", { path: "other.py" }), oldFile: "", newFile: "x = 1\n", position: 1 } });
  const waiter = await newAnnotator("waiting");
  await db.studyMember.create({ data: { studyId: study.id, accountId: waiter.accountId, role: "ANNOTATOR" } });
  const [first, waiting, later] = await Promise.all([
    db.assignment.create({ data: { studyId: study.id, annotatorId: waiter.accountId, codeChangeId: change.id, task: "CLAIM_VERIFICATION", position: 0 } }),
    db.assignment.create({ data: { studyId: study.id, annotatorId: waiter.accountId, codeChangeId: other.id, task: "REVIEW_RATING", position: 1 } }),
    db.assignment.create({ data: { studyId: study.id, annotatorId: waiter.accountId, codeChangeId: other.id, task: "CLAIM_VERIFICATION", position: 2 } }),
  ]);
  await signIn(page, waiter.account);
  await page.goto("/annotate");
  const rows = page.getByTestId("assignment-row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0).getByTestId("assignment-status")).toHaveText("open");
  await expect(rows.nth(1).getByTestId("assignment-status")).toHaveText("after your stage 1 of this item");
  await expect(page.getByTestId("queue-summary")).toHaveText("2 open to work on · 1 after your stage 1 of the item");

  // n from the first item goes past the waiting one (the first n warns that the item is not submitted)
  await gotoWorkspace(page, first.id);
  await expect(page.getByTestId("queue-position")).toContainText("1 waiting");
  await page.keyboard.press("n");
  await page.keyboard.press("n");
  await expect(page).toHaveURL(new RegExp(`/annotate/${later.id}$`));

  // once stage 1 is submitted, stage 2 waits for the consolidation, and says so
  await db.assignment.update({ where: { id: later.id }, data: { status: "DONE" } });
  await page.goto("/annotate");
  await expect(rows.nth(1).getByTestId("assignment-status")).toHaveText("waiting for a lead to consolidate stage 1");
  await expect(page.getByTestId("queue-summary")).toHaveText("1 open to work on · 1 waiting: 1 for a lead to consolidate stage 1");
  await gotoWorkspace(page, waiting.id);
  await expect(page.getByRole("status").filter({ hasText: "opens once a lead has consolidated its stage 1" })).toBeVisible();
});
