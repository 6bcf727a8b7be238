/**
 * The lead's side of comment questions in the browser: the study page "Comments per system"
 * (c-CRAB Table 6 with Wilson intervals and Figure 6 beside the human reviewers', undefined
 * values with their reasons, CSV downloads), linked from the overview of a study with comment
 * questions only; the questions' editor on the settings page (a template added, a prompt edited,
 * removing an answered question or codebook option refused naming how many) and at study
 * creation. Screenshots in test-results/comment-questions/.
 */
import { expect, test } from "@playwright/test";
import type { CommentQuestion } from "@/lib/annotation/comment-questions";
import { unifiedDiff } from "@/lib/diff";
import { wilsonInterval } from "@/lib/stats/proportion";
import { formatPercent } from "@/components/dashboard/format";
import { downloadCsv, expectCsvMatchesTable, readTable, row } from "./dashboard-helpers";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { newAnnotator } from "./workspace-fixtures";

const STUDY = `cq-lead-e2e-${Date.now()}`;
const shot = (name: string) => `test-results/comment-questions/${name}.png`;

/** Comments per system: [system, consensus on "useful" (null: none), consensus category]. */
const COMMENTS: [string, "yes" | "no" | null, string | null][] = [
  ["human", "yes", "DESIGN"],
  ["human", "yes", "DOCUMENTATION"],
  ["human", "no", "DESIGN"],
  ["claude-code", "yes", "TESTING"],
  ["claude-code", "yes", "ROBUSTNESS"],
  ["claude-code", "yes", "ROBUSTNESS"],
  ["claude-code", "no", "SECURITY"],
  ["codex", null, null],
];

let studyId: string;
let annotatorId: string;

test.beforeAll(async () => {
  const db = testDb();
  const lead = await db.account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } });
  const study = await db.study.create({ data: { slug: STUDY, name: "Review tools e2e", tasks: ["COMMENT_QUESTIONS"], ownerId: lead.id } });
  studyId = study.id;
  const pr = await db.pullRequest.create({ data: { studyId, externalId: "acme/app#7", repository: "acme/app", title: "Retry the upload", headSha: "a".repeat(40), baseSha: "b".repeat(40) } });
  const oldFile = Array.from({ length: 12 }, (_, i) => `line ${i + 1}\n`).join("");
  const newFile = oldFile.replace("line 6\n", "line six\n");
  const change = await db.codeChange.create({
    data: { studyId, pullRequestId: pr.id, externalId: "acme/app#7:upload.py", filePath: "upload.py", status: "MODIFIED", language: "python", diff: unifiedDiff(oldFile, newFile, { path: "upload.py" }), oldFile, newFile, position: 0 },
  });
  const annotator = await newAnnotator("cq-lead");
  annotatorId = annotator.accountId;
  for (const [position, [system, useful, category]] of COMMENTS.entries()) {
    const comment = await db.reviewComment.create({
      data: { pullRequestId: pr.id, codeChangeId: change.id, externalId: `c${position}`, path: "upload.py", side: "RIGHT", line: 6, body: `comment ${position}`, system, author: system === "human" ? "ada" : `${system}[bot]`, position },
    });
    // Lead decisions stand for the consensus; one annotator's stored answer on the first comment holds the question "useful" and the option DESIGN.
    if (useful) await db.consensus.create({ data: { studyId, task: "COMMENT_QUESTIONS", itemId: comment.id, question: "useful", value: useful, decidedById: lead.id } });
    if (category) await db.consensus.create({ data: { studyId, task: "COMMENT_QUESTIONS", itemId: comment.id, question: "category", value: category, decidedById: lead.id } });
    if (position === 0) await db.commentAnswers.create({ data: { annotatorId, reviewCommentId: comment.id, answers: { useful: true, category: "DESIGN" }, notes: { useful: "names the real problem" } } });
  }
});

test.afterAll(async () => {
  await testDb().study.deleteMany({ where: { id: studyId } });
  await testDb().account.deleteMany({ where: { id: annotatorId } });
});

test("the lead reads Table 6 and Figure 6 per system, undefined values explained, and downloads them as CSV", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 1000 });
  await signIn(page, E2E_ACCOUNTS.lead);
  // The demo study has no comment questions: no link there.
  await page.goto("/studies/demo");
  await expect(page.getByRole("navigation", { name: "Study tools" }).getByRole("link", { name: "Comments per system" })).toHaveCount(0);
  await page.goto(`/studies/${STUDY}`);
  await page.getByRole("navigation", { name: "Study tools" }).getByRole("link", { name: "Comments per system" }).click();
  await expect(page).toHaveURL(`/studies/${STUDY}/comment-systems`);
  await expect(page.getByRole("heading", { name: "Review comments per system" })).toBeVisible();

  const table6 = await readTable(page, "comment-systems-table-6");
  expect(table6.rows.map((r) => r.key)).toEqual(["human", "claude-code", "codex", "total"]);
  const claude = row(table6, "claude-code");
  expect([claude.comments.text, claude.decided.text, claude.useful.text, claude.share.text]).toEqual(["4", "4", "3", "75.00 %"]);
  const [low, high] = wilsonInterval(3, 4)!;
  expect([claude.ciLow.value, claude.ciHigh.value]).toEqual([String(low), String(high)]);
  expect(claude.ciLow.text).toBe(formatPercent(low));
  const total = row(table6, "total");
  expect([total.comments.text, total.decided.text, total.useful.text]).toEqual(["8", "7", "5"]);
  // Codex: one comment, no consensus: its share is undefined and says why.
  const codex = row(table6, "codex");
  expect([codex.share.text, codex.share.value, codex.ciLow.value]).toEqual(["—", "null", "null"]);
  await expect(page.getByTestId("comment-systems-table-6").locator('tr[data-row="codex"] td[data-col="share"]')).toHaveAttribute("title", /None of its 1 comments has a consensus on "useful"/);
  const csv6 = await downloadCsv(page, 'Table 6 (c-CRAB): useful comments per system ("useful")');
  expect(csv6.name).toBe(`${STUDY}-comment-systems-table-6.csv`);
  expectCsvMatchesTable(csv6.rows, table6);

  // Figure 6: a bar per system, stacked by category, and its numbers in a table.
  const chart = page.getByTestId("category-chart");
  await expect(chart.locator("svg.recharts-surface").first()).toBeVisible();
  await expect(chart.locator(".recharts-bar-rectangle path, .recharts-bar-rectangle rect").first()).toBeVisible();
  await expect(chart.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value")).toHaveText(["Human reviewers", "claude-code", "codex"]);
  const figure6 = await readTable(page, "comment-systems-figure-6");
  const human = row(figure6, "human");
  expect([human.DESIGN.value, human.DOCUMENTATION.value, human.TESTING.value]).toEqual([String(2 / 3), String(1 / 3), "0"]);
  expect(row(figure6, "claude-code").ROBUSTNESS.text).toBe("50.00 %");
  expect(row(figure6, "codex").TESTING.value).toBe("null");
  const csv = await downloadCsv(page, await page.locator("#comment-systems-figure-6-title").innerText());
  expectCsvMatchesTable(csv.rows, figure6);
  await page.screenshot({ path: shot("comment-systems"), fullPage: true });
});

test("the lead edits the questions in the settings: a template added, a prompt changed; an answered question or option cannot go", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 1000 });
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${STUDY}/settings`);
  const form = page.getByRole("form", { name: "Comment questions" });
  const questions = form.getByTestId("comment-question");
  await expect(questions).toHaveCount(3);
  // The stored work each question and option holds.
  await expect(questions.nth(0)).toContainText("1 stored answer and 7 lead decisions");
  await expect(form.locator('[data-testid="codebook-option"][data-code="DESIGN"]')).toContainText("1 stored answer and 2 lead decisions");

  await form.getByLabel("Prompt of question 1").fill("Is the comment useful to the author?");
  await form.getByLabel("Template").selectOption("high-quality");
  await form.getByRole("button", { name: "Add from template" }).click();
  await expect(questions).toHaveCount(4);
  await expect(form.getByLabel("Justification of question 4")).toHaveValue("required");
  await form.getByRole("button", { name: "Save questions" }).click();
  await expect(form.getByRole("status")).toContainText("Comment questions saved.");
  const stored = async () => ((await testDb().study.findUniqueOrThrow({ where: { id: studyId } })).commentQuestions as CommentQuestion[] | null) ?? [];
  expect((await stored()).map((q) => [q.key, q.label])).toEqual([
    ["useful", "Is the comment useful to the author?"],
    ["category", "Category"],
    ["test-captures", "Test captures the concern"],
    ["high-quality", "High quality"],
  ]);

  // Removing the answered question and an answered option: refused, with how many answers, and nothing saved.
  await form.getByRole("button", { name: "Remove the option DESIGN of category" }).click();
  await form.getByRole("button", { name: "Remove the question useful" }).click();
  await form.getByRole("button", { name: "Save questions" }).click();
  const alert = form.getByRole("alert");
  await expect(alert).toContainText('The question "useful" cannot be removed or renamed: it has 1 stored answer and 7 lead decisions.');
  await expect(alert).toContainText('The option DESIGN ("Design") of "category" cannot be removed or renamed: 1 stored answer and 2 lead decisions chose it.');
  expect((await stored()).map((q) => q.key)).toEqual(["useful", "category", "test-captures", "high-quality"]);
  await form.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot("settings-refused"), fullPage: true });
});

test("a new study with comment questions starts from c-CRAB's, edited before it is created", async ({ page }) => {
  const slug = `cq-new-${Date.now()}`;
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies/new");
  const form = page.getByRole("form", { name: "New study" });
  await form.getByLabel("Name").first().fill(`PR tools ${slug}`);
  await form.getByLabel("Slug").fill(slug);
  await expect(form.getByTestId("comment-questions-editor")).toHaveCount(0);
  await form.getByLabel("Comment questions").check();
  const questions = form.getByTestId("comment-question");
  await expect(questions).toHaveCount(3);
  await expect(form.locator('[data-testid="comment-question"][data-key="category"] [data-testid="codebook-option"]')).toHaveCount(10);
  await form.getByRole("button", { name: "Remove the question test-captures" }).click();
  await form.getByLabel("Kind").selectOption("choice");
  await form.getByRole("button", { name: "Add a blank question" }).click();
  await form.getByLabel("Key of question 3").fill("severity");
  await form.getByLabel("Prompt of question 3").fill("How severe is the issue?");
  await form.getByLabel("Code of option 1 of severity").fill("MINOR");
  await form.getByLabel("Code of option 2 of severity").fill("MINOR");
  await form.getByRole("button", { name: "Create study" }).click();
  await expect(form.getByRole("alert")).toContainText("two options have the same code");
  expect(await testDb().study.count({ where: { slug } })).toBe(0);
  await form.getByLabel("Code of option 2 of severity").fill("MAJOR");
  await page.screenshot({ path: shot("new-study"), fullPage: true });
  await form.getByRole("button", { name: "Create study" }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${slug}$`));
  const study = await testDb().study.findUniqueOrThrow({ where: { slug } });
  const saved = study.commentQuestions as CommentQuestion[];
  expect(saved.map((q) => q.key)).toEqual(["useful", "category", "severity"]);
  expect(saved[2]).toMatchObject({ kind: "choice", label: "How severe is the issue?", options: [{ code: "MINOR" }, { code: "MAJOR" }] });
  await testDb().study.delete({ where: { id: study.id } });
});
