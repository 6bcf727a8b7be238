/**
 * Leads' views in the browser: the lead opens an item from the study
 * overview as a read-only preview of the annotator's workspace, chooses an annotator and sees
 * that annotator's answers (saved through the real save route), with every control disabled,
 * no request sent and nothing written by viewing; then opens that annotator's page (progress,
 * time on task in seconds, answers per item, Cohen's kappa with the other annotator) and goes
 * back to the preview from one of their items.
 */
import { expect, test, type Page } from "@playwright/test";
import { unifiedDiff } from "@/lib/diff";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { newAnnotator } from "./workspace-fixtures";

const STUDY = `lead-views-e2e-${Date.now()}`;
let codeChangeId = "";
let alice: Awaited<ReturnType<typeof newAnnotator>>;
let bob: Awaited<ReturnType<typeof newAnnotator>>;
const assignments: Record<string, string> = {};
const GRADES: Record<"alice" | "bob", Record<string, number>> = { alice: { "sys-a": 4, "sys-b": 2 }, bob: { "sys-a": 1, "sys-b": 5 } };
let reviews: { id: string; system: string }[] = [];

/** What viewing must not change: the study's assignments and answers. */
async function stored(): Promise<string> {
  const db = testDb();
  const [rows, grades, history] = await Promise.all([
    db.assignment.findMany({ where: { codeChangeId: codeChangeId }, orderBy: { id: "asc" } }),
    db.referenceGrade.findMany({ where: { review: { codeChangeId: codeChangeId } }, orderBy: { id: "asc" } }),
    db.annotationHistory.count(),
  ]);
  return JSON.stringify({ rows, grades, history });
}

async function saveAs(page: Page, who: "alice" | "bob", account: { email: string; password: string }) {
  await signIn(page, account);
  for (const r of reviews) {
    const saved = await page.request.post("/api/annotations", { data: { kind: "grade", assignmentId: assignments[who], targetId: r.id, baseVersion: 0, value: { grade: GRADES[who][r.system], comment: `${who} on ${r.system}` } } });
    expect(saved.status()).toBe(200);
  }
  expect((await page.request.post(`/api/annotations/assignments/${assignments[who]}/time`, { data: { deltaMs: 3_000 } })).status()).toBe(200);
  expect((await page.request.post(`/api/annotations/assignments/${assignments[who]}/submit`, { data: {} })).status()).toBe(200);
}

test.beforeAll(async () => {
  const db = testDb();
  const lead = await db.account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } });
  const study = await db.study.create({ data: { slug: STUDY, name: "Lead views e2e", tasks: ["REFERENCE_GRADING", "COMMENT_FILTERING"], ownerId: lead.id, hideSystemNames: true } });
  const oldFile = "def f(x):\n    return x\n";
  const newFile = "def f(x):\n    return x + 1\n";
  const change = await db.codeChange.create({ data: { studyId: study.id, externalId: "pv-1", filePath: "pv.py", language: "python", diff: unifiedDiff(oldFile, newFile, { path: "pv.py" }), oldFile, newFile, position: 0 } });
  codeChangeId = change.id;
  await db.review.create({ data: { codeChangeId: change.id, externalId: "human", system: "human", text: "Check the overflow of x + 1.", isReference: true } });
  for (const [i, system] of ["sys-a", "sys-b"].entries()) reviews.push(await db.review.create({ data: { codeChangeId: change.id, externalId: system, system, text: `${system} says: mind the bound`, position: i + 1 } }));
  reviews = reviews.map((r) => ({ id: r.id, system: r.system }));
  alice = await newAnnotator("alice");
  bob = await newAnnotator("bob");
  for (const [who, person] of [
    ["alice", alice],
    ["bob", bob],
  ] as const) {
    await db.studyMember.create({ data: { studyId: study.id, accountId: person.accountId, role: "ANNOTATOR" } });
    assignments[who] = (await db.assignment.create({ data: { studyId: study.id, annotatorId: person.accountId, codeChangeId: change.id, task: "REFERENCE_GRADING", position: 0 } })).id;
    await db.assignment.create({ data: { studyId: study.id, annotatorId: person.accountId, codeChangeId: change.id, task: "COMMENT_FILTERING", position: 1 } });
  }
});

test("the lead previews an item with an annotator's answers, read-only, and opens that annotator's page", async ({ page, browser }) => {
  test.setTimeout(180_000);
  for (const [who, person] of [
    ["alice", alice],
    ["bob", bob],
  ] as const) {
    const context = await browser.newContext();
    await saveAs(await context.newPage(), who, person.account);
    await context.close();
  }
  const before = await stored();
  const sent: string[] = [];
  page.on("request", (r) => {
    if (r.method() !== "GET" && r.url().includes("/api/annotations")) sent.push(`${r.method()} ${r.url()}`);
  });

  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${STUDY}`);
  await page.getByTestId("code-change-row").getByRole("link", { name: "pv-1" }).click();
  const preview = page.getByTestId("code-change-preview");
  await expect(preview.getByRole("heading", { level: 1 })).toContainText("Preview · Reference-based grading · pv.py");
  await expect(page.getByTestId("preview-note")).toContainText("without anyone's answers");
  // the workspace's own panels: the diff, the reference review, the generated reviews with their grade buttons (none chosen)
  await expect(preview.getByText("Check the overflow of x + 1.")).toBeVisible();
  await expect(preview.getByTestId("review")).toHaveCount(2);
  await expect(preview.getByRole("radio", { checked: true })).toHaveCount(0);

  await page.getByLabel("Answers of").selectOption({ label: "alice tester (submitted)" });
  await expect(page.getByTestId("preview-annotator")).toHaveText("alice tester");
  await expect(page.getByTestId("preview-note")).toContainText("(submitted, 3 s on task)");
  for (const r of reviews) {
    const card = preview.getByTestId("review").filter({ hasText: `${r.system} says` });
    const chosen = card.getByRole("radio", { name: String(GRADES.alice[r.system]), exact: true });
    await expect(chosen).toHaveAttribute("aria-checked", "true");
    await expect(chosen).toBeDisabled();
    await expect(card.getByLabel(/^Comment on /)).toHaveValue(`alice on ${r.system}`);
    await expect(card.getByLabel(/^Comment on /)).toBeDisabled();
    // system names stay hidden, as the study hides them from annotators
    await expect(card).not.toContainText(r.system === "sys-a" ? "sys-b" : "sys-a");
  }
  // a click on another grade changes nothing
  await preview.getByTestId("review").first().getByRole("radio", { name: "3", exact: true }).click({ force: true });
  await expect(preview.getByTestId("review").first().getByRole("radio", { name: "3", exact: true })).toHaveAttribute("aria-checked", "false");

  // the other annotator's answers, then the other task of the item
  await page.getByLabel("Answers of").selectOption({ label: "bob tester (submitted)" });
  await expect(page.getByTestId("preview-annotator")).toHaveText("bob tester");
  await expect(preview.getByTestId("review").filter({ hasText: "sys-a says" }).getByRole("radio", { name: "1", exact: true })).toHaveAttribute("aria-checked", "true");
  await page.getByRole("navigation", { name: "Tasks" }).getByRole("link", { name: "Comment filtering" }).click();
  await expect(preview.getByRole("heading", { level: 1 })).toContainText("Comment filtering");
  await expect(page.getByTestId("preview-note")).toContainText("not started");
  await expect(preview.getByTestId("review")).toHaveCount(3);

  // that annotator's page, from the preview
  await page.getByRole("navigation", { name: "Tasks" }).getByRole("link", { name: "Reference-based grading" }).click();
  await page.getByLabel("Answers of").selectOption({ label: "alice tester (submitted)" });
  await page.getByRole("link", { name: "all of alice tester's work" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("alice tester");
  await expect(page.getByTestId("time-total")).toHaveText("3 s");
  const grading = page.getByTestId("task-progress").filter({ hasText: "Reference-based grading" });
  await expect(grading.getByRole("cell")).toHaveText(["Reference-based grading", "1", "1", "0", "0", "0", /.*/]);
  const agreement = page.getByTestId("agreement-row").filter({ hasText: "Reference-based grading" });
  await expect(agreement).toContainText("bob tester");
  await expect(agreement).toContainText("(n=2)");
  const answers = page.getByTestId("answer-row").filter({ hasText: "Reference-based grading" });
  await expect(answers).toContainText("sys-a: Grade against the reference");
  await expect(answers.getByRole("cell").nth(3)).toHaveText("3");
  await answers.getByRole("link", { name: "pv.py" }).click();
  await expect(page.getByTestId("preview-annotator")).toHaveText("alice tester");

  // the overview and the assignments page link to the annotator's page too
  await page.goto(`/studies/${STUDY}/assignments`);
  await page.getByTestId("progress-row").getByRole("link", { name: "bob tester" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("bob tester");

  expect(sent).toEqual([]);
  expect(await stored()).toEqual(before);
});
