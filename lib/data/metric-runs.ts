/**
 * Metric runs (MetricRun rows, lib/metric-runs): their chunks as planned in SQL, their state, and
 * a chunk's scores stored with the run's progress in one statement.
 */
import "server-only";
import { db, Prisma, rawRows } from "@/lib/db/client";
import type { MetricRun } from "@/lib/generated/prisma/client";
import { metricScoresInsert, type MetricScoreInput, type OnStoredScore, unstoredScores } from "@/lib/data/metric-scores";

export interface PlannedChunk {
  reviewIds: string[];
  /** Reviews of the chunk whose every applicable column is stored under the run's signatures. */
  complete: number;
  /** No score of the chunk's reviews is stored under the run's signatures. */
  fresh: boolean;
}

/** What planning a run's chunks needs: the run's score columns, how many of them a human reference and another review expects, and the chunk size. */
export interface ChunkPlan {
  columns: readonly { metric: string; signature: string }[];
  onReference: number;
  onOthers: number;
  chunkSize: number;
}

/**
 * The run's reviews in study order (change position, review position; reviews imported
 * without their text are not scored), cut into chunks of `chunkSize` in SQL, each with how many
 * of its reviews are complete already and whether any of their scores is stored: one row per
 * chunk, so planning a run of 100,000 reviews reads 100 rows rather than 100,000. The stored
 * scores of the run's columns are counted per review by one scan of the unique index over the
 * array of the reviews' ids (one index search since PostgreSQL 17), the columns compared with
 * each row found: a probe per review (a lateral count) took 105 ms of the analysis bench's
 * CRScore planning where this takes 55 ms, and with the columns in the index condition the
 * planner of a study without statistics yet (one just imported) probed once per review and
 * column, 75,000 probes. Sent through pg (rawRows), as the chunks' statements are.
 */
export async function metricRunChunks(studyId: string, { columns, onReference, onOthers, chunkSize }: ChunkPlan): Promise<PlannedChunk[]> {
  if (onReference === 0 && onOthers === 0) return [];
  const rows = await rawRows<{ ids: string[]; complete: string; fresh: boolean }>(
    db,
    Prisma.sql`
    WITH ordered AS MATERIALIZED (
      SELECT r.id, r."isReference", row_number() OVER (ORDER BY c.position, c.id, r.position, r.id) - 1 AS n
      FROM "CandidateReview" r JOIN "CodeChange" c ON c.id = r."codeChangeId"
      WHERE c."studyId" = ${studyId} AND NOT r."textMissing" AND (CASE WHEN r."isReference" THEN ${onReference}::int ELSE ${onOthers}::int END) > 0
    ), stored AS (
      SELECT s."candidateReviewId" AS id, count(*) AS n FROM "MetricScore" s
      WHERE s."candidateReviewId" = ANY(ARRAY(SELECT id FROM ordered))
        AND s.metric || chr(10) || s."paramsKey" = ANY(${columns.map((c) => `${c.metric}\n${c.signature}`)}::text[])
      GROUP BY s."candidateReviewId"
    )
    SELECT array_agg(o.id ORDER BY o.n) AS ids,
      count(*) FILTER (WHERE stored.n >= CASE WHEN o."isReference" THEN ${onReference}::int ELSE ${onOthers}::int END) AS complete,
      max(stored.n) IS NULL AS fresh
    FROM (SELECT *, n / ${chunkSize}::int AS chunk FROM ordered) o LEFT JOIN stored ON stored.id = o.id
    GROUP BY o.chunk ORDER BY o.chunk`,
  );
  return rows.map((r) => ({ reviewIds: r.ids, complete: Number(r.complete), fresh: r.fresh }));
}

/** The study's metric runs not DONE, newest first. */
export function unfinishedMetricRuns(studyId: string): Promise<MetricRun[]> {
  return db.metricRun.findMany({ where: { studyId, status: { not: "DONE" } }, orderBy: { createdAt: "desc" } });
}

type RunState = Pick<Prisma.MetricRunUncheckedCreateInput, "total" | "done" | "status" | "error" | "finishedAt">;

export function createMetricRun(data: RunState & { studyId: string; metrics: string[]; params: object; createdById?: string }): Promise<MetricRun> {
  return db.metricRun.create({ data: { ...data, params: data.params as Prisma.InputJsonValue } });
}

/** A resumed run's new state. */
export function updateMetricRun(runId: string, state: RunState): Promise<MetricRun> {
  return db.metricRun.update({ where: { id: runId }, data: state });
}

export function failMetricRun(runId: string, message: string): Promise<FinishedMetricRun> {
  return db.metricRun.update({ where: { id: runId }, data: { status: "FAILED", error: message, finishedAt: new Date() }, select: { id: true, studyId: true, metrics: true } });
}

export function requireMetricRun(runId: string): Promise<MetricRun> {
  return db.metricRun.findUniqueOrThrow({ where: { id: runId } });
}

/** What a chunk needs of its run. */
export type ChunkRun = Pick<MetricRun, "id" | "studyId" | "status" | "params">;

/** The run's row as a chunk needs it, through pg (a Prisma read costs milliseconds of CPU there); undefined when it does not exist. */
export async function chunkRun(runId: string): Promise<ChunkRun | undefined> {
  const [run] = await rawRows<ChunkRun>(db, Prisma.sql`SELECT id, "studyId", status, params FROM "MetricRun" WHERE id = ${runId}`);
  return run;
}

/** A study's metric runs, newest first. */
export function studyMetricRuns(studyId: string): Promise<MetricRun[]> {
  return db.metricRun.findMany({ where: { studyId }, orderBy: { createdAt: "desc" } });
}

/** The parameters of the study's runs of `metric`, newest first (SWE-Judge's earlier team trials). */
export function metricRunParams(studyId: string, metric: string): Promise<Pick<MetricRun, "id" | "params">[]> {
  return db.metricRun.findMany({ where: { studyId, metrics: { has: metric } }, orderBy: { createdAt: "desc" }, select: { id: true, params: true } });
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
 * meanwhile, with only the reviews they complete counted. `finished`: the run this store
 * finished (it counted reviews and the run is now done; the row's lock orders concurrent stores,
 * so exactly one store finishes a run).
 */
export async function storeChunkScores(runId: string, rows: readonly MetricScoreInput[], reviews: number): Promise<{ completed: number; finished: FinishedMetricRun | null }> {
  const store = async (scores: readonly MetricScoreInput[], completed: number, stored: OnStoredScore) => {
    const [run] = await rawRows<FinishedMetricRun & { status: string }>(
      db,
      Prisma.sql`
      WITH stored AS (${metricScoresInsert(scores, stored)})
      UPDATE "MetricRun" SET
        done = LEAST(done + ${completed}, total),
        status = CASE WHEN done + ${completed} >= total THEN 'DONE'::"JobStatus" ELSE 'RUNNING'::"JobStatus" END,
        "startedAt" = COALESCE("startedAt", now()),
        "finishedAt" = CASE WHEN done + ${completed} >= total THEN now() ELSE NULL END
      WHERE id = ${runId} AND status <> 'FAILED'
      RETURNING id, "studyId", metrics, status::text AS status`,
    );
    const finished = completed > 0 && run?.status === "DONE" ? { id: run.id, studyId: run.studyId, metrics: run.metrics } : null;
    return { completed, finished };
  };
  try {
    return await store(rows, reviews, "fail");
  } catch (error) {
    if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
  }
  // Every review of a computed chunk has rows for all the columns of its metrics, so the reviews
  // with a row still missing are those this chunk completes.
  const missing = await unstoredScores(rows);
  return store(missing, new Set(missing.map((r) => r.reviewId)).size, "keep");
}

/** A metric run as its end is announced (metric-run.finished). */
export interface FinishedMetricRun {
  id: string;
  studyId: string;
  metrics: string[];
}
