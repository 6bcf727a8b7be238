/**
 * Judge runs against a chat-completions server on loopback: on every task a judge's answers are
 * stored as the rater judge:NAME in the annotators' tables and shapes; they stay out of the
 * human analyses unless the run opts in; a reply that cannot be read is kept with its raw text;
 * a 429 with Retry-After is waited out; a budget stops the run, which resumes where it stopped;
 * a second run of the same prompt and model is answered from the cache; the judge's account can
 * neither sign in nor be managed; the command line prints the run.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, test } from "vitest";
import { startFakeLlm, userText, type FakeLlm, type ReceivedRequest, type Reply } from "../unit/judges/fake-llm";
import { createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";
import { createCommentQuestionsFixture, removeCommentQuestionsFixture, type CommentQuestionsFixture } from "./comment-questions-fixture";
import { cli } from "./cli";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const { runJudge } = await import("@/lib/judge-runs/run");
const { gatherTaskColumns } = await import("@/lib/data/task-answers");
const { requireStudy } = await import("@/lib/data/studies");
const { judgeRunSummary } = await import("@/lib/data/judge-runs");
const { signInAccount } = await import("@/lib/data/sign-in-throttle");
const { listAccounts, setAccountPassword } = await import("@/lib/data/accounts");
const { agreementReport } = await import("@/lib/data/reports");

let fake: FakeLlm;
let fx: AnnotationFixture;
let prs: CommentQuestionsFixture;
const tag = randomUUID().slice(0, 8);
/** Judge names are global accounts: each test's are its own. */
const judge = (name: string) => `${name}-${tag}`;

const json = (answer: unknown, reason = "because") => ({ content: `\`\`\`json\n${JSON.stringify({ answer, reason })}\n\`\`\``, usage: { prompt_tokens: 100, completion_tokens: 10 } });

/**
 * The answers a careful judge gives, told apart by the question's words and the item's text in
 * the prompt (whichever preset it is): every claim correct but claim-1 (incorrect), review 0
 * rated 2 and the others 4, review 1 low quality, comment c3 not useful, ...
 */
function answer(r: ReceivedRequest): Reply {
  const text = userText(r);
  const has = (words: string) => text.includes(words);
  if (has("Is the claim about")) return json(has("claim claim-1 of") ? "incorrect" : "correct");
  if (has("If the claim is incorrect")) return json("reasoning");
  if (has("Is the claim necessary")) return json("no");
  if (has("How would you rate")) return json(has("review 0 of") ? "2" : "4");
  if (has("Which of the numbered")) return json([1, 3]);
  if (has("Compare the generated code review") || has("How well does")) return json(3);
  if (has("high quality")) return json(has("review 1 of") ? "no" : "yes");
  if (has("Question: Useful")) return json(has("comment c3") ? "No" : "yes", "it names a bug");
  if (has("Question: Category")) return json("security");
  return json("yes");
}

beforeAll(async () => {
  fake = await startFakeLlm();
  fx = await createAnnotationFixture(db, `judge-${tag}`);
  prs = await createCommentQuestionsFixture(db, `judge-pr-${tag}`);
});
beforeEach(() => {
  fake.reset();
  fake.handle(answer);
});
afterAll(async () => {
  await fake.close();
  if (fx) await removeAnnotationFixture(db, fx);
  if (prs) await removeCommentQuestionsFixture(db, prs);
  await db.account.deleteMany({ where: { kind: "JUDGE", email: { endsWith: `-${tag}` } } });
  await db.$disconnect();
});

const llm = () => ({ url: fake.url, model: "gpt-4o-mini", backoffMs: 1, maxBackoffMs: 5_000 });
const judgeId = async (name: string) => (await db.account.findUniqueOrThrow({ where: { email: `judge:${judge(name)}` } })).id;

describe("a judge rater's answers on every task", () => {
  test("claim verification: codes with the reason as note, error types and necessity merged into one judgement per claim", async () => {
    const run = (q: string) => runJudge({ study: fx.slug, task: "CLAIM_VERIFICATION", question: q, name: judge("claims"), llm: llm() });
    const first = await run("code");
    expect(first.run).toMatchObject({ status: "DONE", total: 12, done: 12, model: "gpt-4o-mini", question: "code" });
    await run("error-type");
    await run("necessary");
    const account = await db.account.findUniqueOrThrow({ where: { email: `judge:${judge("claims")}` } });
    expect(account).toMatchObject({ name: `judge:${judge("claims")}`, kind: "JUDGE", active: false, passwordHash: null });
    const rows = await db.claimJudgement.findMany({ where: { annotatorId: account.id }, include: { pseudoReference: { select: { externalId: true } } } });
    expect(rows).toHaveLength(12);
    for (const row of rows) {
      expect(row).toMatchObject({ code: row.pseudoReference.externalId === "claim-1" ? "INCORRECT" : "CORRECT", errorType: "REASONING", necessary: false, note: "because", version: 3 });
    }
    // Each answer is in the history as an annotator's save is.
    expect(await db.annotationHistory.count({ where: { accountId: account.id, kind: "CLAIM_JUDGEMENT" } })).toBe(36);
  });

  test("review rating: a Likert dimension and the claims a review addresses; reference grading; comment filtering", async () => {
    await runJudge({ study: fx.slug, task: "REVIEW_RATING", question: "relevance", name: judge("reviews"), llm: llm() });
    const links = await runJudge({ study: fx.slug, task: "REVIEW_RATING", question: "links", name: judge("reviews"), llm: llm() });
    expect(links.run).toMatchObject({ status: "DONE", total: 24, done: 24 });
    const reviewer = await judgeId("reviews");
    const ratings = await db.reviewRating.findMany({ where: { annotatorId: reviewer }, include: { links: true, review: { select: { text: true, codeChangeId: true } } } });
    expect(ratings).toHaveLength(24);
    for (const r of ratings) {
      expect(r.scores).toEqual({ relevance: r.review.text.startsWith("review 0") ? 2 : 4 });
      // Claims 1 and 3 of the change's stage-2 set, as the prompt numbered them.
      const change = fx.changes.find((c) => c.id === r.review.codeChangeId)!;
      expect(r.links.map((l) => l.pseudoReferenceId).sort()).toEqual([change.claims[0], change.claims[2]].sort());
    }
    const graded = await runJudge({ study: fx.slug, task: "REFERENCE_GRADING", question: "grade", name: judge("reviews"), llm: llm() });
    expect(graded.run).toMatchObject({ status: "DONE", total: 21 });
    expect((await db.referenceGrade.findMany({ where: { annotatorId: reviewer } })).map((g) => g.grade)).toEqual(Array(21).fill(3));
    await runJudge({ study: fx.slug, task: "COMMENT_FILTERING", question: "high-quality", name: judge("reviews"), llm: llm() });
    const labels = await db.commentFilteringLabel.findMany({ where: { annotatorId: reviewer }, include: { review: { select: { text: true } } } });
    expect(labels).toHaveLength(24);
    for (const l of labels) expect(l).toMatchObject({ highQuality: !l.review.text.startsWith("review 1 "), justification: "because" });
  });

  test("comment questions: a binary, a choice and the linked-test question (asked only of the comment with a test)", async () => {
    const run = (q: string) => runJudge({ study: prs.study.slug, task: "COMMENT_QUESTIONS", question: q, name: judge("comments"), llm: llm() });
    expect((await run("useful")).run).toMatchObject({ status: "DONE", total: 4 });
    await run("category");
    expect((await run("test-captures")).run).toMatchObject({ status: "DONE", total: 1 });
    const rows = await db.commentAnswers.findMany({ where: { annotatorId: await judgeId("comments") }, include: { reviewComment: { select: { externalId: true } } } });
    const byComment = Object.fromEntries(rows.map((r) => [r.reviewComment.externalId, r.answers]));
    expect(byComment).toEqual({
      c1: { useful: true, category: "SECURITY" },
      c2: { useful: true, category: "SECURITY", "test-captures": true },
      c3: { useful: false, category: "SECURITY" },
      c4: { useful: true, category: "SECURITY" },
    });
    // The judge's answers stay with no other study's comments.
    expect(rows.every((r) => Object.values(prs.study.comments).includes(r.reviewCommentId))).toBe(true);
  });
});

describe("judge answers and the human analyses", () => {
  test("left out of consensus and agreement unless a run opts in; all of them on request", async () => {
    const study = await requireStudy({ slug: fx.slug }, db);
    await runJudge({ study: fx.slug, task: "COMMENT_FILTERING", question: "high-quality", name: judge("apart"), llm: llm() });
    const apart = await judgeId("apart");
    expect((await gatherTaskColumns(study, "COMMENT_FILTERING", db)).raters).not.toContain(apart);
    expect((await gatherTaskColumns(study, "COMMENT_FILTERING", db, { judges: "all" })).raters).toContain(apart);
    await runJudge({ study: fx.slug, task: "COMMENT_FILTERING", question: "high-quality", name: judge("counted"), inConsensus: true, llm: llm() });
    const raters = (await gatherTaskColumns(study, "COMMENT_FILTERING", db)).raters;
    expect(raters).toContain(await judgeId("counted"));
    expect(raters).not.toContain(apart);
  });
});

describe("a run's requests", () => {
  test("a reply that cannot be read is asked again, then stored as a parse failure with its raw text", async () => {
    fake.handle((r) => (userText(r).includes("review 2 of change 0") ? { content: "I think it is good, maybe 4 or 5." } : answer(r)));
    const { run } = await runJudge({ study: fx.slug, task: "COMMENT_FILTERING", question: "high-quality", name: judge("failing"), temperature: 0.5, llm: llm() });
    expect(run).toMatchObject({ status: "DONE", total: 24, done: 24 });
    const failed = await db.judgeAnswer.findMany({ where: { runId: run.id, error: { not: null } } });
    expect(failed).toHaveLength(1);
    expect(failed[0].raw).toEqual(Array(3).fill("I think it is good, maybe 4 or 5."));
    expect(failed[0].error).toMatch(/expected one of yes, no/);
    expect(failed[0].value).toBeNull();
    expect(await db.commentFilteringLabel.count({ where: { annotatorId: await judgeId("failing") } })).toBe(23);
    expect(await judgeRunSummary(run.id, db)).toMatchObject({ answers: 23, parseFailures: 1 });
  });

  test("a 429 with Retry-After is waited out before the request is sent again", async () => {
    const sent: number[] = [];
    fake.handle((r, i) => {
      sent.push(performance.now());
      return i === 0 ? { status: 429, headers: { "retry-after": "1" }, body: "slow down" } : answer(r);
    });
    const { run } = await runJudge({ study: prs.study.slug, task: "COMMENT_QUESTIONS", question: "useful", name: judge("patient"), concurrency: 1, temperature: 0.3, llm: llm() });
    expect(run).toMatchObject({ status: "DONE", done: 4 });
    expect(fake.requests).toHaveLength(5);
    expect(sent[1] - sent[0]).toBeGreaterThanOrEqual(950);
  });

  test("a budget stops the run; started again with more, it answers only the items left", async () => {
    // 110 tokens a request: a budget of 500 tokens allows 5 requests, one at a time.
    const stopped = await runJudge({ study: fx.slug, task: "REFERENCE_GRADING", question: "grade", name: judge("thrifty"), concurrency: 1, temperature: 0.7, budgetTokens: 500, llm: llm() });
    expect(stopped.run).toMatchObject({ status: "FAILED", done: 5, total: 21 });
    expect(stopped.run.error).toMatch(/budget of 500 tokens reached/);
    expect(fake.requests).toHaveLength(5);
    fake.reset();
    fake.handle(answer);
    const resumed = await runJudge({ study: fx.slug, task: "REFERENCE_GRADING", question: "grade", name: judge("thrifty"), concurrency: 1, temperature: 0.7, budgetTokens: 5_000, llm: llm() });
    expect(resumed).toMatchObject({ resumed: true, run: { id: stopped.run.id, status: "DONE", done: 21 } });
    expect(fake.requests).toHaveLength(16);
  });

  test("another run of the same prompt and model is served from the cache: no request, nothing spent", async () => {
    const first = await runJudge({ study: fx.slug, task: "REVIEW_RATING", question: "conciseness", name: judge("first"), temperature: 0.1, seed: 7, llm: llm() });
    expect(fake.requests).toHaveLength(24);
    expect(fake.requests.every((r) => r.seed === 7 && r.temperature === 0.1)).toBe(true);
    fake.reset();
    const again = await runJudge({ study: fx.slug, task: "REVIEW_RATING", question: "conciseness", name: judge("again"), temperature: 0.1, seed: 7, llm: llm() });
    expect(fake.requests).toHaveLength(0);
    expect(again.run.promptVersion).toBe(first.run.promptVersion);
    expect(await judgeRunSummary(again.run.id, db)).toMatchObject({ status: "DONE", answers: 24, cached: 24, promptTokens: 0, completionTokens: 0, costUsd: 0 });
    expect(await db.reviewRating.count({ where: { annotatorId: await judgeId("again") } })).toBe(24);
  });
});

describe("prompt versions", () => {
  test("a run without a prompt uses the preset made for the question; a pasted text is a new version; a version is found by its prefix", async () => {
    const graded = await runJudge({ study: fx.slug, task: "REFERENCE_GRADING", question: "grade", name: judge("versions"), temperature: 0.2, llm: llm() });
    expect(await judgeRunSummary(graded.run.id, db)).toMatchObject({ preset: "gradedreviews", status: "DONE", answers: 21 });
    expect(userText(fake.requests[0])).toContain("Grade 4: the generated review is essentially equivalent");
    const paper = "Rate the generated review against the reference, 1 to 5.\nGenerated: {{item}}\nReference: {{reference}}\nGrade:";
    fake.reset();
    fake.handle(() => json(2));
    const pasted = await runJudge({ study: fx.slug, task: "REFERENCE_GRADING", question: "grade", name: judge("versions"), temperature: 0.2, prompt: paper, llm: llm() });
    expect(pasted.run.promptVersion).not.toBe(graded.run.promptVersion);
    expect(userText(fake.requests[0])).toMatch(/^Rate the generated review against the reference, 1 to 5.\nGenerated: review \d of change 0\nReference: the reference review of 0\nGrade:$/);
    const versions = await db.promptTemplate.findMany({ where: { studyId: fx.studyId, task: "REFERENCE_GRADING", question: "grade" } });
    expect(versions.map((v) => v.preset).sort()).toEqual(["", "gradedreviews"]);
    expect(versions.find((v) => v.preset === "")).toMatchObject({ text: paper, version: pasted.run.promptVersion });
    // The same text again is the same version, stored once; by its prefix it is found, and answered from the cache.
    fake.reset();
    const again = await runJudge({ study: fx.slug, task: "REFERENCE_GRADING", question: "grade", name: judge("versions-again"), temperature: 0.2, promptVersion: pasted.run.promptVersion.slice(0, 10), llm: llm() });
    expect(again.run).toMatchObject({ promptVersion: pasted.run.promptVersion, promptId: pasted.run.promptId, status: "DONE" });
    expect(fake.requests).toHaveLength(0);
    // Each answer keeps its version through its run; the judge's grades are the last run's.
    const answers = await db.judgeAnswer.findMany({ where: { run: { judge: { email: `judge:${judge("versions")}` } } }, select: { run: { select: { promptVersion: true } }, value: true } });
    expect(answers).toHaveLength(42);
    expect(answers.filter((a) => a.run.promptVersion === pasted.run.promptVersion).every((a) => (a.value as { grade: number }).grade === 2)).toBe(true);
  });

  test("a template naming an unknown variable, an empty one or an unknown version is refused, and nothing is stored", async () => {
    const count = () => db.promptTemplate.count({ where: { studyId: fx.studyId } });
    const before = await count();
    const run = (extra: { prompt?: string; promptVersion?: string }) => runJudge({ study: fx.slug, task: "COMMENT_FILTERING", question: "high-quality", name: judge("refused"), llm: llm(), ...extra });
    await expect(run({ prompt: "Judge {{review}} of {{diff}} on {{scal}}" })).rejects.toThrow(/names \{\{review\}\}, \{\{scal\}\}, which are not variables \(variables: \{\{question\}\}, \{\{scale\}\}, \{\{codebook\}\}/);
    await expect(run({ prompt: "  \n" })).rejects.toThrow(/the prompt is empty/);
    await expect(run({ promptVersion: "0123456789abcdef" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(run({ promptVersion: "zz" })).rejects.toThrow(/8 to 64 hex digits/);
    expect(await count()).toBe(before);
    expect(fake.requests).toHaveLength(0);
    expect(await db.judgeRun.count({ where: { judge: { email: `judge:${judge("refused")}` } } })).toBe(0);
  });
});

describe("judges in the agreement report", () => {
  test("Human–Human and Human–Judge κ and the judge against the consensus, per question", async () => {
    const small = await createAnnotationFixture(db, `judge-agr-${tag}`, { changes: 1 });
    try {
      await runJudge({ study: small.slug, task: "COMMENT_FILTERING", question: "high-quality", name: judge("report"), temperature: 0.6, llm: llm() });
      const reviews = await db.review.findMany({ where: { codeChangeId: small.changes[0].id }, select: { id: true, text: true } });
      // The judge says yes but to review 1 (7 yes, 1 no); ann1 answers as the judge, ann2 the opposite.
      const judgeSays = (text: string) => !text.startsWith("review 1 of");
      for (const r of reviews) {
        await db.commentFilteringLabel.create({ data: { annotatorId: small.accounts.ann1, reviewId: r.id, highQuality: judgeSays(r.text) } });
        await db.commentFilteringLabel.create({ data: { annotatorId: small.accounts.ann2, reviewId: r.id, highQuality: !judgeSays(r.text) } });
      }
      // The lead's consensus on reviews 0 and 1: both high quality.
      for (const r of reviews.filter((x) => /^review [01] of/.test(x.text))) {
        await db.consensus.create({ data: { studyId: small.studyId, task: "COMMENT_FILTERING", itemId: r.id, question: "high-quality", value: "high-quality", reason: "agreed" } });
      }
      const report = await agreementReport(small.studyId, { task: "COMMENT_FILTERING", bootstrap: { nResamples: 100 } }, db);
      const q = report.tasks[0].questions[0];
      // The judge is no rater of the annotators' own figures.
      expect(q.raters.map((r) => r.id).sort()).toEqual([small.accounts.ann1, small.accounts.ann2].sort());
      // ann1–ann2 (and ann2–judge): p_o = 0, p_e = 7/8·1/8 + 1/8·7/8 = 14/64, κ = −(14/64)/(50/64) = −0.28; ann1–judge: κ = 1.
      expect(q.judges!.humanHuman).toMatchObject({ min: expect.closeTo(-0.28, 12), max: expect.closeTo(-0.28, 12), mean: expect.closeTo(-0.28, 12) });
      const j = q.judges!.humanJudge[`judge:${judge("report")}`];
      expect(j.perAnnotator.map((p) => p.value).sort()).toEqual([expect.closeTo(-0.28, 12), expect.closeTo(1, 12)]);
      expect(j.mean).toBeCloseTo(0.36, 12);
      expect(j.ci).toMatchObject({ nResamples: 100 });
      // Against the consensus: right on review 0, wrong on review 1.
      expect(q.judges!.againstConsensus[`judge:${judge("report")}`]).toMatchObject({ items: 2, accuracy: { value: 0.5 }, positive: "high-quality", precision: { value: 1, n: 1 }, recall: { value: 0.5, n: 2 } });
      expect(report.tasks[0].questions[0].judges!.method).toMatch(/unweighted/);
      const quadratic = await agreementReport(small.studyId, { task: "COMMENT_FILTERING", bootstrap: { nResamples: 0 }, judgeWeights: "quadratic" }, db);
      expect(quadratic.tasks[0].questions[0].judges!.method).toMatch(/quadratic weights/);
    } finally {
      await removeAnnotationFixture(db, small);
    }
  });
});

describe("the judge's account", () => {
  test("cannot sign in, is on no one's accounts page and cannot be given a password", async () => {
    await runJudge({ study: prs.study.slug, task: "COMMENT_QUESTIONS", question: "useful", name: judge("locked"), llm: llm() });
    const email = `judge:${judge("locked")}`;
    const id = await judgeId("locked");
    expect(await signInAccount(email)).toBeNull();
    const admin = { id: "no-such-admin", role: "ADMIN" as const };
    expect((await listAccounts(admin)).map((a) => a.id)).not.toContain(id);
    await expect(setAccountPassword(admin, id, "a long enough password 1", { activate: true })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await db.account.findUniqueOrThrow({ where: { id } })).toMatchObject({ active: false, passwordHash: null });
  });
});

describe("judge on the command line", () => {
  test("prints the run as JSON; refuses an unknown question naming the task's questions", async () => {
    process.env.LLM_URL = fake.url;
    const done = await cli("judge", "--study", prs.study.slug, "--task", "comment-questions", "--question", "category", "--model", "gpt-4o-mini", "--name", judge("cli"), "--trials", "3", "--temperature", "0.9");
    expect(done.code, done.stderr).toBe(0);
    const printed = JSON.parse(done.stdout);
    expect(printed).toMatchObject({ study: prs.study.slug, rater: `judge:${judge("cli")}`, task: "COMMENT_QUESTIONS", question: "category", model: "gpt-4o-mini", trials: 3, status: "DONE", total: 4, answers: 4, parseFailures: 0 });
    expect(printed.promptVersion).toMatch(/^[0-9a-f]{64}$/);
    // Three trials a comment, each its own sample.
    expect(fake.requests).toHaveLength(12);
    const refused = await cli("judge", "--study", prs.study.slug, "--task", "comment-questions", "--question", "nope", "--model", "gpt-4o-mini");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/no question "nope".*useful, category, test-captures/);
    const file = path.join(mkdtempSync(path.join(tmpdir(), "judge-")), "prompt.txt");
    writeFileSync(file, "Is {{item}} useful? {{scale}}");
    const listed = await cli("judge-prompts", "--study", prs.study.slug, "--task", "COMMENT_QUESTIONS", "--question", "useful", "--add", file);
    expect(listed.code, listed.stderr).toBe(0);
    const { added, versions } = JSON.parse(listed.stdout) as { added: string; versions: { version: string; preset: string; text: string }[] };
    expect(versions[0]).toMatchObject({ version: added, preset: "", text: "Is {{item}} useful? {{scale}}" });
    // The versions the runs used, then the presets not used yet.
    expect(versions.map((v) => v.preset)).toEqual(["", "product", "swe-judge-direct"]);
  });
});
