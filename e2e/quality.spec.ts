/**
 * Gold items and pausing in the browser: a lead gives a review a known grade
 * (gold) on the adjudication page; an annotator grades it wrongly and quickly; on the quality
 * page the annotator is flagged below the accuracy, with the too-fast item and seconds per item;
 * the lead pauses them: their workspace and saves are refused (423) until the lead resumes them.
 */
import { expect, test } from "@playwright/test";
import { unifiedDiff } from "@/lib/diff";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { newAnnotator } from "./workspace-fixtures";

const STUDY = `quality-e2e-${Date.now()}`;
let annotator: Awaited<ReturnType<typeof newAnnotator>>;
let goldAssignment = "";
let otherAssignment = "";
let reviews: { id: string; system: string }[] = [];
let otherReview = "";

test.beforeAll(async () => {
  const db = testDb();
  const lead = await db.account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } });
  const study = await db.study.create({ data: { slug: STUDY, name: "Quality e2e", tasks: ["REFERENCE_GRADING"], ownerId: lead.id } });
  const change = async (externalId: string, position: number) => {
    const oldFile = "def f(x):\n    return x\n";
    const newFile = `def f(x):\n    return x + ${position}\n`;
    const c = await db.codeChange.create({ data: { studyId: study.id, externalId, filePath: `${externalId}.py`, language: "python", diff: unifiedDiff(oldFile, newFile, { path: `${externalId}.py` }), oldFile, newFile, position } });
    await db.review.create({ data: { codeChangeId: c.id, externalId: "human", system: "human", text: "Handle the overflow.", isReference: true } });
    const made = [];
    for (const system of ["sys-a", "sys-b"]) made.push(await db.review.create({ data: { codeChangeId: c.id, externalId: system, system, text: `${system} says: check the bound`, position: made.length + 1 } }));
    return { change: c, reviews: made };
  };
  const gold = await change("gold-1", 0);
  const other = await change("other-1", 1);
  reviews = gold.reviews.map((r) => ({ id: r.id, system: r.system }));
  otherReview = other.reviews[0].id;
  annotator = await newAnnotator("gold");
  await db.studyMember.create({ data: { studyId: study.id, accountId: annotator.accountId, role: "ANNOTATOR" } });
  goldAssignment = (await db.assignment.create({ data: { studyId: study.id, annotatorId: annotator.accountId, codeChangeId: gold.change.id, task: "REFERENCE_GRADING", position: 0 } })).id;
  otherAssignment = (await db.assignment.create({ data: { studyId: study.id, annotatorId: annotator.accountId, codeChangeId: other.change.id, task: "REFERENCE_GRADING", position: 1 } })).id;
});

test("an annotator who misses a gold item is flagged, paused (cannot open or save items) and resumed", async ({ page, browser }) => {
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${STUDY}/quality?change=gold-1`);
  await page.getByRole("link", { name: "Reference-based grading · sys-a" }).click();
  const form = page.getByRole("form", { name: /Consensus: Grade/ });
  await form.getByLabel("4", { exact: true }).check();
  await form.getByLabel("Reason").fill("the review names the reference's bound");
  await form.getByLabel(/Gold: a known answer/).check();
  await form.getByRole("button", { name: "Save consensus" }).click();
  await expect(form.getByRole("status")).toContainText("version 1");
  await expect(page.getByTestId("history-entry")).toContainText("(gold)");

  // the annotator answers the gold item wrongly, and in no time
  const context = await browser.newContext();
  const annotatorPage = await context.newPage();
  await signIn(annotatorPage, annotator.account);
  for (const [i, r] of reviews.entries()) {
    const saved = await annotatorPage.request.post("/api/annotations", { data: { kind: "grade", assignmentId: goldAssignment, targetId: r.id, baseVersion: 0, value: { grade: i === 0 ? 1 : 3, comment: "" } } });
    expect(saved.status()).toBe(200);
  }
  expect((await annotatorPage.request.post(`/api/annotations/assignments/${goldAssignment}/submit`, { data: {} })).status()).toBe(200);

  await page.goto(`/studies/${STUDY}/quality`);
  const row = page.getByTestId("quality-row").filter({ hasText: annotator.account.email });
  await expect(row.getByTestId("flag-accuracy")).toContainText("below 80% on gold");
  await expect(row.getByTestId("flag-too-fast")).toContainText("1 too fast");
  await expect(row).toContainText("0%");
  await expect(row).toContainText("0.0 s");
  await row.getByRole("button", { name: /^Pause / }).click();
  await expect(row.getByTestId("status")).toHaveText("paused");

  await annotatorPage.goto(`/annotate/${otherAssignment}`);
  await expect(annotatorPage.getByTestId("locked")).toContainText("paused your work");
  const refused = await annotatorPage.request.post("/api/annotations", { data: { kind: "grade", assignmentId: otherAssignment, targetId: otherReview, baseVersion: 0, value: { grade: 4, comment: "" } } });
  expect(refused.status()).toBe(423);
  expect(await testDb().referenceGrade.count({ where: { reviewId: otherReview } })).toBe(0);
  await annotatorPage.goto("/annotate");
  await expect(annotatorPage.getByTestId("paused")).toBeVisible();

  await row.getByRole("button", { name: /^Resume / }).click();
  await expect(row.getByTestId("status")).toHaveText("active");
  await annotatorPage.goto(`/annotate/${otherAssignment}`);
  await expect(annotatorPage.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await context.close();
});
