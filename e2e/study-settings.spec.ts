/**
 * The study settings page in the browser (settings edits reach the annotators'
 * guidelines): the lead inserts the CRScore codebook template, edits it with the
 * live preview, turns on hide-system-names and saves; an annotator then finds the new guidelines
 * in the workspace's guidelines column (`g`) and no longer sees the model that generated the claims.
 */
import { expect, type Locator, type Page, test } from "@playwright/test";
import { unifiedDiff } from "@/lib/diff";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { gotoWorkspace, newAnnotator } from "./workspace-fixtures";

const STUDY = `settings-e2e-${Date.now()}`;
const MODEL = "gpt-4o-settings-e2e";
/** Markup and a script link in the guidelines: shown as text, never run (the renderer builds React elements). */
const INJECTION = `<img src="x" onerror="window.injected = 1"> and [a link](javascript:window.injected=2)`;
let annotator: Awaited<ReturnType<typeof newAnnotator>>;

async function expectInert(page: Page, where: Locator): Promise<void> {
  await expect(where).toContainText('<img src="x" onerror="window.injected = 1">');
  await expect(where.locator("img")).toHaveCount(0);
  await expect(where.locator('a[href^="javascript"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { injected?: number }).injected)).toBeUndefined();
}
let assignmentId: string;

test.beforeAll(async () => {
  const db = testDb();
  const lead = await db.account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } });
  const study = await db.study.create({ data: { slug: STUDY, name: "Settings e2e", tasks: ["CLAIM_VERIFICATION"], ownerId: lead.id, hideSystemNames: false, guidelines: "" } });
  const oldFile = "def area(r):\n    return 3.14 * r * r\n";
  const newFile = "import math\n\ndef area(r):\n    return math.pi * r ** 2\n";
  const change = await db.codeChange.create({ data: { studyId: study.id, externalId: "change-0", filePath: "area.py", language: "python", diff: unifiedDiff(oldFile, newFile, { path: "area.py" }), oldFile, newFile } });
  await db.pseudoReference.create({ data: { codeChangeId: change.id, externalId: "claim-0", kind: "CLAIM", text: "The change uses math.pi instead of 3.14.", source: MODEL, position: 0 } });
  annotator = await newAnnotator("settings");
  await db.studyMember.create({ data: { studyId: study.id, accountId: annotator.accountId, role: "ANNOTATOR" } });
  assignmentId = (await db.assignment.create({ data: { studyId: study.id, annotatorId: annotator.accountId, codeChangeId: change.id, task: "CLAIM_VERIFICATION", position: 0 } })).id;
});

test("the lead edits the guidelines with the CRScore template and hides system names; the annotator sees both in the workspace", async ({ browser }) => {
  // two sign-ins and two pages on a machine shared with other builds
  test.setTimeout(180_000);
  const lead = await browser.newPage();
  await signIn(lead, E2E_ACCOUNTS.lead);
  await lead.goto(`/studies/${STUDY}`);
  await lead.getByRole("link", { name: "Settings", exact: true }).click();
  await expect(lead.getByRole("heading", { name: "Study settings" })).toBeVisible();
  const preview = lead.getByRole("region", { name: "Guidelines preview" });
  await expect(preview).toContainText("No guidelines");

  // the template goes in, then the lead's own rule on top; the preview follows as they type
  await lead.getByRole("button", { name: "Insert the CRScore codebook (Tables 7-8)" }).click();
  const box = lead.getByLabel("Guidelines in Markdown");
  await expect(box).toHaveValue(/ScalarSpaceEncoder/);
  await box.press("ControlOrMeta+Home");
  await box.pressSequentially(`# Settings e2e rules\n\nCheck **every** claim against the new file.\n\n${INJECTION}\n\n`);
  await expect(preview.getByRole("heading", { name: "Settings e2e rules" })).toBeVisible();
  await expectInert(lead, preview);
  await expect(preview.getByRole("cell", { name: "Unverifiable", exact: true })).toBeVisible();
  await expect(preview.locator("strong", { hasText: "every" })).toBeVisible();

  await lead.getByLabel(/Hide system names/).check();
  await lead.getByRole("button", { name: "Save settings" }).click();
  await expect(lead.getByRole("status")).toContainText("Settings saved.");
  const stored = await testDb().study.findUniqueOrThrow({ where: { slug: STUDY } });
  expect(stored.guidelines.startsWith(`# Settings e2e rules\n\nCheck **every** claim against the new file.\n\n${INJECTION}\n\n# Codebook`)).toBe(true);
  expect(stored.hideSystemNames).toBe(true);
  await lead.close();

  const page = await browser.newPage();
  await signIn(page, annotator.account);
  await gotoWorkspace(page, assignmentId);
  await expect(page.getByText("The change uses math.pi instead of 3.14.")).toBeVisible();
  await expect(page.getByTestId("workspace")).not.toContainText(MODEL);
  await page.keyboard.press("g");
  const guidelines = page.getByTestId("guidelines");
  await expect(guidelines.getByRole("heading", { name: "Settings e2e rules" })).toBeVisible();
  await expectInert(page, guidelines);
  await expect(guidelines.getByRole("cell", { name: /^False: ScalarSpaceEncoder is a class/ })).toBeVisible();
  await expect(guidelines.getByRole("cell", { name: "Comprehensiveness", exact: true })).toBeVisible();
  await page.close();
});

test("a change that would invalidate stored answers is refused on the page, naming how many", async ({ page }) => {
  const db = testDb();
  const claim = await db.pseudoReference.findFirstOrThrow({ where: { codeChange: { study: { slug: STUDY } } } });
  await db.claimJudgement.upsert({ where: { annotatorId_pseudoReferenceId: { annotatorId: annotator.accountId, pseudoReferenceId: claim.id } }, create: { annotatorId: annotator.accountId, pseudoReferenceId: claim.id, code: "CORRECT" }, update: {} });
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${STUDY}/settings`);
  await expect(page.getByRole("checkbox", { name: /^Claim verification/ })).toBeChecked();
  await page.getByRole("checkbox", { name: /^Review rating/ }).check();
  await page.getByRole("checkbox", { name: /^Claim verification/ }).uncheck();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "cannot be removed" })).toContainText("Claim verification cannot be removed: it has 1 stored claim judgement");
  expect((await db.study.findUniqueOrThrow({ where: { slug: STUDY } })).tasks).toEqual(["CLAIM_VERIFICATION"]);
});
