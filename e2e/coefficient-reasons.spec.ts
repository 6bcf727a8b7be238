/**
 * Undefined and degenerate figures say why, in the browser: a calibration round where two
 * annotators give every review the same grade has no Fleiss' kappa, alpha or Cohen's kappa (one
 * category observed: 0/0). The rounds page and the agreement dashboard show the reason next to
 * the "–", and each annotator's page says that their agreement with the consensus leaves out the
 * items whose only consensus is their own answer (here every item), instead of "100 %".
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { unifiedDiff } from "@/lib/diff";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { newAnnotator } from "./workspace-fixtures";

const STUDY = `reasons-e2e-${Date.now()}`;
let annotators: Awaited<ReturnType<typeof newAnnotator>>[] = [];

test.beforeAll(async () => {
  const db = testDb();
  const lead = await db.account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } });
  const study = await db.study.create({ data: { slug: STUDY, name: "Reasons e2e", tasks: ["REFERENCE_GRADING"], ownerId: lead.id, hideSystemNames: false } });
  for (let n = 0; n < 2; n++) {
    const oldFile = "int f(int x) {\n  return x;\n}\n";
    const newFile = `int f(int x) {\n  return x + ${n};\n}\n`;
    const change = await db.codeChange.create({ data: { studyId: study.id, externalId: `change-${n}`, filePath: `F${n}.java`, language: "java", diff: unifiedDiff(oldFile, newFile, { path: `F${n}.java` }), oldFile, newFile, position: n } });
    await db.review.create({ data: { codeChangeId: change.id, externalId: "human", system: "human", text: `Check the bound ${n}.`, isReference: true } });
    await db.review.create({ data: { codeChangeId: change.id, externalId: "Auger", system: "Auger", text: `Auger on change ${n}`, position: 1 } });
  }
  annotators = [await newAnnotator("same-a"), await newAnnotator("same-b")];
  await db.studyMember.createMany({ data: annotators.map((a) => ({ studyId: study.id, accountId: a.accountId, role: "ANNOTATOR" as const })) });
  // The rounds as the rounds page makes them (preview, then confirm), on the test database.
  process.env.DATABASE_URL ??= process.env.E2E_DATABASE_URL;
  const { createRounds, previewRounds } = await import("@/lib/data/rounds");
  const asLead = { id: lead.id, role: "LEAD" as const };
  const preview = await previewRounds(asLead, { slug: STUDY, count: 1 });
  await createRounds(asLead, { slug: STUDY, count: 1, confirm: preview.key });
});

/** Both annotators grade every review 3 and submit. */
async function gradeAll(browser: Browser): Promise<void> {
  const db = testDb();
  for (const annotator of annotators) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, annotator.account);
    for (const assignment of await db.assignment.findMany({ where: { annotatorId: annotator.accountId, study: { slug: STUDY } } })) {
      const review = await db.review.findFirstOrThrow({ where: { codeChangeId: assignment.codeChangeId, isReference: false } });
      expect((await page.request.post("/api/annotations", { data: { kind: "grade", assignmentId: assignment.id, targetId: review.id, baseVersion: 0, value: { grade: 3, comment: "" } } })).status()).toBe(200);
      expect((await page.request.post(`/api/annotations/assignments/${assignment.id}/submit`, { data: {} })).status()).toBe(200);
    }
    await context.close();
  }
}

const expectReason = async (page: Page, testId: string, reason: RegExp) => {
  const cell = page.getByTestId("round").first().getByTestId(testId);
  await expect(cell).toContainText("–");
  await expect(cell.getByTestId("coefficient-why")).toHaveText(reason);
};

test("one grade throughout: every undefined coefficient and the consensus share say why", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await gradeAll(browser);
  await signIn(page, E2E_ACCOUNTS.lead);

  await page.goto(`/studies/${STUDY}/rounds`);
  await expect(page.getByTestId("round").first().getByTestId("round-status")).toContainText("closed");
  await expectReason(page, "coefficient-fleiss", /^all ratings fall in one category, so chance agreement is 1 and kappa is undefined$/);
  await expectReason(page, "coefficient-alpha", /^all pairable ratings have the same value, so expected disagreement is 0 and alpha is undefined$/);
  await expectReason(page, "coefficient-cohen", /^both raters used one and the same category throughout, so kappa is 0\/0$/);

  await page.goto(`/studies/${STUDY}/agreement`);
  const coefficients = page.getByTestId("coefficients-reference_grading-grade");
  await expect(coefficients.locator('tr[data-row="fleiss"] td[data-col="value"]')).toHaveText("—");
  await expect(coefficients.locator('tr[data-row="fleiss"] td[data-col="why"]')).toHaveText("all ratings fall in one category, so chance agreement is 1 and kappa is undefined");
  await expect(coefficients.locator('tr[data-row="percent"] td[data-col="why"]')).toHaveText("every bootstrap resample gives this same value, so the interval shows no uncertainty.");

  await page.goto(`/studies/${STUDY}/annotators/${annotators[0].accountId}`);
  const share = page.getByTestId("agreement-row").getByTestId("with-consensus");
  await expect(share).toHaveText(/^–no item with a consensus apart from this annotator's answer \(2 left out\)$/);
  await expect(page.getByRole("region", { name: "Agreement" })).toContainText("are left out: they would count as agreement by construction");
});
