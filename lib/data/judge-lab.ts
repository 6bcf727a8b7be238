/**
 * The judge lab and the prompt editor of a study (docs/judges.md), for its lead: the judge runs
 * with their progress, each (question, prompt version, model, judge rater)'s answers, tokens,
 * cost and latency (JudgeAnswer) beside its agreement from the agreement report, and a
 * question's prompt versions with a preview on a real item. Every read finds the study through
 * the lead's scope (findLedStudy / requireLedStudy).
 */
import "server-only";
import { db, Prisma } from "@/lib/db/client";
import type { TaskType } from "@/lib/generated/prisma/enums";
import type { SessionAccount } from "@/lib/auth/authenticate";
import { AppError } from "@/lib/errors";
import { dashboardReport } from "@/lib/analysis/report-jobs";
import { judgeLabRows, type JudgeVersionStats } from "@/lib/analysis/judge-lab";
import { judgeQuestion, judgeQuestions, type JudgeQuestion } from "@/lib/judges/questions";
import { raterPromptVersion, renderTemplate, templateProblem, templateValues } from "@/lib/judges/rater-prompt";
import { dashboardState } from "./report-cache";
import { findLedStudy, requireLedStudy, type LedStudy } from "./study-access";
import { judgeItems } from "./judge-runs";
import { addPromptVersion, promptVersions } from "./prompt-templates";

type Account = Pick<SessionAccount, "id" | "role">;

/** The questions a judge can answer, per task of the study. */
export function studyJudgeQuestions(study: LedStudy): { task: TaskType; questions: { key: string; text: string }[] }[] {
  return study.tasks.map((task) => ({ task, questions: judgeQuestions(task, study).map((q) => ({ key: q.key, text: q.text })) }));
}

/** Each (question, prompt version, model, rater)'s answers over its runs: counts, tokens, cost and latency (the requested answers'). */
export async function judgeVersionStats(studyId: string): Promise<JudgeVersionStats[]> {
  const rows = await db.$queryRaw<(Omit<JudgeVersionStats, "costUsd"> & { costUsd: number | null; unpriced: boolean })[]>`
    SELECT r.task::text AS task, r.question, r."promptVersion", p.preset, r.model, j.name AS rater,
      count(DISTINCT r.id)::int AS runs,
      count(a."itemId")::int AS items,
      (count(a."itemId") FILTER (WHERE a.error IS NULL))::int AS answers,
      (count(a."itemId") FILTER (WHERE a.error IS NOT NULL))::int AS "parseFailures",
      (count(a."itemId") FILTER (WHERE a.cached))::int AS cached,
      coalesce(sum(a."promptTokens"), 0)::int AS "promptTokens",
      coalesce(sum(a."completionTokens"), 0)::int AS "completionTokens",
      coalesce(sum(a."costUsd") FILTER (WHERE NOT a.cached), 0)::float8 AS "costUsd",
      coalesce(bool_or(a."costUsd" IS NULL AND NOT a.cached AND a."promptTokens" + a."completionTokens" > 0), false) AS unpriced,
      (percentile_cont(0.5) WITHIN GROUP (ORDER BY a."latencyMs") FILTER (WHERE NOT a.cached))::float8 AS "latencyMedianMs",
      (percentile_cont(0.95) WITHIN GROUP (ORDER BY a."latencyMs") FILTER (WHERE NOT a.cached))::float8 AS "latencyP95Ms"
    FROM "JudgeRun" r
    JOIN "User" j ON j.id = r."judgeId"
    JOIN "PromptTemplate" p ON p.id = r."promptId"
    JOIN "JudgeAnswer" a ON a."runId" = r.id
    WHERE r."studyId" = ${studyId}
    GROUP BY r.task, r.question, r."promptVersion", p.preset, r.model, j.name
    ORDER BY r.task, r.question, min(r."createdAt"), r.model, j.name`;
  return rows.map(({ unpriced, ...row }) => ({ ...row, costUsd: unpriced ? null : row.costUsd }));
}

/** The study's judge runs, newest first, with their answers' totals (the progress a page shows). */
export async function studyJudgeRuns(studyId: string) {
  return db.$queryRaw<
    { id: string; createdAt: Date; rater: string; task: TaskType; question: string; model: string; promptVersion: string; preset: string; status: string; total: number; done: number; error: string | null; answers: number; parseFailures: number; cached: number; tokens: number; costUsd: number | null }[]
  >(Prisma.sql`
    SELECT r.id, r."createdAt", j.name AS rater, r.task::text AS task, r.question, r.model, r."promptVersion", p.preset, r.status::text AS status, r.total, r.done, r.error,
      (count(a."itemId") FILTER (WHERE a.error IS NULL))::int AS answers,
      (count(a."itemId") FILTER (WHERE a.error IS NOT NULL))::int AS "parseFailures",
      (count(a."itemId") FILTER (WHERE a.cached))::int AS cached,
      coalesce(sum(a."promptTokens" + a."completionTokens"), 0)::int AS tokens,
      CASE WHEN bool_or(a."costUsd" IS NULL AND NOT a.cached AND a."promptTokens" + a."completionTokens" > 0) THEN NULL ELSE coalesce(sum(a."costUsd") FILTER (WHERE NOT a.cached), 0)::float8 END AS "costUsd"
    FROM "JudgeRun" r
    JOIN "User" j ON j.id = r."judgeId"
    JOIN "PromptTemplate" p ON p.id = r."promptId"
    LEFT JOIN "JudgeAnswer" a ON a."runId" = r.id
    WHERE r."studyId" = ${studyId}
    GROUP BY r.id, j.name, p.preset
    ORDER BY r."createdAt" DESC, r.id`);
}

/** The judge lab of a study the account leads, or null: its runs, and a row per version with agreement (the agreement report's judges sections) beside cost. */
export async function judgeLab(account: Account, slug: string) {
  const study = await findLedStudy(account, slug);
  if (!study) return null;
  const { fingerprint } = await dashboardState(study.id, false);
  const [runs, stats, shown] = await Promise.all([studyJudgeRuns(study.id), judgeVersionStats(study.id), dashboardReport("agreement", study.id, {}, fingerprint)]);
  return { study: { id: study.id, slug: study.slug, name: study.name, tasks: study.tasks }, questions: studyJudgeQuestions(study), runs, rows: judgeLabRows(stats, shown.report), complete: shown.complete };
}

/** The study and question a lead names, or NOT_FOUND / INVALID_INPUT naming why. */
async function ledQuestion(account: Account, slug: string, task: TaskType, key: string): Promise<{ study: LedStudy; question: JudgeQuestion }> {
  const study = await requireLedStudy(account, slug);
  if (!study.tasks.includes(task)) throw new AppError("INVALID_INPUT", { message: `study ${study.slug} has no task ${task} (tasks: ${study.tasks.join(", ")})` });
  return { study, question: judgeQuestion(task, key, study) };
}

/** The prompt editor's data: the study's judge questions, and the chosen question's versions (the study's, newest first, then the presets). */
export async function judgePromptEditor(account: Account, slug: string, choice: { task?: TaskType; question?: string }) {
  const study = await findLedStudy(account, slug);
  if (!study) return null;
  const questions = studyJudgeQuestions(study);
  const task = choice.task && study.tasks.includes(choice.task) ? choice.task : questions.find((q) => q.questions.length > 0)?.task;
  const keys = questions.find((q) => q.task === task)?.questions ?? [];
  const key = keys.find((q) => q.key === choice.question)?.key ?? keys[0]?.key;
  const question = task && key ? judgeQuestion(task, key, study) : null;
  const versions = question ? await promptVersions(study.id, question) : [];
  return { study: { id: study.id, slug: study.slug, name: study.name }, questions, task: task ?? null, question: question ? { key: question.key, text: question.text } : null, versions };
}

/** Stores a lead's text as a version of the question's prompt (validated: an unknown variable is named). */
export async function addLeadPromptVersion(account: Account, input: { slug: string; task: TaskType; question: string; text: string }): Promise<{ version: string; stored: boolean }> {
  const { study, question } = await ledQuestion(account, input.slug, input.task, input.question);
  const before = await db.promptTemplate.count({ where: { studyId: study.id, task: question.task, question: question.key, version: raterPromptVersion(input.text) } });
  const stored = await addPromptVersion(study.id, question, input.text, { createdById: account.id });
  return { version: stored.version, stored: before === 0 };
}

/**
 * What the judge would be sent for item `item` (1 = the first in study order) with this template:
 * the template with its variables filled from a real item of the study. No LLM is called.
 */
export async function previewJudgePrompt(account: Account, input: { slug: string; task: TaskType; question: string; text: string; item: number }): Promise<{ item: number; itemId: string; prompt: string }> {
  const problem = templateProblem(input.text);
  if (problem) throw new AppError("INVALID_INPUT", { message: problem });
  const { study, question } = await ledQuestion(account, input.slug, input.task, input.question);
  // The links question numbers the claims the lead's own stage-2 view shows; a judge's run numbers its own.
  const [item] = await judgeItems(study.id, question, account.id, db, { skip: input.item - 1, take: 1 });
  if (!item) throw new AppError("NOT_FOUND", { message: input.item === 1 ? `the study has no item for question "${question.key}" yet` : `the study has fewer than ${input.item} items for question "${question.key}"` });
  return { item: input.item, itemId: item.id, prompt: renderTemplate(input.text, templateValues(question, item)) };
}
