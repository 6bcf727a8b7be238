/**
 * A judge run (docs/judges.md): a judge rater answers one question on every item of a study,
 * `trials` times per item (the answer stored is the most frequent), each reply re-asked up to
 * three times while it cannot be read (GradedReviews §5.2, fourth measure). Resumable: the items
 * answered are kept (JudgeAnswer), and the same run started again answers only the others. The
 * chat client caches every reply by (model, prompt version, request), so a new run of the same
 * prompt and model sends no request; it honours 429 and Retry-After, limits requests in flight
 * to the run's concurrency, and stops the run once its budget in USD or tokens is spent.
 */
import "server-only";
import type { JudgeRun, TaskType } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";
import { askParsed, createBudget, createChatClient, createLimiter, LlmBudgetError, type ChatClientOptions } from "@/lib/judges";
import { judgeQuestion } from "@/lib/judges/questions";
import { majorityAnswer, parseRaterAnswer, raterMessages } from "@/lib/judges/rater-prompt";
import { defaultPreset } from "@/lib/judges/rater-presets";
import { addPromptVersion, findPromptVersion } from "@/lib/data/prompt-templates";
import { llmResponseCache } from "@/lib/data/llm-responses";
import { requireStudy } from "@/lib/data/studies";
import { answeredItems, finishJudgeRun, judgeAccount, judgeItems, judgeRunOptions, judgeRunSpent, markJudgeRunQueued, startJudgeRun, storeJudgedItem } from "@/lib/data/judge-runs";
import { jobIdOf, JUDGE_QUEUE, replaceJobs, sendQueue } from "@/lib/jobs/queue";
import { env } from "@/lib/env";
import { announce } from "@/lib/webhooks/send";
import type { JudgeQuestion } from "@/lib/judges/questions";
import type { JudgeItem } from "@/lib/judges/rater-prompt";

export interface JudgeRunOptions {
  study: string;
  task: TaskType;
  question: string;
  /** The rater's name (judge:NAME); default the model's name. */
  name?: string;
  /** The prompt template's text (stored as a new version of the question's prompt) … */
  prompt?: string;
  /** … or a stored version or preset, by its hash or a prefix of 8 or more hex digits; default the preset made for the question. */
  promptVersion?: string;
  temperature?: number;
  seed?: number | null;
  trials?: number;
  concurrency?: number;
  /** The run's answers count with the annotators' (consensus, gold accuracy, adjudication). */
  inConsensus?: boolean;
  budgetUsd?: number | null;
  budgetTokens?: number | null;
  createdById?: string | null;
  /** The endpoint (url, model, apiKey; LLM_URL, LLM_MODEL, LLM_API_KEY by default) and the client's retry settings. */
  llm?: Pick<ChatClientOptions, "url" | "model" | "apiKey" | "maxAttempts" | "backoffMs" | "maxBackoffMs" | "timeoutMs">;
  onProgress?: (run: { done: number; total: number }) => void;
}

/** A judge run's job on the queue (./work.ts). */
export interface JudgeRunJobData {
  runId: string;
}

/** Re-asks of a reply that cannot be read, per trial. */
const PARSE_ATTEMPTS = 3;

const positiveInteger = (name: string, value: number) => {
  if (!Number.isInteger(value) || value < 1) throw new AppError("INVALID_INPUT", { message: `${name} must be a positive integer, got ${value}` });
  return value;
};

/** What a planned run works on: the run as stored, the question, the prompt template's text and the items. */
interface PlannedRun {
  run: JudgeRun;
  resumed: boolean;
  question: JudgeQuestion;
  template: string;
  items: JudgeItem[];
}

/**
 * Plans a judge run: the study and question, the prompt version (stored), the judge's account
 * and the items; the unfinished run of the same computation is resumed, else one is made, in
 * `status` (QUEUED when it waits for the worker).
 */
async function planJudgeRun(options: JudgeRunOptions, status: "QUEUED" | "RUNNING"): Promise<PlannedRun> {
  const study = await requireStudy({ slug: options.study });
  if (!study.tasks.includes(options.task)) throw new AppError("INVALID_INPUT", { message: `study ${study.slug} has no task ${options.task} (tasks: ${study.tasks.join(", ")})` });
  const question = judgeQuestion(options.task, options.question, study);
  const trials = positiveInteger("trials", options.trials ?? 1);
  const concurrency = positiveInteger("concurrency", options.concurrency ?? 4);
  const temperature = options.temperature ?? 0;
  const seed = options.seed ?? null;
  const model = options.llm?.model ?? env().LLM_MODEL;
  if (!model) throw new AppError("INVALID_INPUT", { message: "no model: give one, or set LLM_MODEL" });
  if (options.prompt !== undefined && options.promptVersion !== undefined) throw new AppError("INVALID_INPUT", { message: "give a prompt or a prompt version, not both" });
  const chosen = options.promptVersion !== undefined ? await findPromptVersion(study.id, question, options.promptVersion) : options.prompt !== undefined ? { text: options.prompt, preset: "" } : { text: defaultPreset(question).text, preset: defaultPreset(question).name };
  const prompt = await addPromptVersion(study.id, question, chosen.text, { preset: chosen.preset, createdById: options.createdById });
  const judge = await judgeAccount(options.name ?? model.toLowerCase().replace(/[^a-z0-9._-]/g, "-"));
  const items = await judgeItems(study.id, question, judge.id);
  const { run, resumed } = await startJudgeRun(
    {
      studyId: study.id,
      judgeId: judge.id,
      task: options.task,
      question: question.key,
      model,
      promptVersion: prompt.version,
      promptId: prompt.id,
      temperature,
      seed,
      trials,
      concurrency,
      inConsensus: options.inConsensus ?? false,
      budgetUsd: options.budgetUsd ?? null,
      budgetTokens: options.budgetTokens ?? null,
      createdById: options.createdById ?? null,
    },
    items.length,
    status,
  );
  return { run, resumed, question, template: prompt.text, items };
}

/** Runs (or resumes) a judge run to its end in this process; returns the run as stored. A spent budget ends it FAILED with the reason, resumable with a larger budget. */
export async function runJudge(options: JudgeRunOptions): Promise<{ run: JudgeRun; resumed: boolean }> {
  const planned = await planJudgeRun(options, "RUNNING");
  return { run: await answerItems(planned, options), resumed: planned.resumed };
}

/** Plans a run from a page and puts it on the job queue, where the worker answers its items (runQueuedJudge). */
export async function queueJudgeRun(options: Omit<JudgeRunOptions, "llm" | "onProgress"> & { model: string }): Promise<{ run: JudgeRun; resumed: boolean }> {
  const { model, ...rest } = options;
  const planned = await planJudgeRun({ ...rest, llm: { model } }, "QUEUED");
  await enqueueJudgeRun(planned.run.id);
  return { run: planned.run, resumed: planned.resumed };
}

/** Puts a stored unfinished run back on the job queue (a run that failed, e.g. on its budget, or whose worker died). */
export async function requeueJudgeRun(run: JudgeRun): Promise<JudgeRun> {
  if (run.status === "DONE") throw new AppError("CONFLICT", { message: "the run is done: nothing to resume" });
  const queued = await markJudgeRunQueued(run.id);
  await enqueueJudgeRun(run.id);
  return queued;
}

async function enqueueJudgeRun(runId: string): Promise<void> {
  await replaceJobs(await sendQueue(), JUDGE_QUEUE, [{ id: jobIdOf(`judge-run:${runId}`), data: { runId } satisfies JudgeRunJobData }]);
}

/** The worker's job: the stored run's computation, resumed where it stopped over this process's LLM_URL (the same work as the CLI's runJudge). */
export async function runQueuedJudge(runId: string): Promise<JudgeRun> {
  const stored = await judgeRunOptions(runId);
  if (!stored) throw new AppError("NOT_FOUND", { message: `no judge run ${runId}` });
  return (await runJudge(stored)).run;
}

/** Answers the planned run's items not answered yet, then finishes the run. */
async function answerItems(planned: PlannedRun, options: Pick<JudgeRunOptions, "llm" | "onProgress">): Promise<JudgeRun> {
  const { run, question, template, items } = planned;
  const { promptVersion, trials, concurrency, temperature, seed } = run;
  const budget = createBudget({ usd: run.budgetUsd, tokens: run.budgetTokens });
  const chat = createChatClient({ ...options.llm, model: run.model, temperature, seed: seed ?? undefined, maxConcurrency: concurrency, cache: llmResponseCache, budget });
  // What the run spent before it was resumed counts against its budget.
  const spent = await judgeRunSpent(run.id);
  budget.spentTokens += spent.tokens;
  budget.spentUsd += spent.usd;
  const answered = await answeredItems(run.id);
  const todo = items.filter((item) => !answered.has(item.id));
  let done = answered.size;
  let stop: Error | null = null;
  const limit = createLimiter(concurrency);
  await Promise.all(
    todo.map((item) =>
      limit(async () => {
        if (stop) return;
        const messages = raterMessages(template, question, item);
        const started = performance.now();
        const parse = (text: string) => parseRaterAnswer(text, question, item.claims.length);
        try {
          const asked = [];
          for (let t = 0; t < trials; t++) asked.push(await askParsed(chat, messages, parse, PARSE_ATTEMPTS, undefined, { promptVersion, sample: trials > 1 ? `trial:${t}` : "" }));
          const completions = asked.flatMap((a) => a.completions);
          const read = asked.flatMap((a) => (a.ok ? [a.value] : []));
          const failure = asked.find((a) => !a.ok);
          const chosen = read.length === trials ? majorityAnswer(read) : null;
          await storeJudgedItem(
            run,
            question,
            {
              item,
              raw: asked.flatMap((a) => a.outputs),
              answer: chosen?.answer ?? null,
              reason: chosen?.reason ?? "",
              error: chosen ? null : failure && !failure.ok ? failure.error : "no answer",
              promptTokens: completions.reduce((s, c) => s + (c.cached ? 0 : (c.usage?.promptTokens ?? 0)), 0),
              completionTokens: completions.reduce((s, c) => s + (c.cached ? 0 : (c.usage?.completionTokens ?? 0)), 0),
              costUsd: completions.some((c) => !c.cached && c.costUsd === null && c.usage) ? null : completions.reduce((s, c) => s + (c.cached ? 0 : (c.costUsd ?? 0)), 0),
              latencyMs: performance.now() - started,
              cached: completions.every((c) => c.cached),
            }
          );
          options.onProgress?.({ done: ++done, total: items.length });
        } catch (error) {
          stop ??= error as Error;
        }
      }),
    ),
  );
  const error = stop as Error | null;
  const finished = await finishJudgeRun(run.id, error ? { status: "FAILED", error: error instanceof LlmBudgetError || error instanceof AppError ? error.message : `${error.name}: ${error.message}` } : { status: "DONE" });
  await announce({ id: finished.studyId }, "judge-run.finished", { runId: finished.id, status: finished.status, task: finished.task, question: finished.question, model: finished.model, error: finished.error });
  return finished;
}
