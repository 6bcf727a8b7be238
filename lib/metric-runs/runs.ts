/**
 * Metric runs (MetricRun rows): planned, split into chunks of reviews in study order, enqueued
 * as pg-boss jobs, and resumable. Asking again for the same computation (same metrics and
 * signatures) resumes the unfinished run instead of starting another: chunks whose reviews are
 * all stored are skipped, the rest are enqueued again.
 */
import type PgBoss from "pg-boss";
import { Prisma, rawRows, type PrismaClient } from "@/lib/db/client";
import type { MetricRun } from "@/lib/generated/prisma/client";
import { metricScoresInsert, type MetricScoreInput, type OnStoredScore, unstoredScores } from "@/lib/data/metric-scores";
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

interface PlannedChunk {
  reviewIds: string[];
  /** Reviews of the chunk whose every applicable column is stored under the run's signatures. */
  complete: number;
  /** No score of the chunk's reviews is stored under the run's signatures. */
  fresh: boolean;
}

/**
 * The run's reviews in study order (change position, review position; reviews imported
 * without their text are not scored), cut into chunks of
 * `chunkSize` in SQL, each with how many of its reviews are complete already and whether any
 * of their scores is stored: one row per
 * chunk, so planning a run of 100,000 reviews reads 100 rows rather than 100,000. Sent through
 * pg (rawRows), as the chunks' statements are.
 */
async function planChunks(client: PrismaClient, studyId: string, params: RunParams): Promise<PlannedChunk[]> {
  const columns = params.specs.flatMap((s) => s.columns.map((metric) => ({ metric, paramsKey: s.paramsKey })));
  const expected = (review: { isReference: boolean }) => params.specs.filter((s) => specApplies(s, review)).reduce((n, s) => n + s.columns.length, 0);
  const [onReference, onOthers] = [expected({ isReference: true }), expected({ isReference: false })];
  if (onReference === 0 && onOthers === 0) return [];
  const rows = await rawRows<{ ids: string[]; complete: string; fresh: boolean }>(
    client,
    Prisma.sql`
    WITH ordered AS (
      SELECT r.id, r."isReference", row_number() OVER (ORDER BY c.position, c.id, r.position, r.id) - 1 AS n
      FROM "CandidateReview" r JOIN "CodeChange" c ON c.id = r."codeChangeId"
      WHERE c."studyId" = ${studyId} AND NOT r."textMissing" AND (CASE WHEN r."isReference" THEN ${onReference}::int ELSE ${onOthers}::int END) > 0
    ), o AS (SELECT *, n / ${params.chunkSize}::int AS chunk FROM ordered),
    stored AS (
      SELECT s."candidateReviewId" AS id, count(*) AS n FROM "MetricScore" s
      WHERE s."candidateReviewId" IN (SELECT id FROM o)
        AND (s.metric, s."paramsKey") IN (SELECT * FROM unnest(${columns.map((c) => c.metric)}::text[], ${columns.map((c) => c.paramsKey)}::text[]))
      GROUP BY s."candidateReviewId"
    )
    SELECT array_agg(o.id ORDER BY o.n) AS ids,
      count(*) FILTER (WHERE coalesce(stored.n, 0) >= CASE WHEN o."isReference" THEN ${onReference}::int ELSE ${onOthers}::int END) AS complete,
      count(stored.id) = 0 AS fresh
    FROM o LEFT JOIN stored ON stored.id = o.id
    GROUP BY o.chunk ORDER BY o.chunk`,
  );
  return rows.map((r) => ({ reviewIds: r.ids, complete: Number(r.complete), fresh: r.fresh }));
}

/** The run's parameters, validated (a row written by another version fails loudly). */
export function runParams(run: Pick<MetricRun, "id" | "params">): RunParams {
  const parsed = runParamsSchema.safeParse(run.params);
  if (!parsed.success) throw new InvariantError(`metric run ${run.id} has parameters this version cannot read: ${parsed.error.message}`);
  return parsed.data;
}

async function findUnfinishedRun(client: PrismaClient, studyId: string, params: RunParams): Promise<MetricRun | null> {
  const candidates = await client.metricRun.findMany({ where: { studyId, status: { not: "DONE" } }, orderBy: { createdAt: "desc" } });
  const identity = runIdentity(params);
  return candidates.find((run) => runParamsSchema.safeParse(run.params).success && runIdentity(runParams(run)) === identity) ?? null;
}

/**
 * A run whose LLM judge could not be planned (no endpoint configured, SWE-Judge without a team,
 * the endpoint failing during team trials): FAILED with the message, so the lead sees why on the
 * metric runs page. Its parameters name no spec, so no later run resumes it.
 */
async function recordFailedPlan(client: PrismaClient, studyId: string, request: MetricRunRequest, message: string, createdById?: string): Promise<void> {
  const params: RunParams = { specs: [], embedding: null, chunkSize: request.chunkSize ?? JUDGE_CHUNK_SIZE };
  const metrics = parseMetricNames(request.metrics);
  await client.metricRun.create({ data: { studyId, metrics, params: params as unknown as Prisma.InputJsonValue, status: "FAILED", error: message, finishedAt: new Date(), createdById } });
}

/**
 * Plans the run, creates or resumes its MetricRun row and enqueues the chunks still to compute.
 * When an LLM judge cannot be planned the error is thrown after recording a FAILED run.
 */
export async function startMetricRun(context: MetricJobContext, boss: PgBoss, studyId: string, request: MetricRunRequest, createdById?: string): Promise<StartedRun> {
  const { client } = context;
  let params: RunParams;
  try {
    params = await planMetricRun(context, studyId, request);
  } catch (error) {
    if (isJudgePlanningError(error)) await recordFailedPlan(client, studyId, request, (error as Error).message, createdById);
    throw error;
  }
  const planned = await planChunks(client, studyId, params);
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

  const existing = await findUnfinishedRun(client, studyId, params);
  const run = existing
    ? await client.metricRun.update({ where: { id: existing.id }, data: state })
    : await client.metricRun.create({ data: { ...state, studyId, metrics: params.specs.map((s) => s.name), params: params as unknown as Prisma.InputJsonValue, createdById } });

  const chunks: ChunkJobData[] = planned.map((c, chunk) => ({ runId: run.id, chunk, reviewIds: c.reviewIds, fresh: c.fresh }));
  const pending = chunks.filter((_, i) => planned[i].complete < planned[i].reviewIds.length);
  await enqueueChunks(boss, pending);
  return { run, resumed: existing !== null, chunks: { total: chunks.length, enqueued: pending.length, skipped: chunks.length - pending.length } };
}

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = "23505";

/**
 * Stores a chunk's scores and counts its `reviews` as done (never beyond the total; the run is
 * finished when all are) in one statement, so one round trip and one transaction per chunk, and
 * returns how many reviews it counted. The rows were missing when the chunk was read (or, for a
 * fresh chunk, when its run was planned), so they go in by a plain INSERT; should another worker
 * have stored some of them since (the same chunk run twice, e.g. after its job expired), that
 * statement fails as a whole, and the rows still missing are stored, keeping any stored
 * meanwhile, with only the reviews they complete counted.
 */
export async function storeChunkScores(client: PrismaClient, runId: string, rows: readonly MetricScoreInput[], reviews: number): Promise<number> {
  const store = (scores: readonly MetricScoreInput[], completed: number, stored: OnStoredScore) =>
    rawRows(
      client,
      Prisma.sql`
      WITH stored AS (${metricScoresInsert(scores, stored)})
      UPDATE "MetricRun" SET
        done = LEAST(done + ${completed}, total),
        status = CASE WHEN done + ${completed} >= total THEN 'DONE'::"JobStatus" ELSE 'RUNNING'::"JobStatus" END,
        "startedAt" = COALESCE("startedAt", now()),
        "finishedAt" = CASE WHEN done + ${completed} >= total THEN now() ELSE NULL END
      WHERE id = ${runId} AND status <> 'FAILED'`,
    );
  try {
    await store(rows, reviews, "fail");
    return reviews;
  } catch (error) {
    if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
  }
  // Every review of a computed chunk has rows for all the columns of its metrics, so the reviews
  // with a row still missing are those this chunk completes.
  const missing = await unstoredScores(rows, client);
  const completed = new Set(missing.map((r) => r.reviewId)).size;
  await store(missing, completed, "keep");
  return completed;
}

export async function markRunFailed(client: PrismaClient, runId: string, message: string): Promise<void> {
  await client.metricRun.update({ where: { id: runId }, data: { status: "FAILED", error: message, finishedAt: new Date() } });
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
export async function listMetricRuns(studyId: string, client: PrismaClient) {
  const runs = await client.metricRun.findMany({ where: { studyId }, orderBy: { createdAt: "desc" } });
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
