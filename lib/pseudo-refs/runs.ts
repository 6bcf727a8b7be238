/**
 * Pseudo-reference runs (PseudoReferenceRun rows): one pg-boss job per code change, progress
 * counted per finished change (PseudoReferenceRunItem), resumable. Asking again for the same
 * computation (same source and signature) resumes its latest run: changes with an item are
 * skipped, the others enqueued again.
 */
import { hostname } from "node:os";
import type PgBoss from "pg-boss";
import type { PrismaClient } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { LlmBudgetError } from "@/lib/judges";
import { Prisma, type PseudoReferenceRun } from "@/lib/generated/prisma/client";
import { jobIdOf, PSEUDO_REFERENCE_QUEUE, startQueue, type MetricJobContext } from "@/lib/jobs";
import { smellSource } from "./smells";
import type { PseudoReferenceSource, PseudoReferenceSourceName } from "./types";

export interface PseudoReferenceJobData {
  runId: string;
  codeChangeId: string;
}

const RETRY_LIMIT = 2;
const EXPIRE_SECONDS = 15 * 60;

const SOURCES: Record<PseudoReferenceSourceName, () => Promise<PseudoReferenceSource>> = {
  smells: async () => smellSource,
  claims: async () => (await import("./claims")).claimSource,
};

export const PSEUDO_REFERENCE_SOURCES = Object.keys(SOURCES) as PseudoReferenceSourceName[];

function sourceOf(name: string): Promise<PseudoReferenceSource> {
  const load = SOURCES[name as PseudoReferenceSourceName];
  if (!load) throw new AppError("INVALID_INPUT", { message: `unknown pseudo-reference source "${name}" (one of ${PSEUDO_REFERENCE_SOURCES.join(", ")})` });
  return load();
}

export interface StartedPseudoReferenceRun {
  run: PseudoReferenceRun;
  resumed: boolean;
  enqueued: number;
}

const jobId = (data: PseudoReferenceJobData) => jobIdOf(`pseudo-refs:${data.runId}:${data.codeChangeId}`);

/** Plans the run, creates or resumes its row and enqueues the changes not done yet. */
export async function startPseudoReferenceRun(
  context: MetricJobContext,
  boss: PgBoss,
  studyId: string,
  source: PseudoReferenceSourceName,
  options: Record<string, unknown> = {},
  createdById?: string,
): Promise<StartedPseudoReferenceRun> {
  const { client } = context;
  const plan = await (await sourceOf(source)).plan(context, studyId, options);
  const existing = await client.pseudoReferenceRun.findFirst({ where: { studyId, source, signature: plan.signature }, orderBy: { createdAt: "desc" } });
  const doneIds = existing ? new Set((await client.pseudoReferenceRunItem.findMany({ where: { runId: existing.id }, select: { codeChangeId: true } })).map((i) => i.codeChangeId)) : new Set<string>();
  const pending = plan.codeChangeIds.filter((id) => !doneIds.has(id));
  const total = plan.codeChangeIds.length;
  const done = total - pending.length;
  const finished = pending.length === 0;
  const state = { total, done, status: finished ? ("DONE" as const) : ("QUEUED" as const), error: null, finishedAt: finished ? new Date() : null, params: plan.params as Prisma.InputJsonValue };
  const run = existing
    ? await client.pseudoReferenceRun.update({ where: { id: existing.id }, data: state })
    : await client.pseudoReferenceRun.create({ data: { ...state, studyId, source, signature: plan.signature, createdById } });
  const jobs = pending.map((codeChangeId) => ({ runId: run.id, codeChangeId }));
  if (jobs.length > 0) {
    const ids = jobs.map(jobId);
    await boss.deleteJob(PSEUDO_REFERENCE_QUEUE, ids);
    await boss.insert(jobs.map((data, i) => ({ id: ids[i], name: PSEUDO_REFERENCE_QUEUE, data, retryLimit: RETRY_LIMIT, expireInSeconds: EXPIRE_SECONDS })));
  }
  return { run, resumed: existing !== null, enqueued: jobs.length };
}

/**
 * One job: generates the change's pseudo-references and stores them with the change's item and
 * the run's progress in one transaction. A change already done, or a failed run, does nothing.
 * Returns how many pseudo-references were stored.
 */
export async function processPseudoReferenceJob(context: MetricJobContext, data: PseudoReferenceJobData): Promise<number> {
  const { client } = context;
  const run = await client.pseudoReferenceRun.findUnique({ where: { id: data.runId } });
  if (!run || run.status === "FAILED") return 0;
  if (await client.pseudoReferenceRunItem.findUnique({ where: { runId_codeChangeId: { runId: run.id, codeChangeId: data.codeChangeId } } })) return 0;
  const change = await client.codeChange.findUnique({ where: { id: data.codeChangeId }, select: { id: true, studyId: true, externalId: true, filePath: true, language: true, diff: true, oldFile: true, newFile: true } });
  if (!change) return 0;
  await client.pseudoReferenceRun.updateMany({ where: { id: run.id, status: "QUEUED" }, data: { status: "RUNNING", startedAt: new Date() } });
  const source = await sourceOf(run.source);
  const generated = await source.generate(context, { id: run.id, params: run.params as Record<string, unknown> }, change);
  return client.$transaction(async (tx) => {
    const inserted = await tx.$executeRaw`INSERT INTO "PseudoReferenceRunItem" ("runId", "codeChangeId", created, detail) VALUES (${run.id}, ${change.id}, 0, ${JSON.stringify(generated.detail)}::jsonb) ON CONFLICT DO NOTHING`;
    if (inserted === 0) return 0;
    const last = await tx.pseudoReference.aggregate({ where: { codeChangeId: change.id }, _max: { position: true } });
    const start = (last._max.position ?? -1) + 1;
    const stored = await tx.pseudoReference.createMany({
      data: generated.references.map((r, i) => ({ codeChangeId: change.id, externalId: r.externalId, kind: r.kind, text: r.text, source: r.source, position: start + i, metadata: { ...r.metadata, runId: run.id, signature: run.signature } as Prisma.InputJsonValue })),
      skipDuplicates: true,
    });
    await tx.pseudoReferenceRunItem.update({ where: { runId_codeChangeId: { runId: run.id, codeChangeId: change.id } }, data: { created: stored.count } });
    await tx.$executeRaw`
      UPDATE "PseudoReferenceRun" SET done = LEAST(done + 1, total),
        status = CASE WHEN done + 1 >= total THEN 'DONE'::"JobStatus" ELSE 'RUNNING'::"JobStatus" END,
        "finishedAt" = CASE WHEN done + 1 >= total THEN now() ELSE NULL END
      WHERE id = ${run.id} AND status <> 'FAILED'`;
    return stored.count;
  });
}

const WORKER = `${hostname()}:${process.pid}`;

/** Processes one job; a failure on its last attempt (or a spent budget) fails the run, and is thrown again for pg-boss. */
export async function runPseudoReferenceJob(context: MetricJobContext, job: PgBoss.JobWithMetadata<PseudoReferenceJobData>): Promise<{ worker: string; stored: number }> {
  try {
    return { worker: WORKER, stored: await processPseudoReferenceJob(context, job.data) };
  } catch (error) {
    // A spent budget stops the run at once: retrying would only ask for more.
    if (error instanceof LlmBudgetError || job.retryCount >= job.retryLimit) {
      const change = await context.client.codeChange.findUnique({ where: { id: job.data.codeChangeId }, select: { externalId: true } });
      await context.client.pseudoReferenceRun.update({ where: { id: job.data.runId }, data: { status: "FAILED", error: `change ${change?.externalId ?? job.data.codeChangeId}: ${(error as Error).message}`, finishedAt: new Date() } });
    }
    throw error;
  }
}


const finished = (run: PseudoReferenceRun) => run.status === "DONE" || run.status === "FAILED";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Works the queue in this process until run `runId` is done or failed (the CLI); it may also do
 * jobs of other runs found in the queue. `maxJobs` (jobs of this run) simulates a crash in tests.
 */
export async function drainPseudoReferenceRun(boss: PgBoss, context: MetricJobContext, runId: string, options: { onProgress?: (run: PseudoReferenceRun) => void; maxJobs?: number; concurrency?: number } = {}): Promise<PseudoReferenceRun> {
  let processed = 0;
  const lane = async (): Promise<void> => {
    for (;;) {
      const run = await context.client.pseudoReferenceRun.findUniqueOrThrow({ where: { id: runId } });
      if (finished(run) || (options.maxJobs !== undefined && processed >= options.maxJobs)) return;
      const [job] = await boss.fetch<PseudoReferenceJobData>(PSEUDO_REFERENCE_QUEUE, { batchSize: 1, includeMetadata: true });
      if (!job) {
        await sleep(250);
        continue;
      }
      if (job.data.runId === runId) processed++;
      try {
        await boss.complete(PSEUDO_REFERENCE_QUEUE, job.id, await runPseudoReferenceJob(context, job));
      } catch (error) {
        await boss.fail(PSEUDO_REFERENCE_QUEUE, job.id, { message: (error as Error).message });
      }
      options.onProgress?.(await context.client.pseudoReferenceRun.findUniqueOrThrow({ where: { id: runId } }));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 1 }, lane));
  return context.client.pseudoReferenceRun.findUniqueOrThrow({ where: { id: runId } });
}

/** For the web page: plans and enqueues runs for the worker over a short-lived queue connection. */
export async function requestPseudoReferenceRuns(context: MetricJobContext, studyId: string, sources: readonly PseudoReferenceSourceName[], options: Record<string, unknown>, createdById?: string): Promise<StartedPseudoReferenceRun[]> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  const boss = await startQueue(url, { supervise: false });
  try {
    const started: StartedPseudoReferenceRun[] = [];
    for (const source of sources) started.push(await startPseudoReferenceRun(context, boss, studyId, source, options, createdById));
    return started;
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}

/** What a claims run's LLM calls took, summed over its changes (PseudoReferenceRunItem.detail). */
export interface LlmRunSummary {
  requests: number;
  cachedChanges: number;
  promptTokens: number;
  completionTokens: number;
  /** null when a model without a listed price answered. */
  costUsd: number | null;
  refusedChanges: number;
  models: string[];
}

interface ItemDetail {
  model?: string;
  requests?: number;
  cached?: boolean;
  usage?: { promptTokens: number; completionTokens: number } | null;
  costUsd?: number | null;
  refused?: string;
}

function summarizeLlm(details: readonly ItemDetail[]): LlmRunSummary {
  const summary: LlmRunSummary = { requests: 0, cachedChanges: 0, promptTokens: 0, completionTokens: 0, costUsd: 0, refusedChanges: 0, models: [] };
  for (const d of details) {
    summary.requests += d.requests ?? 0;
    if (d.cached) summary.cachedChanges++;
    summary.promptTokens += d.usage?.promptTokens ?? 0;
    summary.completionTokens += d.usage?.completionTokens ?? 0;
    summary.costUsd = summary.costUsd === null || d.costUsd === null ? null : summary.costUsd + (d.costUsd ?? 0);
    if (d.refused) summary.refusedChanges++;
    if (d.model && !summary.models.includes(d.model)) summary.models.push(d.model);
  }
  return summary;
}

/** A study's runs, newest first, with what their changes gave (the page's progress table): pseudo-references stored and, for claims, the LLM's usage. */
export async function listPseudoReferenceRuns(studyId: string, client: PrismaClient) {
  const runs = await client.pseudoReferenceRun.findMany({ where: { studyId }, orderBy: { createdAt: "desc" } });
  const items = await client.pseudoReferenceRunItem.findMany({ where: { runId: { in: runs.map((r) => r.id) } }, select: { runId: true, created: true, detail: true } });
  return runs.map((run) => {
    const mine = items.filter((i) => i.runId === run.id);
    return { ...run, created: mine.reduce((n, i) => n + i.created, 0), llm: run.source === "claims" ? summarizeLlm(mine.map((i) => i.detail as ItemDetail)) : null };
  });
}
