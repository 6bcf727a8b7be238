/**
 * Comment questions on a real PostgreSQL: one assignment per annotator and pull request, the
 * workspace's pull request with its comments and the annotator's own answers, the save (one
 * statement, versions, conflicts, the study's questions checked), completeness at submit,
 * authorization (another annotator, another study, a lead of another study), and agreement,
 * consensus and adjudication on the questions.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import pg from "pg";
import type { SaveRequest } from "@/lib/annotation/values";
import { COMMENT_QUESTION_TEMPLATES, type CommentQuestionInput } from "@/lib/annotation/comment-questions";
import { asAccount } from "./annotation-fixture";
import { createCommentQuestionsFixture, removeCommentQuestionsFixture, type CommentQuestionsFixture } from "./comment-questions-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const statements: string[] = [];
const send = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements.push(typeof args[0] === "string" ? args[0] : (args[0] as { text: string }).text);
  return send.apply(this, args);
} as typeof pg.Client.prototype.query;
const { db } = await import("@/lib/db/client");
const { assignmentFileSource, getWorkspace, readItem, saveAnnotation, submitAssignment, recordTimeSpent } = await import("@/lib/data/annotations");
const { generateAssignments } = await import("@/lib/data/assignment-admin");
const { adjudicationQueue, adjudicationItem, saveConsensus } = await import("@/lib/data/adjudication");
const { taskConsensus } = await import("@/lib/data/consensus");
const { requireStudy } = await import("@/lib/data/studies");
const { agreementReport } = await import("@/lib/data/reports");
const { commentSystemTables } = await import("@/lib/data/comment-systems");
const { wilsonInterval } = await import("@/lib/stats/proportion");
const { streamExport } = await import("@/lib/data/exports");
const { requireLedCodeChangeSource } = await import("@/lib/data/pull-requests");

const QUESTIONS: CommentQuestionInput[] = [
  COMMENT_QUESTION_TEMPLATES["high-quality"],
  COMMENT_QUESTION_TEMPLATES.useful,
  COMMENT_QUESTION_TEMPLATES.category,
  COMMENT_QUESTION_TEMPLATES["test-captures"],
  { kind: "likert", key: "relevance", label: "Relevance" },
  { kind: "grade", key: "grade", label: "Grade" },
];

let fx: CommentQuestionsFixture;
const lead = () => ({ id: fx.accounts.lead, role: "LEAD" as const });
const otherLead = () => ({ id: fx.accounts.otherLead, role: "LEAD" as const });
/** Each annotator's assignment in the study (ann3's in the other study). */
const assignment: Record<"ann1" | "ann2" | "ann3", string> = { ann1: "", ann2: "", ann3: "" };

beforeAll(async () => {
  fx = await createCommentQuestionsFixture(db, `q${Date.now()}`, QUESTIONS);
  await generateAssignments(lead(), fx.study.slug, [fx.accounts.ann1, fx.accounts.ann2]);
  await generateAssignments(otherLead(), fx.other.slug, [fx.accounts.ann3]);
  for (const who of ["ann1", "ann2", "ann3"] as const) assignment[who] = (await db.assignment.findFirstOrThrow({ where: { annotatorId: fx.accounts[who] } })).id;
});
afterAll(async () => {
  await removeCommentQuestionsFixture(db, fx);
  await db.$disconnect();
});

const c = (id: string) => fx.study.comments[id];
const request = (who: "ann1" | "ann2" | "ann3", commentId: string, answers: Record<string, unknown>, notes: Record<string, string> = {}, baseVersion = 0): SaveRequest =>
  ({ kind: "commentAnswers", assignmentId: assignment[who], targetId: commentId, baseVersion, value: { answers, notes } }) as SaveRequest;
const save = (who: "ann1" | "ann2" | "ann3", ...rest: Parameters<typeof request> extends [unknown, ...infer R] ? R : never) => saveAnnotation(asAccount(fx.accounts[who]), request(who, ...rest));

describe("assignments and the workspace", () => {
  test("one assignment per annotator and pull request, on its first file", async () => {
    const rows = await db.assignment.findMany({ where: { studyId: fx.study.studyId }, select: { annotatorId: true, codeChangeId: true, task: true } });
    expect(rows.map((r) => [r.codeChangeId, r.task]).sort()).toEqual([
      [fx.study.files[0], "COMMENT_QUESTIONS"],
      [fx.study.files[0], "COMMENT_QUESTIONS"],
    ]);
  });

  test("the workspace holds the pull request, its files, the comments in reading order with blinded reviewers, and the questions", async () => {
    const data = await getWorkspace(fx.accounts.ann1, assignment.ann1);
    const part = data.commentQuestions!;
    expect(part.pullRequest).toMatchObject({ externalId: "pr-1", repository: "acme/app", title: "Fix f" });
    expect(part.files.map((f) => [f.path, f.status])).toEqual([
      ["a.py", "MODIFIED"],
      ["b.py", "MODIFIED"],
    ]);
    // The files' texts are the sources keyed by their code change.
    expect(part.files.every((f) => data.sources.some((s) => s.key === f.codeChangeId))).toBe(true);
    // a.py: the whole-file comment first, then c2 and its reply c4; then b.py's c1.
    expect(part.comments.map((x) => x.externalId)).toEqual(["c3", "c2", "c4", "c1"]);
    expect(part.comments.find((x) => x.externalId === "c2")!.test).toEqual({ path: "tests/test_f.py", text: "def test_f():\n    assert f(1) == 2\n" });
    expect(part.comments.every((x) => x.system === undefined && x.author === undefined && /^Reviewer [ABC]$/.test(x.reviewer))).toBe(true);
    expect(new Set(part.comments.map((x) => x.reviewer)).size).toBe(3);
    expect(part.comments.find((x) => x.externalId === "c1")!.reviewer).toBe(part.comments.find((x) => x.externalId === "c4")!.reviewer);
    expect(part.questions.map((q) => q.key)).toEqual(["high-quality", "useful", "category", "test-captures", "relevance", "grade"]);
    expect(part.answers).toEqual({});
  });

  test("the page carries the first files' diffs; another file's comes on demand, only from the annotator's own pull request", async () => {
    const first = await readItem(fx.study.files[0], 1);
    expect(first.sources.map((s) => s.key)).toEqual([fx.study.files[0]]);
    const b = await assignmentFileSource(fx.accounts.ann1, assignment.ann1, fx.study.files[1]);
    expect(b).toMatchObject({ key: fx.study.files[1], path: "b.py", oldFile: "def f(x):\n    return x\n", newFile: "def f(x):\n    return x + 2\n" });
    expect(b.diff).toContain("+    return x + 2");
    // A file of another study's pull request, another annotator's assignment, no file: 404, naming nothing of them.
    await expect(assignmentFileSource(fx.accounts.ann1, assignment.ann1, fx.other.files[1])).rejects.toMatchObject({ status: 404 });
    await expect(assignmentFileSource(fx.accounts.ann2, assignment.ann1, fx.study.files[1])).rejects.toMatchObject({ status: 404 });
    await expect(assignmentFileSource(fx.accounts.ann1, assignment.ann1, "")).rejects.toMatchObject({ status: 404 });
    // The lead's page and preview load a file the same way, from a study the lead leads only.
    expect(await requireLedCodeChangeSource(lead(), fx.study.slug, fx.study.files[1])).toEqual(b);
    await expect(requireLedCodeChangeSource(otherLead(), fx.study.slug, fx.study.files[1])).rejects.toMatchObject({ status: 404 });
    await expect(requireLedCodeChangeSource(lead(), fx.study.slug, fx.other.files[1])).rejects.toMatchObject({ status: 404 });
  });
});

describe("saving answers", () => {
  test("create and update in one statement each, with versions, history and a conflict on a stale version", async () => {
    statements.length = 0;
    const first = await save("ann1", c("c2"), { useful: true, category: "TESTING" }, { useful: "a real bug" });
    expect(statements.length).toBe(2); // the check of the answers against the study's questions, then the one-statement save
    expect(first).toMatchObject({ version: 1, changed: true });
    const second = await save("ann1", c("c2"), { useful: false, category: "TESTING" }, {}, 1);
    expect(second).toMatchObject({ id: first.id, version: 2, changed: true });
    const row = await db.commentAnswers.findUniqueOrThrow({ where: { id: first.id! } });
    expect(row).toMatchObject({ annotatorId: fx.accounts.ann1, reviewCommentId: c("c2"), answers: { useful: false, category: "TESTING" }, notes: {}, version: 2 });
    const history = await db.annotationHistory.findMany({ where: { annotationId: first.id! }, orderBy: { id: "asc" }, select: { kind: true, action: true, newValue: true } });
    expect(history.map((h) => [h.kind, h.action])).toEqual([
      ["COMMENT_ANSWERS", "CREATE"],
      ["COMMENT_ANSWERS", "UPDATE"],
    ]);
    await expect(save("ann1", c("c2"), { useful: true }, {}, 1)).rejects.toMatchObject({ status: 409 });
    expect((await db.assignment.findUniqueOrThrow({ where: { id: assignment.ann1 } })).status).toBe("IN_PROGRESS");
  });

  test("a comment on another file of the pull request is saved on the same assignment, and active time reaches it", async () => {
    const saved = await save("ann1", c("c1"), { useful: true });
    await recordTimeSpent(fx.accounts.ann1, assignment.ann1, 4000, { [`comment:${c("c1")}`]: 3000 });
    expect(await db.commentAnswers.findUniqueOrThrow({ where: { id: saved.id! } })).toMatchObject({ reviewCommentId: c("c1"), timeSpentMs: 3000 });
  });

  test("answers the study's questions do not take are refused, naming why, and nothing is written", async () => {
    const refused = async (answers: Record<string, unknown>, notes: Record<string, string>, message: RegExp) => {
      await expect(save("ann1", c("c3"), answers, notes)).rejects.toMatchObject({ status: 400, message });
    };
    await refused({ severity: true }, {}, /no question "severity" in this study/);
    await refused({ category: "STYLE" }, {}, /"STYLE" is not an answer to "category"/);
    await refused({ useful: "yes" }, {}, /"yes" is not an answer to "useful" \(true or false\)/);
    await refused({ relevance: 6 }, {}, /6 is not an answer to "relevance" \(one of 1, 2, 3, 4, 5\)/);
    await refused({ "test-captures": true }, {}, /asked only of comments with a linked test/);
    await refused({}, { category: "because" }, /"category" takes no justification/);
    expect(await db.commentAnswers.count({ where: { reviewCommentId: c("c3") } })).toBe(0);
  });

  test("another annotator's assignment, another study's comment and another study's annotator write nothing (404)", async () => {
    // ann2 names ann1's assignment.
    await expect(saveAnnotation(asAccount(fx.accounts.ann2), request("ann1", c("c3"), { useful: true }))).rejects.toMatchObject({ status: 404 });
    // ann1's own assignment, a comment of the other study's pull request.
    await expect(save("ann1", fx.other.comments.c3, { useful: true })).rejects.toMatchObject({ status: 404 });
    // ann3 annotates the other study: their assignment does not reach this study's comments.
    await expect(save("ann3", c("c3"), { useful: true })).rejects.toMatchObject({ status: 404 });
    expect(await db.commentAnswers.count({ where: { reviewCommentId: { in: [c("c3"), fx.other.comments.c3] } } })).toBe(0);
  });

  test("an annotator's workspace shows their own answers only", async () => {
    const ann2 = (await getWorkspace(fx.accounts.ann2, assignment.ann2)).commentQuestions!;
    expect(ann2.answers).toEqual({});
    const ann1 = (await getWorkspace(fx.accounts.ann1, assignment.ann1)).commentQuestions!;
    expect(Object.keys(ann1.answers).sort()).toEqual([c("c1"), c("c2")].sort());
    await expect(getWorkspace(fx.accounts.ann2, assignment.ann1)).rejects.toMatchObject({ status: 404 });
  });
});

/** Every question answered on every comment, with `over` per comment. */
async function answerAll(who: "ann1" | "ann2", over: Record<string, Record<string, unknown>> = {}) {
  const part = (await getWorkspace(fx.accounts[who], assignment[who])).commentQuestions!;
  for (const comment of part.comments) {
    const stored = part.answers[comment.id];
    const answers = { "high-quality": true, useful: true, category: "ROBUSTNESS", relevance: 4, grade: 3, ...(comment.test ? { "test-captures": true } : {}), ...over[comment.externalId] };
    await save(who, comment.id, answers, { "high-quality": "names the bug" }, stored?.version ?? 0);
  }
}

describe("completeness, agreement, consensus and adjudication", () => {
  test("a submit is refused while a question or a required justification is missing", async () => {
    await expect(submitAssignment(fx.accounts.ann1, assignment.ann1)).rejects.toMatchObject({ status: 422, message: /Comment 1 \(a\.py\): high-quality, useful, category, relevance, grade/ });
    await save("ann1", c("c3"), { "high-quality": false, useful: true, category: "DESIGN", relevance: 2, grade: 2 });
    await expect(submitAssignment(fx.accounts.ann1, assignment.ann1)).rejects.toMatchObject({ message: /Comment 1 \(a\.py\): justification of high-quality/ });
    await answerAll("ann1", { c1: { category: "TESTING", useful: false } });
    expect(await submitAssignment(fx.accounts.ann1, assignment.ann1)).toEqual({ status: "DONE" });
  });

  test("drafts are left out of agreement; submitted answers give each question's coefficients and the consensus", async () => {
    await answerAll("ann2", { c1: { category: "SECURITY", useful: false } });
    const study = await requireStudy({ id: fx.study.studyId });
    const draft = await agreementReport(fx.study.studyId, { bootstrap: { nResamples: 0 } });
    const useful = (r: typeof draft) => r.tasks[0].questions.find((q) => q.question === "useful")!;
    expect(useful(draft).counts).toMatchObject({ ratings: 4, draftsLeftOut: 4, raters: 1 });
    await submitAssignment(fx.accounts.ann2, assignment.ann2);

    const report = await agreementReport(fx.study.studyId, { bootstrap: { nResamples: 200, seed: 3 } });
    const questions = new Map(report.tasks[0].questions.map((q) => [q.question, q]));
    expect([...questions.keys()]).toEqual(["high-quality", "useful", "category", "test-captures", "relevance", "grade"]);
    expect(questions.get("category")).toMatchObject({ level: "nominal", scale: expect.arrayContaining(["FUNCTIONAL_CORRECTNESS", "SECURITY"]), counts: { items: 4, ratings: 8, raters: 2 } });
    expect(questions.get("relevance")).toMatchObject({ level: "ordinal", scale: [1, 2, 3, 4, 5] });
    // Only c2 has a test: one item.
    expect(questions.get("test-captures")!.counts).toMatchObject({ items: 1, ratings: 2 });
    const percent = questions.get("category")!.coefficients.find((k) => k.key === "percent")!;
    expect(percent.value).toBeCloseTo(3 / 4, 12);

    const consensus = await taskConsensus(db, study, "COMMENT_QUESTIONS");
    expect(consensus.get(c("c1"))!.get("category")).toBeUndefined();
    expect(consensus.get(c("c1"))!.get("useful")).toEqual({ value: "no", source: "unanimous" });
    expect(consensus.get(c("c2"))!.get("category")).toEqual({ value: "ROBUSTNESS", source: "unanimous" });
  });

  test("the adjudication queue lists the disagreement; the lead decides it; a lead of another study finds nothing", async () => {
    const queue = await adjudicationQueue(lead(), fx.study.slug, "COMMENT_QUESTIONS", "category");
    expect(queue.open.map((e) => e.item.id)).toEqual([c("c1")]);
    const item = await adjudicationItem(lead(), fx.study.slug, "COMMENT_QUESTIONS", c("c1"));
    expect(item.item).toMatchObject({ kind: "reviewComment", text: "comment c1", system: "claude-code" });
    expect(item.annotations.map((a) => a.values.category).sort()).toEqual(["SECURITY", "TESTING"]);
    expect(item.annotations[0].note).toBe("high-quality: names the bug");
    await saveConsensus(lead(), { slug: fx.study.slug, task: "COMMENT_QUESTIONS", itemId: c("c1"), question: "category", value: "TESTING", reason: "a missing test", baseVersion: 0, gold: false });
    const study = await requireStudy({ id: fx.study.studyId });
    expect((await taskConsensus(db, study, "COMMENT_QUESTIONS")).get(c("c1"))!.get("category")).toMatchObject({ value: "TESTING", source: "adjudicated" });
    await expect(adjudicationQueue(otherLead(), fx.study.slug, "COMMENT_QUESTIONS")).rejects.toMatchObject({ status: 404 });
    await expect(adjudicationItem(otherLead(), fx.study.slug, "COMMENT_QUESTIONS", c("c1"))).rejects.toMatchObject({ status: 404 });
  });
});

describe("per-system tables (c-CRAB Table 6 and Figure 6)", () => {
  test("comments, useful and useful % per system with Wilson CIs, and each system's categories beside the human reviewers'", async () => {
    // Consensus: c1 (claude-code) not useful, category adjudicated TESTING; c2 (human), c3 (codex), c4 (claude-code) useful, ROBUSTNESS.
    const tables = await commentSystemTables(lead(), fx.study.slug);
    expect(tables.notes).toEqual([]);
    expect(tables.usefulness!.systems.map((r) => [r.system, r.comments, r.decided, r.useful, r.share])).toEqual([
      ["human", 1, 1, 1, 1],
      ["claude-code", 2, 2, 1, 0.5],
      ["codex", 1, 1, 1, 1],
    ]);
    expect(tables.usefulness!.total).toMatchObject({ comments: 4, decided: 4, useful: 3, share: 0.75, ci: wilsonInterval(3, 4) });
    const categories = tables.categories!;
    expect(categories.categories).toHaveLength(10);
    expect(categories.systems.map((r) => [r.system, r.human, r.counts.TESTING, r.counts.ROBUSTNESS, r.shares.ROBUSTNESS])).toEqual([
      ["human", true, 0, 1, 1],
      ["claude-code", false, 1, 1, 0.5],
      ["codex", false, 0, 1, 1],
    ]);
    expect((await commentSystemTables(lead(), fx.study.slug, { useful: "grade" })).notes).toEqual(['No yes/no question "grade" in this study: no usefulness table.']);
    await expect(commentSystemTables(otherLead(), fx.study.slug)).rejects.toMatchObject({ status: 404 });
  });
});

describe("export --format github-comments", () => {
  test("each comment carries, per question asked of it, every answer with its justification and status, and the consensus", async () => {
    let text = "";
    for await (const chunk of streamExport({ studyId: fx.study.studyId, format: "github-comments" })) text += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
    const lines = text.trim().split("\n").map((line) => JSON.parse(line) as { id: string; crjudge: { questions: Record<string, { answers: { annotatorId: string; value: unknown; note: string | null; status: string }[]; consensus: unknown }> } });
    const byId = new Map(lines.map((l) => [String(l.id), l.crjudge.questions]));
    const c1 = byId.get("c1")!;
    expect(Object.keys(c1)).toEqual(["high-quality", "useful", "category", "relevance", "grade"]);
    expect(c1.category.consensus).toBe("TESTING");
    expect(c1.category.answers.map((a) => [a.annotatorId === fx.accounts.ann1 ? "ann1" : "ann2", a.value, a.status]).sort()).toEqual([
      ["ann1", "TESTING", "submitted"],
      ["ann2", "SECURITY", "submitted"],
    ]);
    expect(c1.useful).toMatchObject({ consensus: "no" });
    expect(c1["high-quality"].answers[0].note).toBe("names the bug");
    // Only the comment with a linked test is asked whether the test captures its concern.
    expect(byId.get("c2")!["test-captures"]).toMatchObject({ consensus: "yes" });
    expect(byId.get("c3")!["test-captures"]).toBeUndefined();
  });
});

describe("export --format jsonl", () => {
  test("each file's line carries its review comments: anchor, thread, system, body, every annotator's answers and the consensus; the import format's schema takes it", async () => {
    const { codeChangeLineSchema } = await import("@/lib/import/jsonl-schema");
    let text = "";
    for await (const chunk of streamExport({ studyId: fx.study.studyId, format: "jsonl" })) text += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
    type CommentLine = { id: string; path: string; side: string | null; startLine: number | null; line: number | null; system: string; body: string; thread: string; answers: { annotatorId: string; answers: Record<string, unknown>; notes: Record<string, string> }[]; consensus: Record<string, string | null> };
    const lines = text.trim().split("\n").map((line) => JSON.parse(line) as { filePath: string; reviewComments: CommentLine[] });
    for (const line of lines) expect(codeChangeLineSchema.safeParse(line).error).toBeUndefined();
    expect(lines.map((l) => [l.filePath, l.reviewComments.map((c) => c.id).sort()])).toEqual([
      ["a.py", ["c2", "c3", "c4"]],
      ["b.py", ["c1"]],
    ]);
    const comments = new Map(lines.flatMap((l) => l.reviewComments.map((c) => [c.id, c] as const)));
    expect(comments.get("c1")).toMatchObject({ path: "b.py", side: "RIGHT", startLine: null, line: 2, system: "claude-code", body: "comment c1", thread: "c1" });
    expect(comments.get("c3")).toMatchObject({ path: "a.py", side: null, line: null, system: "codex", thread: "c3" });
    expect(comments.get("c4")).toMatchObject({ line: 1, system: "claude-code", thread: "c2" });
    const c1 = comments.get("c1")!;
    expect(c1.answers.map((a) => [a.annotatorId === fx.accounts.ann1 ? "ann1" : "ann2", a.answers.category]).sort()).toEqual([
      ["ann1", "TESTING"],
      ["ann2", "SECURITY"],
    ]);
    expect(c1.answers.find((a) => a.annotatorId === fx.accounts.ann1)!.notes["high-quality"]).toBe("names the bug");
    expect(c1.consensus.category).toBe("TESTING");
  });
});
