/**
 * The lead's study page counts what waits for them, with links to where they act: a CRScore-style
 * study (stage order on), two annotators who finished stage 1 of one item and differ on one claim;
 * the page says one code change waits for consolidation (its stage 2 held) and one claim for
 * adjudication; the links open the consolidation list and the claim's adjudication queue, and
 * after the lead's consolidation and decision (here through the data layer) both counts are 0.
 */
import { expect, type Page, test } from "@playwright/test";
import { unifiedDiff } from "@/lib/diff";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { newAnnotator } from "./workspace-fixtures";

const STUDY = `waiting-e2e-${Date.now()}`;
const claims: string[] = [];
let annotators: Awaited<ReturnType<typeof newAnnotator>>[] = [];

test.beforeAll(async () => {
  const db = testDb();
  const lead = await db.account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } });
  const study = await db.study.create({ data: { slug: STUDY, name: "Waiting e2e", tasks: ["CLAIM_VERIFICATION", "REVIEW_RATING"], ownerId: lead.id, annotatorsPerItem: 2, reliabilitySetSize: 0 } });
  const oldFile = "def area(r):\n    return 3.14 * r * r\n";
  const newFile = "import math\n\ndef area(r):\n    return math.pi * r ** 2\n";
  const change = await db.codeChange.create({ data: { studyId: study.id, externalId: "area", filePath: "area.py", language: "python", diff: unifiedDiff(oldFile, newFile, { path: "area.py" }), oldFile, newFile } });
  for (const [i, text] of ["The change uses math.pi instead of 3.14.", "The change squares r with the power operator."].entries()) {
    claims.push((await db.pseudoReference.create({ data: { codeChangeId: change.id, externalId: `claim-${i}`, kind: "CLAIM", text, source: "model", position: i } })).id);
  }
  await db.review.create({ data: { codeChangeId: change.id, externalId: "r0", system: "Auger", text: "Use math.pi.", position: 0 } });
  annotators = [await newAnnotator("waiting-a"), await newAnnotator("waiting-b")];
  process.env.DATABASE_URL ??= process.env.E2E_DATABASE_URL;
  const { generateAssignments } = await import("@/lib/data/assignment-admin");
  await generateAssignments({ id: lead.id, role: "LEAD" }, STUDY, annotators.map((a) => a.accountId));
});

/** The annotator codes both claims (the first as `first`) and submits stage 1, through the workspace's API. */
async function stage1(page: Page, accountId: string, first: string) {
  const assignment = await testDb().assignment.findFirstOrThrow({ where: { annotatorId: accountId, task: "CLAIM_VERIFICATION", study: { slug: STUDY } } });
  for (const [i, claim] of claims.entries()) {
    const saved = await page.request.post("/api/annotations", { data: { kind: "judgement", assignmentId: assignment.id, targetId: claim, baseVersion: 0, value: { code: i === 0 ? first : "CORRECT", necessary: null, errorType: null, note: "" } } });
    expect(saved.status()).toBe(200);
  }
  expect((await page.request.post(`/api/annotations/assignments/${assignment.id}/submit`, { data: {} })).status()).toBe(200);
}

test("the study page counts the items waiting for consolidation and adjudication, and links to both", async ({ page, browser }) => {
  test.setTimeout(120_000);
  for (const [k, annotator] of annotators.entries()) {
    const context = await browser.newContext();
    const annotatorPage = await context.newPage();
    await signIn(annotatorPage, annotator.account);
    await stage1(annotatorPage, annotator.accountId, k === 0 ? "CORRECT" : "AMBIGUOUS");
    await context.close();
  }

  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${STUDY}`);
  const waiting = page.getByRole("region", { name: "Waiting for you" });
  await expect(waiting.getByTestId("waiting-round")).toHaveCount(0);
  await expect(waiting.getByTestId("waiting-consolidation")).toHaveText("1 code change waiting for consolidation (stage 1 finished by every annotator); their stage 2 opens once consolidated: Consolidate stage 1");
  const claimsWaiting = waiting.getByTestId("waiting-adjudication").filter({ hasText: "claim verification" });
  await expect(claimsWaiting).toHaveText("1 claim with open disagreements waiting for adjudication in claim verification: Adjudicate claim verification");
  await expect(waiting.getByTestId("waiting-adjudication").filter({ hasText: "review rating" })).toContainText("0 reviews with open disagreements");

  // the adjudication link opens the claims' queue, with the claim the annotators differ on
  await claimsWaiting.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/studies/${STUDY}/adjudicate\\?task=CLAIM_VERIFICATION$`));
  await expect(page.getByTestId("open-disagreement")).toHaveCount(1);
  // the consolidation link opens the list, with the item
  await page.goto(`/studies/${STUDY}`);
  await waiting.getByTestId("waiting-consolidation").getByRole("link", { name: "Consolidate stage 1" }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${STUDY}/consolidate$`));
  await expect(page.getByTestId("consolidation-row").filter({ hasText: "area" })).toHaveCount(1);

  // once the lead has decided the claim and consolidated the item, nothing waits
  const { saveConsensus } = await import("@/lib/data/adjudication");
  const { saveConsolidation } = await import("@/lib/data/assignment-admin");
  const lead = { id: (await testDb().account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } })).id, role: "LEAD" as const };
  await saveConsensus(lead, { slug: STUDY, task: "CLAIM_VERIFICATION", itemId: claims[0], question: "code", value: "CORRECT", reason: "the diff uses math.pi", baseVersion: 0 });
  const change = await testDb().codeChange.findFirstOrThrow({ where: { study: { slug: STUDY } } });
  await saveConsolidation(lead, { slug: STUDY, codeChangeId: change.id, decisions: claims.map((pseudoReferenceId) => ({ pseudoReferenceId, action: "KEEP" as const })) });
  await page.goto(`/studies/${STUDY}`);
  await expect(waiting.getByTestId("waiting-consolidation")).toContainText("0 code changes waiting for consolidation");
  await expect(claimsWaiting).toContainText("0 claims with open disagreements");
});
