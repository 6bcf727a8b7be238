/**
 * Judge runs and prompt versions from the study's pages: the actions' input schemas, and the
 * lead's checks before a run is queued for the worker (./run.ts queueJudgeRun) or resumed.
 */
import "server-only";
import { z } from "zod";
import type { SessionAccount } from "@/lib/auth/authenticate";
import { TaskType } from "@/lib/generated/prisma/enums";
import { AppError } from "@/lib/errors";
import { requireLedStudy } from "@/lib/data/study-access";
import { findStudyJudgeRun } from "@/lib/data/judge-runs";
import { slugField } from "@/lib/validation/study-fields";
import { queueJudgeRun, requeueJudgeRun } from "./run";

const question = { slug: slugField, task: z.enum(Object.keys(TaskType) as [TaskType, ...TaskType[]]), question: z.string().min(1).max(100) };
/** A prompt template's text as a lead pastes it (checked for its variables by templateProblem). */
const promptText = z.string().max(100_000);

export const addPromptVersionSchema = z.object({ ...question, text: promptText });
export const previewPromptSchema = z.object({ ...question, text: promptText, item: z.number().int().min(1).max(1_000_000).default(1) });
export const startJudgeRunSchema = z.object({
  ...question,
  promptVersion: z.string().regex(/^[0-9a-f]{8,64}$/, "a prompt version is 8 to 64 hex digits of its SHA-256"),
  model: z.string().trim().min(1).max(200),
  name: z.string().max(60).optional(),
  temperature: z.number().min(0).max(2).optional(),
  seed: z.number().int().optional(),
  trials: z.number().int().min(1).max(20).optional(),
  concurrency: z.number().int().min(1).max(64).optional(),
  budgetUsd: z.number().positive().optional(),
  inConsensus: z.boolean().optional(),
});
export const resumeJudgeRunSchema = z.object({ slug: slugField, runId: z.string().min(1).max(100) });

/** The rater name a page's run takes by default: the model and the prompt version's first 8 digits, so each version is its own rater (the lab's rows). */
export const defaultJudgeName = (model: string, promptVersion: string) => `${model.toLowerCase().replace(/[^a-z0-9._-]/g, "-").slice(0, 50)}-${promptVersion.slice(0, 8)}`;

/** Queues a run of the study's question for the worker, after checking the account leads the study. */
export async function startWebJudgeRun(account: Pick<SessionAccount, "id" | "role">, input: z.infer<typeof startJudgeRunSchema>) {
  const study = await requireLedStudy(account, input.slug);
  const { slug: _slug, name, ...rest } = input;
  const { run, resumed } = await queueJudgeRun({ ...rest, study: study.slug, name: name?.trim() ? name.trim() : defaultJudgeName(input.model, input.promptVersion), createdById: account.id });
  return { runId: run.id, status: run.status, total: run.total, done: run.done, resumed };
}

/** Puts an unfinished run of a study the account leads back on the queue. */
export async function resumeWebJudgeRun(account: Pick<SessionAccount, "id" | "role">, input: z.infer<typeof resumeJudgeRunSchema>) {
  const study = await requireLedStudy(account, input.slug);
  const run = await findStudyJudgeRun(study.id, input.runId);
  if (!run) throw new AppError("NOT_FOUND", { message: "No such judge run in this study." });
  const queued = await requeueJudgeRun(run);
  return { runId: queued.id, status: queued.status, total: queued.total, done: queued.done };
}

/** The prompts page's query: the task and question shown (the first of the study by default). */
export const judgePromptQuerySchema = z.object({ task: z.enum(Object.keys(TaskType) as [TaskType, ...TaskType[]]).optional().catch(undefined), question: z.string().max(100).optional().catch(undefined) });
