/**
 * The annotator's workspace of a pull request (comment questions, c-CRAB §4): the demo's
 * shop-api#118, copied into a study of its own that asks usefulness (optional justification), a
 * category from c-CRAB's ten and high quality (required justification), with the reviewers
 * blinded. An annotator answers every comment by keyboard alone (j/k across files, digits, m for
 * a justification), reloads mid-item and finds the answers and the focused comment again, is
 * refused a submit while a justification is missing, then submits; a second annotator sees none
 * of it; the tools' names appear nowhere; the lead's page of c-CRAB Table 6 and Figure 6 changes
 * from nothing decided to the two annotators' consensus. In a study asking the matching question,
 * an annotator matches a tool's comment to each human comment by keyboard (2 fully, 1 partly,
 * 0 none), and the degrees survive a reload. Screenshots in test-results/workspace-pull-request/.
 */
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { COMMENT_QUESTION_TEMPLATES } from "@/lib/annotation/comment-questions";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { readTable, row } from "./dashboard-helpers";
import { expectSaved, gotoWorkspace, keys, newAnnotator, watchPageErrors } from "./workspace-fixtures";

const shot = (name: string) => `test-results/workspace-pull-request/${name}.png`;
const QUESTIONS = [COMMENT_QUESTION_TEMPLATES.useful, COMMENT_QUESTION_TEMPLATES.category, COMMENT_QUESTION_TEMPLATES["high-quality"]];
/** The tools and people who wrote shop-api#118's comments, as the blinded workspace must not show them. */
const HIDDEN = [/coderabbit/i, /claude/i, /maria-reviews/i];

/** A study of the e2e lead holding a copy of the demo's shop-api#118 with its files and comments; its id and slug. */
async function pullRequestStudy(questions: readonly object[] = QUESTIONS): Promise<{ studyId: string; slug: string; firstFile: string; comments: number }> {
  const db = testDb();
  const lead = await db.account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } });
  const demo = await db.pullRequest.findFirstOrThrow({ where: { externalId: "shop-api#118", study: { slug: "demo" } }, include: { codeChanges: { orderBy: { position: "asc" } }, comments: { orderBy: { position: "asc" } } } });
  const slug = `prq-${randomUUID().slice(0, 8)}`;
  const study = await db.study.create({ data: { slug, name: `Pull request study ${slug}`, ownerId: lead.id, tasks: ["COMMENT_QUESTIONS"], hideSystemNames: true, annotatorsPerItem: 2, commentQuestions: questions as object[] } });
  await db.studyMember.create({ data: { studyId: study.id, accountId: lead.id, role: "LEAD" } });
  const { id: _id, studyId: _s, createdAt: _c, codeChanges, comments, metadata, ...pr } = demo;
  const copy = await db.pullRequest.create({ data: { ...pr, metadata: metadata as object, studyId: study.id } });
  const files = new Map<string, string>();
  for (const f of codeChanges) {
    const made = await db.codeChange.create({
      data: { studyId: study.id, pullRequestId: copy.id, externalId: f.externalId, filePath: f.filePath, status: f.status, oldPath: f.oldPath, binary: f.binary, language: f.language, diff: f.diff, oldFile: f.oldFile, newFile: f.newFile, position: f.position },
    });
    files.set(f.id, made.id);
  }
  const ids = new Map<string, string>();
  for (const c of comments) {
    const made = await db.reviewComment.create({
      data: {
        pullRequestId: copy.id,
        codeChangeId: files.get(c.codeChangeId)!,
        externalId: c.externalId,
        path: c.path,
        side: c.side,
        startSide: c.startSide,
        startLine: c.startLine,
        line: c.line,
        body: c.body,
        system: c.system,
        author: c.author,
        inReplyToId: c.inReplyToId ? ids.get(c.inReplyToId)! : null,
        metadata: c.metadata as object,
        position: c.position,
      },
    });
    ids.set(c.id, made.id);
  }
  return { studyId: study.id, slug, firstFile: files.get(codeChanges[0].id)!, comments: comments.length };
}

async function annotatorOf(study: { studyId: string; firstFile: string }, label: string) {
  const { account, accountId } = await newAnnotator(label);
  await testDb().studyMember.create({ data: { studyId: study.studyId, accountId, role: "ANNOTATOR" } });
  const assignment = await testDb().assignment.create({ data: { studyId: study.studyId, annotatorId: accountId, codeChangeId: study.firstFile, task: "COMMENT_QUESTIONS", position: 0 } });
  return { account, accountId, assignmentId: assignment.id };
}

/** What the lead's comment-systems page shows: Table 6's rows (comments, decided, useful per system) and Figure 6's (decided and the count per category). */
async function leadTables(lead: Page, slug: string) {
  await lead.goto(`/studies/${slug}/comment-systems`);
  const table6 = await readTable(lead, "comment-systems-table-6");
  const figure6 = await readTable(lead, "comment-systems-figure-6");
  const systems = table6.rows.filter((r) => r.key !== "total").map((r) => r.key);
  return {
    systems,
    usefulness: systems.map((system) => {
      const r = row(table6, system);
      return { system, comments: Number(r.comments.text), decided: Number(r.decided.text), useful: Number(r.useful.text) };
    }),
    total: row(table6, "total"),
    categories: systems.map((system) => {
      const r = row(figure6, system);
      return { system, decided: Number(r.decided.text), counts: Object.fromEntries(CATEGORY_CODES.map((code) => [code, Number(r[code].n)])) };
    }),
  };
}

const CATEGORY_CODES = (COMMENT_QUESTION_TEMPLATES.category as { options: { code: string }[] }).options.map((o) => o.code);

const focused = (page: Page) => page.locator('[data-testid="review-comment"][aria-current="true"]');

/** Answers the focused comment by keyboard: useful yes, the category's digit, high quality yes with its justification; then j. */
async function answerFocused(page: Page, category: string, justification: string) {
  await keys(page, "1", category, "1");
  // High quality needs its justification: the cursor stays on it until one is written.
  await expect(focused(page).getByTestId("question-high-quality")).toHaveAttribute("aria-current", "true");
  await keys(page, "m");
  await page.keyboard.type(justification);
  await keys(page, "Escape");
}

test("an annotator labels a pull request's comments by keyboard, reloads, submits; another sees none of it; the lead sees Table 6 and Figure 6 change", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const study = await pullRequestStudy();
  const first = await annotatorOf(study, "pr-ann1");
  const second = await annotatorOf(study, "pr-ann2");
  // The lead's page of Table 6 and Figure 6 before anyone answers: every comment counted, none decided.
  const lead = await browser.newPage();
  await signIn(lead, E2E_ACCOUNTS.lead);
  const before = await leadTables(lead, study.slug);
  expect(before.usefulness.reduce((n, r) => n + r.comments, 0)).toBe(study.comments);
  expect(before.usefulness.every((r) => r.comments > 0 && r.decided === 0 && r.useful === 0)).toBe(true);
  expect(before.categories.every((r) => r.decided === 0 && Object.values(r.counts).every((n) => n === 0))).toBe(true);
  await lead.screenshot({ path: shot("lead-tables-before"), fullPage: true });

  const errors = watchPageErrors(page);
  await signIn(page, first.account);
  await gotoWorkspace(page, first.assignmentId);
  const view = page.getByTestId("pull-request-view");
  await expect(view.getByTestId("pr-counts")).toContainText(`3 files · ${study.comments} comments`);
  await expect(view.getByTestId("blinded-note")).toBeVisible();
  // Opens on the first comment, focused and announced.
  await expect(page.getByTestId("comment-announcement")).toContainText(`Comment 1 of ${study.comments}`);
  await expect(focused(page)).toBeFocused();
  await expect(focused(page).getByTestId("comment-reviewer")).toHaveText(/^Reviewer [A-C]$/);
  // The header with Submit stays on screen while the page scrolls to the focused comment.
  await expect(page.getByTestId("workspace-header").getByRole("button", { name: /Submit/ })).toBeInViewport();
  // Blinded: no tool or reviewer name anywhere on the page.
  const text = await page.locator("body").innerText();
  for (const name of HIDDEN) expect(text).not.toMatch(name);
  await page.screenshot({ path: shot("opened") });

  // The first three comments by keyboard; each after the next j is the next one in reading order.
  const seen: string[] = [];
  for (let i = 0; i < 3; i++) {
    seen.push((await focused(page).getAttribute("data-comment-id"))!);
    await answerFocused(page, String(i + 1), `reason ${i + 1}`);
    await expect(focused(page).getByTestId("comment-missing")).toHaveText(/All answered/);
    await keys(page, "j");
    await expect(page.getByTestId("comment-announcement")).toContainText(`Comment ${i + 2} of ${study.comments}`);
  }
  // The fourth: only useful and the category, then the page is reloaded before anything else.
  const fourth = (await focused(page).getAttribute("data-comment-id"))!;
  await keys(page, "1", "2");
  await expect(focused(page).getByTestId("question-high-quality")).toHaveAttribute("aria-current", "true");
  await page.screenshot({ path: shot("answering") });
  await expectSaved(page);
  await expect(page.getByTestId("answered-count")).toContainText(`3 of ${study.comments} answered`);

  await page.reload();
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  // Back on the fourth comment, at its high-quality question, with its answers and the others'.
  await expect(focused(page)).toHaveAttribute("data-comment-id", fourth);
  await expect(focused(page).getByTestId("question-high-quality")).toHaveAttribute("aria-current", "true");
  await expect(focused(page).getByTestId("question-useful").getByRole("radio", { name: /Yes/ })).toHaveAttribute("aria-checked", "true");
  await expect(focused(page).getByTestId("question-category").getByRole("radio", { name: /Testing/ })).toHaveAttribute("aria-checked", "true");
  await expect(page.getByTestId("answered-count")).toContainText(`3 of ${study.comments} answered`);
  await expect(page.locator(`[data-comment-id="${seen[0]}"]`).getByTestId("comment-answers-summary")).toContainText("Useful: Yes · Category: Functional correctness · High quality: Yes");

  // High quality answered without its justification: a submit is refused, naming it, and shows that comment.
  await keys(page, "0");
  await keys(page, "k");
  await keys(page, "Control+Enter");
  await expect(page.getByTestId("flash")).toContainText("justification of high-quality");
  await expect(focused(page)).toHaveAttribute("data-comment-id", fourth);
  await expect(page.getByTestId("missing-answers")).toContainText("still need answers");
  await keys(page, "m");
  await page.keyboard.type("no test could check it");
  await keys(page, "Escape", "j");

  // The rest, then submit.
  for (let i = 4; i < study.comments; i++) {
    await answerFocused(page, String(((i * 3) % 9) + 1), `reason ${i + 1}`);
    if (i < study.comments - 1) await keys(page, "j");
  }
  await expect(page.getByTestId("answered-count")).toContainText(`${study.comments} of ${study.comments} answered`);
  await expect(page.getByTestId("missing-answers")).toHaveCount(0);
  await expectSaved(page);
  await page.screenshot({ path: shot("all-answered") });
  await keys(page, "Control+Enter");
  await expect(page).toHaveURL(/\/annotate$/);
  const done = await testDb().assignment.findUniqueOrThrow({ where: { id: first.assignmentId } });
  expect(done.status).toBe("DONE");
  const stored = await testDb().commentAnswers.findMany({ where: { annotatorId: first.accountId } });
  expect(stored).toHaveLength(study.comments);
  expect(stored.find((a) => a.reviewCommentId === fourth)).toMatchObject({ answers: { useful: true, category: "TESTING", "high-quality": false }, notes: { "high-quality": "no test could check it" } });
  expect(errors).toEqual([]);

  // One annotator's answers make no consensus (c-CRAB's labels are agreed ones): the lead's tables decide nothing yet.
  const one = await leadTables(lead, study.slug);
  expect(one.usefulness).toEqual(before.usefulness);
  expect(one.categories).toEqual(before.categories);

  // Another annotator of the same pull request sees none of the first's answers.
  const other = await browser.newPage();
  await signIn(other, second.account);
  await gotoWorkspace(other, second.assignmentId);
  await expect(other.getByTestId("answered-count")).toContainText(`0 of ${study.comments} answered`);
  await expect(other.locator('[data-testid="comment-answers"] [role="radio"][aria-checked="true"]')).toHaveCount(0);
  await expect(other.getByTestId("comment-answers-summary").filter({ hasText: "Useful:" })).toHaveCount(0);
  await expect(other.getByText("no test could check it")).toHaveCount(0);
  const data = await other.evaluate(async (id) => (await fetch(`/api/annotations/assignments/${id}`)).text(), second.assignmentId);
  expect(data).not.toContain("no test could check it");
  for (const name of HIDDEN) expect(data).not.toMatch(name);

  // The second annotator finds every comment useful too and submits: Table 6 now counts every comment decided and useful, per system.
  for (let i = 0; i < study.comments; i++) {
    await answerFocused(other, "1", `second ${i + 1}`);
    if (i < study.comments - 1) await keys(other, "j");
  }
  await expectSaved(other);
  await keys(other, "Control+Enter");
  await expect(other).toHaveURL(/\/annotate$/);
  await other.close();

  // The lead's Table 6 now counts every comment decided and useful, per system; Figure 6 the
  // categories both annotators chose alike (the second chose the first category throughout).
  const after = await leadTables(lead, study.slug);
  expect(after.systems).toEqual(before.systems);
  expect(after.usefulness).toEqual(before.usefulness.map((r) => ({ ...r, decided: r.comments, useful: r.comments })));
  expect([after.total.comments.text, after.total.decided.text, after.total.useful.text]).toEqual([String(study.comments), String(study.comments), String(study.comments)]);
  const both = await testDb().commentAnswers.findMany({ where: { annotatorId: { in: [first.accountId, second.accountId] } }, include: { reviewComment: { select: { system: true } } } });
  const agreed = new Map<string, number>();
  for (const a of both.filter((x) => x.annotatorId === first.accountId)) {
    const theirs = both.find((x) => x.annotatorId === second.accountId && x.reviewCommentId === a.reviewCommentId);
    const category = (a.answers as Record<string, unknown>).category;
    if (category === (theirs?.answers as Record<string, unknown>).category) agreed.set(a.reviewComment.system, (agreed.get(a.reviewComment.system) ?? 0) + 1);
  }
  expect(agreed.size).toBeGreaterThan(0);
  expect(after.categories).toEqual(before.categories.map((r) => ({ system: r.system, decided: agreed.get(r.system) ?? 0, counts: { ...r.counts, [CATEGORY_CODES[0]]: agreed.get(r.system) ?? 0 } })));
  await lead.screenshot({ path: shot("lead-tables-after"), fullPage: true });

  // The lead's preview of the first annotator's assignment is the same pull request, read-only, with their answers; their page lists every comment's answers.
  await lead.goto(`/studies/${study.slug}/items/${study.firstFile}?task=COMMENT_QUESTIONS&annotator=${first.accountId}`);
  const preview = lead.getByTestId("code-change-preview");
  await expect(preview.getByRole("heading", { level: 1 })).toContainText("pull request shop-api#118");
  await expect(preview.getByTestId("pr-counts")).toContainText(`3 files · ${study.comments} comments`);
  await expect(preview.locator(`[data-comment-id="${seen[0]}"]`).getByTestId("comment-answers-summary")).toContainText("Useful: Yes · Category: Functional correctness · High quality: Yes");
  await preview.locator(`[data-comment-id="${fourth}"]`).click();
  const shownAnswers = preview.locator(`[data-comment-id="${fourth}"]`).getByTestId("comment-answers");
  await expect(shownAnswers.getByRole("radio", { name: /Testing/ })).toHaveAttribute("aria-checked", "true");
  await expect(shownAnswers.getByRole("radio", { name: /Testing/ })).toBeDisabled();
  await expect(shownAnswers.getByLabel(/Justification of High quality/)).toHaveValue("no test could check it");
  await lead.screenshot({ path: shot("lead-preview") });
  await lead.goto(`/studies/${study.slug}/annotators/${first.accountId}`);
  const row = lead.getByTestId("answer-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("pull request shop-api#118");
  await expect(row.locator("li")).toHaveCount(study.comments);
  await lead.close();
});

test("an annotator matches a tool's comment to the human comments by keyboard, and the degrees survive a reload", async ({ page }) => {
  test.setTimeout(120_000);
  const study = await pullRequestStudy([COMMENT_QUESTION_TEMPLATES.matches]);
  const humans = await testDb().reviewComment.findMany({ where: { pullRequest: { studyId: study.studyId }, system: "human" }, select: { id: true } });
  expect(humans.length).toBeGreaterThan(1);
  const annotator = await annotatorOf(study, "pr-match");
  const errors = watchPageErrors(page);
  await signIn(page, annotator.account);
  await gotoWorkspace(page, annotator.assignmentId);
  // Opens on the first comment with something to answer: a tool's, with a step per human comment, the first marked.
  const tool = (await focused(page).getAttribute("data-comment-id"))!;
  const steps = focused(page).locator('[data-testid^="match-"]');
  await expect(steps).toHaveCount(humans.length);
  await expect(steps.first()).toHaveAttribute("aria-current", "true");
  await expect(steps.first()).toContainText(/Comment \d+ \(/);
  // Fully, partly, then none to the rest: each digit answers the marked step and moves to the next.
  await keys(page, "2", "1");
  await expect(steps.nth(2)).toHaveAttribute("aria-current", "true");
  await focused(page).screenshot({ path: shot("matching") });
  for (let i = 2; i < humans.length; i++) await keys(page, "0");
  // After the last human comment the cursor moves to the next comment.
  await expect(focused(page)).not.toHaveAttribute("data-comment-id", tool);
  await expectSaved(page);

  await page.reload();
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await page.locator(`[data-comment-id="${tool}"]`).click();
  await expect(focused(page)).toHaveAttribute("data-comment-id", tool);
  await expect(steps.nth(0).getByRole("radio", { name: /Fully/ })).toHaveAttribute("aria-checked", "true");
  await expect(steps.nth(1).getByRole("radio", { name: /Partly/ })).toHaveAttribute("aria-checked", "true");
  await expect(steps.last().getByRole("radio", { name: /None/ })).toHaveAttribute("aria-checked", "true");
  await expect(focused(page).getByTestId("comment-missing")).toHaveText(/All answered/);
  const ids = await steps.evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")!.slice("match-".length)));
  const stored = await testDb().commentAnswers.findFirstOrThrow({ where: { annotatorId: annotator.accountId, reviewCommentId: tool } });
  expect(stored.answers).toEqual({ matches: Object.fromEntries(ids.map((id, i) => [id, i === 0 ? "fully" : i === 1 ? "partly" : "none"])) });
  expect(new Set(ids)).toEqual(new Set(humans.map((h) => h.id)));
  expect(errors).toEqual([]);
});
