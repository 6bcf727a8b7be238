/**
 * Metric runs (MetricRun rows): planned, split into chunks of reviews in study order, enqueued
 * as pg-boss jobs, and resumable. Asking again for the same computation (same metrics and
 * signatures) resumes the unfinished run instead of starting another: chunks whose reviews are
 * all stored are skipped, the rest are enqueued again.
 */
import type PgBoss from "pg-boss";
import type { MetricRun } from "@/lib/generated/prisma/client";
import { type ChunkPlan, createMetricRun, metricRunChunks, studyMetricRuns, unfinishedMetricRuns, updateMetricRun } from "@/lib/data/metric-runs";
import type { MetricJobContext } from "./context";
import { isJudgePlanningError, JUDGE_CHUNK_SIZE } from "./judges";
import { type MetricRunRequest, planMetricRun } from "./plan";
import { type ChunkJobData, enqueueChunks } from "./chunks";
import { startQueue } from "@/lib/jobs/queue";
import { parseMetricNames, type RunParams, runIdentity, runParamsSchema, specApplies } from "./specs";
import { InvariantError } from "@/lib/errors";
import { databaseUrl } from "@/lib/env";

export interface StartedRun {
  run: MetricRun;
  /** True when an unfinished run of the same computation was picked up again. */
  resumed: boolean;
  chunks: { total: number; enqueued: number; skipped: number };
}

/** The run's parameters, validated (a row written by another version fails loudly). */
export function runParams(run: Pick<MetricRun, "id" | "params">): RunParams {
  const parsed = runParamsSchema.safeParse(run.params);
  if (!parsed.success) throw new InvariantError(`metric run ${run.id} has parameters this version cannot read: ${parsed.error.message}`);
  return parsed.data;
}

/** The chunks of a run with `params`: its score columns, and how many of them each kind of review expects. */
function chunkPlan(params: RunParams): ChunkPlan {
  const columns = params.specs.flatMap((s) => s.columns.map((metric) => ({ metric, signature: s.signature })));
  const expected = (review: { isReference: boolean }) => params.specs.filter((s) => specApplies(s, review)).reduce((n, s) => n + s.columns.length, 0);
  return { columns, onReference: expected({ isReference: true }), onOthers: expected({ isReference: false }), chunkSize: params.chunkSize };
}

async function findUnfinishedRun(studyId: string, params: RunParams): Promise<MetricRun | null> {
  const candidates = await unfinishedMetricRuns(studyId);
  const identity = runIdentity(params);
  return candidates.find((run) => runParamsSchema.safeParse(run.params).success && runIdentity(runParams(run)) === identity) ?? null;
}

/**
 * A run whose LLM judge could not be planned (no endpoint configured, SWE-Judge without a team,
 * the endpoint failing during team trials): FAILED with the message, so the lead sees why on the
 * metric runs page. Its parameters name no spec, so no later run resumes it.
 */
async function recordFailedPlan(studyId: string, request: MetricRunRequest, message: string, createdById?: string): Promise<void> {
  const params: RunParams = { specs: [], embedding: null, chunkSize: request.chunkSize ?? JUDGE_CHUNK_SIZE };
  const metrics = parseMetricNames(request.metrics);
  await createMetricRun({ studyId, metrics, params, total: 0, done: 0, status: "FAILED", error: message, finishedAt: new Date(), createdById });
}

/**
 * Plans the run, creates or resumes its MetricRun row and enqueues the chunks still to compute.
 * When an LLM judge cannot be planned the error is thrown after recording a FAILED run.
 */
export async function startMetricRun(context: MetricJobContext, boss: PgBoss, studyId: string, request: MetricRunRequest, createdById?: string): Promise<StartedRun> {
  let params: RunParams;
  try {
    params = await planMetricRun(context, studyId, request);
  } catch (error) {
    if (isJudgePlanningError(error)) await recordFailedPlan(studyId, request, (error as Error).message, createdById);
    throw error;
  }
  const planned = await metricRunChunks(studyId, chunkPlan(params));
  const total = planned.reduce((n, c) => n + c.reviewIds.length, 0);
  const done = planned.reduce((n, c) => n + c.complete, 0);
  const finished = done === total;
  const state = {
    total,
    done,
    status: finished ? ("DONE" as const) : ("QUEUED" as const),
    error: null,
    finishedAt: finished ? new Date() : null,
  };

  const existing = await findUnfinishedRun(studyId, params);
  const run = existing ? await updateMetricRun(existing.id, state) : await createMetricRun({ ...state, studyId, metrics: params.specs.map((s) => s.name), params, createdById });

  const chunks: ChunkJobData[] = planned.map((c, chunk) => ({ runId: run.id, chunk, reviewIds: c.reviewIds, fresh: c.fresh }));
  const pending = chunks.filter((_, i) => planned[i].complete < planned[i].reviewIds.length);
  await enqueueChunks(boss, pending);
  return { run, resumed: existing !== null, chunks: { total: chunks.length, enqueued: pending.length, skipped: chunks.length - pending.length } };
}

/**
 * For the web pages: plans and enqueues a run, leaving the computation to the worker
 * (scripts/worker.ts). Opens a short-lived queue connection on DATABASE_URL.
 */
export async function requestMetricRun(context: MetricJobContext, studyId: string, request: MetricRunRequest, createdById?: string): Promise<StartedRun> {
  const url = databaseUrl();
  const boss = await startQueue(url, { supervise: false });
  try {
    return await startMetricRun(context, boss, studyId, request, createdById);
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}

/** A study's metric runs, newest first, with their progress (the page's progress bars). */
export async function listMetricRuns(studyId: string) {
  const runs = await studyMetricRuns(studyId);
  return runs.map((run) => {
    const params = runParamsSchema.safeParse(run.params);
    const embedding = params.success ? params.data.embedding : null;
    return {
      id: run.id,
      metrics: run.metrics,
      status: run.status,
      total: run.total,
      done: run.done,
      error: run.error,
      embedding: embedding && { model: embedding.model, offline: embedding.offline },
      createdAt: run.createdAt,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
    };
  });
}
