/**
 * A study's comment questions as its lead edits them (settings page, CLI `comment-questions`):
 * the stored answers and lead decisions they bear on, counted per question and value, and the
 * save, which refuses what would invalidate stored work (lib/annotation/comment-question-changes)
 * in one transaction with the update. Only leads of the study (and admins) reach it.
 */
import "server-only";
import { z } from "zod";
import { db, type Prisma } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { commentQuestionsSetting, type CommentQuestion } from "@/lib/annotation/comment-questions";
import { commentQuestionNotes, commentQuestionRefusals, type CommentQuestionUsage } from "@/lib/annotation/comment-question-changes";
import { requireLedStudy } from "@/lib/data/study-access";
import { slugField } from "@/lib/validation/study-fields";
import type { SessionAccount } from "@/lib/auth/authenticate";

export const commentQuestionsInput = z.object({ slug: slugField, questions: commentQuestionsSetting });
export type CommentQuestionsInput = z.input<typeof commentQuestionsInput>;

type Tx = Prisma.TransactionClient;
type Count = { question: string; value: string; n: number };

function nested(rows: Count[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const { question, value, n } of rows) (out[question] ??= {})[value] = n;
  return out;
}

/** The study's stored answers, justifications and lead decisions per question key and value (a value as text: "true", a code, a number). */
export async function commentQuestionUsage(studyId: string, client: Tx | typeof db = db): Promise<CommentQuestionUsage> {
  const [answers, notes, decisions] = await Promise.all([
    client.$queryRaw<Count[]>`
      SELECT e.key AS question, e.value #>> '{}' AS value, count(*)::int AS n
      FROM "CommentAnswers" a
      JOIN "ReviewComment" c ON c.id = a."reviewCommentId"
      JOIN "PullRequest" p ON p.id = c."pullRequestId"
      CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(a.answers) = 'object' THEN a.answers ELSE '{}'::jsonb END) e
      WHERE p."studyId" = ${studyId} AND e.value <> 'null'::jsonb
      GROUP BY 1, 2`,
    client.$queryRaw<Count[]>`
      SELECT e.key AS question, '' AS value, count(*)::int AS n
      FROM "CommentAnswers" a
      JOIN "ReviewComment" c ON c.id = a."reviewCommentId"
      JOIN "PullRequest" p ON p.id = c."pullRequestId"
      CROSS JOIN LATERAL jsonb_each_text(CASE WHEN jsonb_typeof(a.notes) = 'object' THEN a.notes ELSE '{}'::jsonb END) e
      WHERE p."studyId" = ${studyId} AND btrim(e.value) <> ''
      GROUP BY 1`,
    client.$queryRaw<Count[]>`
      SELECT question, value #>> '{}' AS value, count(*)::int AS n
      FROM "Consensus"
      WHERE "studyId" = ${studyId} AND task = 'COMMENT_QUESTIONS'
      GROUP BY 1, 2`,
  ]);
  return { answers: nested(answers), notes: Object.fromEntries(notes.map((r) => [r.question, r.n])), decisions: nested(decisions) };
}

/** The settings page's and the CLI's view: the study's questions and the stored work they bear on. */
export async function getCommentQuestions(account: Pick<SessionAccount, "id" | "role">, slug: string): Promise<{ study: { slug: string; name: string }; questions: CommentQuestion[]; usage: CommentQuestionUsage }> {
  const study = await requireLedStudy(account, slug);
  return { study: { slug: study.slug, name: study.name }, questions: study.commentQuestions, usage: await commentQuestionUsage(study.id) };
}

/**
 * Saves the comment questions of a study the account leads (404 otherwise), or refuses with CONFLICT
 * naming what stored answers a change would invalidate. Returns notes on what the change means.
 */
export async function updateCommentQuestions(account: Pick<SessionAccount, "id" | "role">, input: CommentQuestionsInput): Promise<{ questions: CommentQuestion[]; notes: string[] }> {
  const { slug, questions } = commentQuestionsInput.parse(input);
  return db.$transaction(async (tx) => {
    const study = await requireLedStudy(account, slug, tx);
    const usage = await commentQuestionUsage(study.id, tx);
    const refusals = commentQuestionRefusals(study.commentQuestions, questions, usage);
    if (refusals.length) throw new AppError("CONFLICT", { message: `The comment questions were not saved.\n${refusals.join("\n")}` });
    await tx.study.update({ where: { id: study.id }, data: { commentQuestions: questions as Prisma.InputJsonValue } });
    return { questions, notes: commentQuestionNotes(study.commentQuestions, questions, usage) };
  });
}
