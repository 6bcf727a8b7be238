/**
 * Editing a study's comment questions on a real PostgreSQL (lib/data/comment-questions.ts, the
 * settings page's save, the CLI's comment-questions, a new study's questions): the stored answers
 * and lead decisions counted per question and option; prompts, rules, new questions and options
 * saved; removing a question or an option with answers refused naming how many, and nothing
 * changed; zod refusing a bad setting; another lead's study not found.
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { toAppError } from "@/lib/errors";
import { CCRAB_CATEGORIES, COMMENT_QUESTION_TEMPLATES, type CommentQuestion, type CommentQuestionInput } from "@/lib/annotation/comment-questions";
import { cli } from "./cli";
import { createCommentQuestionsFixture, removeCommentQuestionsFixture, type CommentQuestionsFixture } from "./comment-questions-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const { commentQuestionUsage, getCommentQuestions, updateCommentQuestions } = await import("@/lib/data/comment-questions");
const { createStudy } = await import("@/lib/data/studies");

const QUESTIONS: CommentQuestionInput[] = [COMMENT_QUESTION_TEMPLATES.useful, COMMENT_QUESTION_TEMPLATES.category, COMMENT_QUESTION_TEMPLATES["test-captures"]];
let fx: CommentQuestionsFixture;
const lead = () => ({ id: fx.accounts.lead, role: "LEAD" as const });
const refusal = async (promise: Promise<unknown>) => toAppError(await promise.then(() => null, (e: unknown) => e));
const stored = async () => (await db.study.findUniqueOrThrow({ where: { id: fx.study.studyId } })).commentQuestions as CommentQuestion[];
const questions = async () => (await getCommentQuestions(lead(), fx.study.slug)).questions;

beforeAll(async () => {
  fx = await createCommentQuestionsFixture(db, `qs${Date.now()}`, QUESTIONS);
  const c = fx.study.comments;
  // Two annotators' answers and a lead decision: "useful" held by 3 answers and 1 decision, category SECURITY by 2 answers, TESTING by 1.
  await db.commentAnswers.createMany({
    data: [
      { annotatorId: fx.accounts.ann1, reviewCommentId: c.c1, answers: { useful: true, category: "SECURITY" }, notes: { useful: "a real leak" } },
      { annotatorId: fx.accounts.ann2, reviewCommentId: c.c1, answers: { useful: true, category: "SECURITY" }, notes: { useful: "  " } },
      { annotatorId: fx.accounts.ann1, reviewCommentId: c.c3, answers: { useful: false, category: "TESTING" }, notes: {} },
    ],
  });
  await db.consensus.create({ data: { studyId: fx.study.studyId, task: "COMMENT_QUESTIONS", itemId: c.c3, question: "useful", value: "no", decidedById: fx.accounts.lead } });
  // Answers in the other study count there only.
  await db.commentAnswers.create({ data: { annotatorId: fx.accounts.ann3, reviewCommentId: fx.other.comments.c1, answers: { useful: true, category: "DESIGN" }, notes: {} } });
});
afterAll(async () => {
  await removeCommentQuestionsFixture(db, fx);
  await db.$disconnect();
});

describe("the stored work the questions bear on", () => {
  test("answers per question and value, non-empty justifications, lead decisions; this study's only", async () => {
    const usage = await commentQuestionUsage(fx.study.studyId);
    expect(usage.answers).toEqual({ useful: { true: 2, false: 1 }, category: { SECURITY: 2, TESTING: 1 } });
    expect(usage.notes).toEqual({ useful: 1 });
    expect(usage.decisions).toEqual({ useful: { no: 1 } });
  });
});

describe("editing", () => {
  test("prompts, instructions, justification rules, a new question and a new option are saved", async () => {
    const next = (await questions()).map((q) => {
      if (q.key === "useful") return { ...q, label: "Is this comment useful?", justification: "required" as const };
      if (q.kind === "choice") return { ...q, description: "Pick the concern.", options: [...q.options, { code: "STYLE", label: "Style", description: "Formatting only." }] };
      return q;
    });
    const saved = await updateCommentQuestions(lead(), { slug: fx.study.slug, questions: [...next, COMMENT_QUESTION_TEMPLATES["high-quality"]] });
    expect(saved.notes.join("\n")).toMatch(/no answer to "high-quality"/);
    expect(saved.notes.join("\n")).toMatch(/"useful" now requires a justification/);
    const after = await stored();
    expect(after.map((q) => q.key)).toEqual(["useful", "category", "test-captures", "high-quality"]);
    expect(after[0]).toMatchObject({ label: "Is this comment useful?", justification: "required" });
    expect(after[1].kind === "choice" && after[1].options.map((o) => o.code)).toEqual([...CCRAB_CATEGORIES.map((c) => c.code), "STYLE"]);
  });

  test("removing a question with answers is refused naming how many, and nothing changes", async () => {
    const before = await stored();
    const error = await refusal(updateCommentQuestions(lead(), { slug: fx.study.slug, questions: before.filter((q) => q.key !== "useful") }));
    expect(error).toMatchObject({ code: "CONFLICT" });
    expect(error!.message).toContain('The question "useful" cannot be removed or renamed: it has 3 stored answers and 1 lead decision.');
    expect(await stored()).toEqual(before);
    // A question nobody answered goes.
    await updateCommentQuestions(lead(), { slug: fx.study.slug, questions: before.filter((q) => q.key !== "high-quality") });
    expect((await stored()).map((q) => q.key)).toEqual(["useful", "category", "test-captures"]);
  });

  test("removing a codebook option with answers is refused naming how many; an unchosen one goes", async () => {
    const before = await stored();
    const without = (codes: string[]) => before.map((q) => (q.kind === "choice" ? { ...q, options: q.options.filter((o) => !codes.includes(o.code)) } : q));
    const error = await refusal(updateCommentQuestions(lead(), { slug: fx.study.slug, questions: without(["SECURITY", "TESTING", "STYLE"]) }));
    expect(error!.message).toContain('The option SECURITY ("Security") of "category" cannot be removed or renamed: 2 stored answers chose it.');
    expect(error!.message).toContain('The option TESTING ("Testing") of "category" cannot be removed or renamed: 1 stored answer chose it.');
    expect(error!.message).not.toContain("STYLE");
    expect(await stored()).toEqual(before);
    await updateCommentQuestions(lead(), { slug: fx.study.slug, questions: without(["STYLE"]) });
    const category = (await stored()).find((q) => q.key === "category");
    expect(category?.kind === "choice" && category.options.some((o) => o.code === "STYLE")).toBe(false);
  });

  test("a question with answers keeps its kind; a justification annotators wrote is not taken away", async () => {
    const before = await stored();
    const asChoice = before.map((q) => (q.key === "useful" ? { kind: "choice" as const, key: "useful", label: "Useful", description: "", justification: "none" as const, options: [...CCRAB_CATEGORIES] } : q));
    expect((await refusal(updateCommentQuestions(lead(), { slug: fx.study.slug, questions: asChoice })))!.message).toContain('"useful" cannot change from yes/no to codebook choice');
    const noNotes = before.map((q) => (q.key === "useful" ? { ...q, justification: "none" as const } : q));
    expect((await refusal(updateCommentQuestions(lead(), { slug: fx.study.slug, questions: noNotes })))!.message).toContain("annotators wrote 1 justification for it");
    expect(await stored()).toEqual(before);
  });

  test("zod refuses a bad setting naming the field; another lead's study is not found", async () => {
    const before = await stored();
    const dup = await refusal(updateCommentQuestions(lead(), { slug: fx.study.slug, questions: [...before, { ...COMMENT_QUESTION_TEMPLATES.useful }] }));
    expect(dup).toMatchObject({ code: "INVALID_INPUT" });
    expect(dup!.message).toMatch(/two questions have the same key/);
    const badKey = await refusal(updateCommentQuestions(lead(), { slug: fx.study.slug, questions: [{ ...COMMENT_QUESTION_TEMPLATES.useful, key: "Useful!" }] }));
    expect(badKey!.message).toMatch(/lowercase letters/);
    const oneOption = await refusal(updateCommentQuestions(lead(), { slug: fx.study.slug, questions: [{ ...COMMENT_QUESTION_TEMPLATES.category, options: [CCRAB_CATEGORIES[0]] }] }));
    expect(oneOption!.message).toMatch(/at least two options/);
    expect(await refusal(updateCommentQuestions({ id: fx.accounts.otherLead, role: "LEAD" }, { slug: fx.study.slug, questions: before }))).toMatchObject({ code: "NOT_FOUND" });
    expect(await stored()).toEqual(before);
  });
});

describe("the command line and a new study", () => {
  test("comment-questions show, add a template, and set from a file refused like the page", async () => {
    const shown = await cli("comment-questions", "show", "--study", fx.study.slug);
    expect(shown.code).toBe(0);
    expect((JSON.parse(shown.stdout) as { questions: CommentQuestion[] }).questions.map((q) => q.key)).toEqual(["useful", "category", "test-captures"]);
    const added = await cli("comment-questions", "add", "--study", fx.study.slug, "--template", "high-quality");
    expect(added.code).toBe(0);
    expect((await stored()).map((q) => q.key)).toEqual(["useful", "category", "test-captures", "high-quality"]);
    const file = path.join(tmpdir(), `questions-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify([COMMENT_QUESTION_TEMPLATES["high-quality"]]));
    const refused = await cli("comment-questions", "set", "--study", fx.study.slug, "--file", file);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('The question "useful" cannot be removed or renamed: it has 3 stored answers and 1 lead decision.');
    writeFileSync(file, "[{");
    const broken = await cli("comment-questions", "set", "--study", fx.study.slug, "--file", file);
    expect(broken.stderr).toContain(`${file}: not JSON`);
    expect((await stored()).map((q) => q.key)).toEqual(["useful", "category", "test-captures", "high-quality"]);
  });

  test("a new study starts with the questions its lead chose, or the default", async () => {
    const tag = `nsq${Date.now()}`;
    const base = { name: `PR study ${tag}`, tasks: ["COMMENT_QUESTIONS"], likertDimensions: ["relevance"], likertMin: 1, likertMax: 5, annotatorsPerItem: 2 } as const;
    await createStudy(lead(), { ...base, slug: `${tag}-a`, tasks: [...base.tasks], likertDimensions: [...base.likertDimensions], commentQuestions: [COMMENT_QUESTION_TEMPLATES["high-quality"]] });
    await createStudy(lead(), { ...base, slug: `${tag}-b`, tasks: [...base.tasks], likertDimensions: [...base.likertDimensions] });
    const bad = await refusal(createStudy(lead(), { ...base, slug: `${tag}-c`, tasks: [...base.tasks], likertDimensions: [...base.likertDimensions], commentQuestions: [] }));
    expect(bad!.message).toMatch(/ask at least one question/);
    try {
      const a = await db.study.findUniqueOrThrow({ where: { slug: `${tag}-a` } });
      expect((a.commentQuestions as CommentQuestion[]).map((q) => q.key)).toEqual(["high-quality"]);
      expect((await db.study.findUniqueOrThrow({ where: { slug: `${tag}-b` } })).commentQuestions).toBeNull();
      expect(await db.study.count({ where: { slug: `${tag}-c` } })).toBe(0);
    } finally {
      await db.study.deleteMany({ where: { slug: { startsWith: tag } } });
    }
  });
});
