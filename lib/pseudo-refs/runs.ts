/**
 * Pseudo-reference runs (PseudoReferenceRun rows): one pg-boss job per code change, progress
 * counted per finished change (PseudoReferenceRunItem), resumable. Asking again for the same
 * computation (same source and signature) resumes its latest run: changes with an item are
 * skipped, the others enqueued again. A worker takes a source's jobs in chunks of that source's
 * size (SOURCE_QUEUES) and generates the chunk's changes together.
 */
import { hostname } from "node:os";
import type PgBoss from "pg-boss";
import { AppError } from "@/lib/errors";
import { LlmBudgetError } from "@/lib/judges";
import type { PseudoReferenceRun } from "@/lib/generated/prisma/client";
import { codeChangesToGenerate, createPseudoReferenceRun, doneCodeChangeIds, failPseudoReferenceRun, findPseudoReferenceRun, latestPseudoReferenceRun, markPseudoReferenceRunStarted, requirePseudoReferenceRun, storeGenerated, updatePseudoReferenceRun } from "@/lib/data/pseudo-references";
import { jobIdOf, replaceJobs, startQueue } from "@/lib/jobs/queue";
import type { MetricJobContext } from "@/lib/metric-runs/context";
import { type PseudoReferenceJobData, SOURCE_QUEUES } from "./queues";
import { smellSource } from "./smells";
import type { ChangeToGenerate, Generated, PseudoReferenceSource, PseudoReferenceSourceName } from "./types";
import { databaseUrl } from "@/lib/env";

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
  const plan = await (await sourceOf(source)).plan(context, studyId, options);
  const existing = await latestPseudoReferenceRun(studyId, source, plan.signature);
  const doneIds = existing ? await doneCodeChangeIds(existing.id) : new Set<string>();
  const pending = plan.codeChangeIds.filter((id) => !doneIds.has(id));
  const total = plan.codeChangeIds.length;
  const done = total - pending.length;
  const finished = pending.length === 0;
  const state = { total, done, status: finished ? ("DONE" as const) : ("QUEUED" as const), error: null, finishedAt: finished ? new Date() : null, params: plan.params };
  const run = existing ? await updatePseudoReferenceRun(existing.id, state) : await createPseudoReferenceRun({ ...state, studyId, source, signature: plan.signature, createdById });
  const jobs = pending.map((codeChangeId) => ({ runId: run.id, codeChangeId }));
  await replaceJobs(boss, SOURCE_QUEUES[source].queue, jobs.map((data) => ({ id: jobId(data), data })));
  return { run, resumed: existing !== null, enqueued: jobs.length };
}

/** What one job gave: the pseudo-references stored, or the error that failed it. */
export type JobOutcome = { stored: number } | { error: unknown };


/**
 * The changes' references from `source`, all at once; should that fail, one change at a time,
 * so that only a failing change's job fails.
 */
async function generateChunk(source: PseudoReferenceSource, context: MetricJobContext, run: PseudoReferenceRun, changes: readonly ChangeToGenerate[]): Promise<PromiseSettledResult<Generated>[]> {
  const runInfo = { id: run.id, params: run.params as Record<string, unknown> };
  if (changes.length > 1) {
    try {
      return (await source.generate(context, runInfo, changes)).map((value) => ({ status: "fulfilled", value }));
    } catch {
      // Told apart below.
    }
  }
  const settled: PromiseSettledResult<Generated>[] = [];
  for (const change of changes) {
    try {
      settled.push({ status: "fulfilled", value: (await source.generate(context, runInfo, [change]))[0] });
    } catch (reason) {
      settled.push({ status: "rejected", reason });
    }
  }
  return settled;
}

/**
 * A chunk of jobs (of one run or several): each run's changes not done yet are generated
 * together, then each is stored with its item and the run's progress in a transaction of its
 * own. A change already done, or a failed run, does nothing. Outcomes in the jobs' order.
 */
export async function processPseudoReferenceJobs(context: MetricJobContext, jobs: readonly PseudoReferenceJobData[]): Promise<JobOutcome[]> {
  const outcomes: JobOutcome[] = jobs.map(() => ({ stored: 0 }));
  const byRun = new Map<string, number[]>();
  jobs.forEach((job, i) => byRun.set(job.runId, [...(byRun.get(job.runId) ?? []), i]));
  for (const [runId, indices] of byRun) {
    const run = await findPseudoReferenceRun(runId);
    if (!run || run.status === "FAILED") continue;
    const ids = indices.map((i) => jobs[i].codeChangeId);
    const done = await doneCodeChangeIds(runId, ids);
    const found = await codeChangesToGenerate(ids.filter((id) => !done.has(id)));
    const changes = new Map(found.map((c) => [c.id, c]));
    const todo = indices.filter((i) => changes.has(jobs[i].codeChangeId));
    if (todo.length === 0) continue;
    await markPseudoReferenceRunStarted(run.id);
    const generated = await generateChunk(await sourceOf(run.source), context, run, todo.map((i) => changes.get(jobs[i].codeChangeId)!));
    for (const [k, i] of todo.entries()) {
      const result = generated[k];
      if (result.status === "rejected") outcomes[i] = { error: result.reason };
      else {
        try {
          outcomes[i] = { stored: await storeGenerated(run, changes.get(jobs[i].codeChangeId)!, result.value) };
        } catch (error) {
          outcomes[i] = { error };
        }
      }
    }
  }
  return outcomes;
}

const WORKER = `${hostname()}:${process.pid}`;

/**
 * Processes a chunk of jobs taken from `queue` and settles each: completed, or failed for pg-boss
 * to retry. A failure on a job's last attempt (or a spent budget) fails its run.
 */
export async function settlePseudoReferenceJobs(boss: PgBoss, context: MetricJobContext, queue: string, jobs: readonly PgBoss.JobWithMetadata<PseudoReferenceJobData>[]): Promise<void> {
  let outcomes: JobOutcome[];
  try {
    outcomes = await processPseudoReferenceJobs(context, jobs.map((job) => job.data));
  } catch (error) {
    outcomes = jobs.map(() => ({ error }));
  }
  for (const [i, job] of jobs.entries()) {
    const outcome = outcomes[i];
    if (!("error" in outcome)) {
      await boss.complete(queue, job.id, { worker: WORKER, stored: outcome.stored });
      continue;
    }
    const error = outcome.error as Error;
    // A spent budget stops the run at once: retrying would only ask for more.
    if (error instanceof LlmBudgetError || job.retryCount >= job.retryLimit) {
      await failPseudoReferenceRun(job.data.runId, job.data.codeChangeId, error.message);
    }
    await boss.fail(queue, job.id, { message: error.message });
  }
}

const finished = (run: PseudoReferenceRun) => run.status === "DONE" || run.status === "FAILED";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Works the run's queue in this process until run `runId` is done or failed (the CLI); it may
 * also do jobs of other runs found in the queue. `chunk`: jobs taken at once (default the
 * source's); `maxJobs` (jobs of this run) simulates a crash in tests.
 */
export async function drainPseudoReferenceRun(boss: PgBoss, context: MetricJobContext, runId: string, options: { onProgress?: (run: PseudoReferenceRun) => void; maxJobs?: number; concurrency?: number; chunk?: number } = {}): Promise<PseudoReferenceRun> {
  const first = await requirePseudoReferenceRun(runId);
  const { queue, chunk } = SOURCE_QUEUES[first.source as PseudoReferenceSourceName] ?? SOURCE_QUEUES.claims;
  let processed = 0;
  const lane = async (): Promise<void> => {
    for (;;) {
      const run = await requirePseudoReferenceRun(runId);
      const left = options.maxJobs === undefined ? Infinity : options.maxJobs - processed;
      if (finished(run) || left <= 0) return;
      const jobs = await boss.fetch<PseudoReferenceJobData>(queue, { batchSize: Math.min(options.chunk ?? chunk, left), includeMetadata: true });
      if (jobs.length === 0) {
        await sleep(250);
        continue;
      }
      processed += jobs.filter((job) => job.data.runId === runId).length;
      await settlePseudoReferenceJobs(boss, context, queue, jobs);
      options.onProgress?.(await requirePseudoReferenceRun(runId));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 1 }, lane));
  return requirePseudoReferenceRun(runId);
}

/** For the web page: plans and enqueues runs for the worker over a short-lived queue connection. */
export async function requestPseudoReferenceRuns(context: MetricJobContext, studyId: string, sources: readonly PseudoReferenceSourceName[], options: Record<string, unknown>, createdById?: string): Promise<StartedPseudoReferenceRun[]> {
  const url = databaseUrl();
  const boss = await startQueue(url, { supervise: false });
  try {
    const started: StartedPseudoReferenceRun[] = [];
    for (const source of sources) started.push(await startPseudoReferenceRun(context, boss, studyId, source, options, createdById));
    return started;
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}
