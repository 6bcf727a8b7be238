/**
 * Metric runs started from the web: the Next.js server process is itself a pg-boss worker of the
 * metric queue. The first time a lead starts a run or opens the metric runs page with a run
 * unfinished, this process starts pg-boss on DATABASE_URL and subscribes to the queue
 * (workMetricChunks, one chunk at a time); chunks then run in the background of the server
 * while the page polls MetricRun. A run left unfinished by a restart is picked up again when
 * the page is next opened (pg-boss retries chunks whose worker died once they expire), and the
 * CLI (`npm run cli -- metrics …`) can drain the same queue alongside.
 */
import type PgBoss from "pg-boss";
import { z } from "zod";
import type { MetricRunRequest, StartedRun } from "@/lib/jobs";
import { createJobContext, type MetricJobContext, runParams, startMetricRun, startQueue, workMetricChunks } from "@/lib/jobs";
import { resolveEmbeddingConfig } from "@/lib/embeddings";
import { db } from "@/lib/db/client";
import type { JobStatus } from "@/lib/generated/prisma/enums";

interface MetricWorker {
  boss: PgBoss;
  context: MetricJobContext;
}

const state = globalThis as unknown as { crjudgeMetricWorker?: Promise<MetricWorker> };

/** This process's queue and worker, started once. */
export function metricWorker(): Promise<MetricWorker> {
  if (!state.crjudgeMetricWorker) {
    const starting = (async () => {
      const url = process.env.DATABASE_URL;
      if (!url) throw new Error("DATABASE_URL is not set");
      const boss = await startQueue(url);
      const context = createJobContext({ client: db });
      await workMetricChunks(boss, context);
      return { boss, context };
    })();
    state.crjudgeMetricWorker = starting;
    starting.catch(() => {
      if (state.crjudgeMetricWorker === starting) state.crjudgeMetricWorker = undefined;
    });
  }
  return state.crjudgeMetricWorker;
}

export const startRunSchema = z.object({
  metrics: z.array(z.string().trim().min(1)).min(1, "Choose at least one metric."),
  /** CRScore threshold; default calibrated on the study. */
  tau: z.number().gt(0).max(1).optional(),
  /** Reviews per job. */
  chunkSize: z.number().int().min(1).max(10_000).optional(),
});

/** Plans and enqueues a run (or resumes the same unfinished one); this process computes it in the background. */
export async function startWebMetricRun(studyId: string, request: z.infer<typeof startRunSchema>, userId: string): Promise<StartedRun> {
  const { boss, context } = await metricWorker();
  const runRequest: MetricRunRequest = { metrics: request.metrics, tau: request.tau, chunkSize: request.chunkSize };
  return startMetricRun(context, boss, studyId, runRequest, userId);
}

export const OFFLINE_LABEL = "offline TF-IDF default (no embedding model configured)";

/** The embedder new runs use: the configured endpoint, or the offline default, labelled as such. */
export function embeddingProvider(): { kind: "offline" | "http" | "misconfigured"; label: string } {
  try {
    const config = resolveEmbeddingConfig();
    return config.kind === "offline"
      ? { kind: "offline", label: `${OFFLINE_LABEL}: TF-IDF over word and character n-grams fitted on the study's texts, with its own calibrated CRScore threshold. Set EMBEDDINGS_URL and EMBEDDINGS_MODEL to use a model.` }
      : { kind: "http", label: `OpenAI-compatible endpoint ${config.url}, model ${config.model}` };
  } catch (error) {
    return { kind: "misconfigured", label: (error as Error).message };
  }
}

export interface RunRow {
  id: string;
  metrics: string[];
  status: JobStatus;
  done: number;
  total: number;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  createdBy: string | null;
  embedding: string;
  signatures: { name: string; paramsKey: string }[];
}

/** The study's runs (or the one with `id`), newest first, as plain JSON. */
export async function listRuns(studyId: string, options: { take?: number; id?: string } = {}): Promise<RunRow[]> {
  const runs = await db.metricRun.findMany({
    where: { studyId, ...(options.id === undefined ? {} : { id: options.id }) },
    orderBy: { createdAt: "desc" },
    take: options.take ?? 50,
    include: { createdBy: { select: { name: true } } },
  });
  return runs.map((run) => {
    let embedding = "—";
    let signatures: RunRow["signatures"] = [];
    try {
      const params = runParams(run);
      embedding = params.embedding === null ? "none (text metrics)" : params.embedding.offline ? OFFLINE_LABEL : `${params.embedding.model} at ${params.embedding.url}`;
      signatures = params.specs.map((s) => ({ name: s.name, paramsKey: s.paramsKey }));
    } catch {
      embedding = "unreadable parameters";
    }
    return {
      id: run.id,
      metrics: run.metrics,
      status: run.status,
      done: run.done,
      total: run.total,
      error: run.error,
      createdAt: run.createdAt.toISOString(),
      startedAt: run.startedAt?.toISOString() ?? null,
      finishedAt: run.finishedAt?.toISOString() ?? null,
      createdBy: run.createdBy?.name ?? null,
      embedding,
      signatures,
    };
  });
}

export const isActive = (status: JobStatus) => status === "QUEUED" || status === "RUNNING";
