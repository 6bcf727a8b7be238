/**
 * Metric runs from the web pages and routes. Pages only plan and enqueue a run
 * (requestMetricRun); the metric worker computes it (scripts/worker.ts, which `npm start`
 * runs next to the web server), and the page follows its MetricRun row. A run whose chunks no
 * worker picks up stays QUEUED, and the page says how to start one.
 */
import { z } from "zod";
import { resolveEmbeddingConfig } from "@/lib/embeddings";
import type { JobStatus } from "@/lib/generated/prisma/enums";
import { createJobContext } from "./context";
import { listMetricRuns, requestMetricRun, type StartedRun } from "./runs";

export const startRunSchema = z.object({
  metrics: z.array(z.string().trim().min(1)).min(1, "Choose at least one metric."),
  /** CRScore threshold; default the paper's for its model, else calibrated by its procedure (lib/metric-runs/tau.ts). */
  tau: z.number().gt(0).max(1).optional(),
  tauCalibration: z.enum(["best-system", "gt"]).optional(),
  tauSystem: z.string().trim().min(1).max(200).optional(),
  /** Reviews per job. */
  chunkSize: z.number().int().min(1).max(10_000).optional(),
});

/** Plans and enqueues a run (or resumes the same unfinished one) for the worker. */
export async function startWebMetricRun(studyId: string, request: z.infer<typeof startRunSchema>, accountId: string): Promise<StartedRun> {
  return requestMetricRun(createJobContext(), studyId, { metrics: request.metrics, tau: request.tau, tauCalibration: request.tauCalibration, tauSystem: request.tauSystem, chunkSize: request.chunkSize }, accountId);
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
  embedding: string;
}

/** The study's runs (or the one with `id`), newest first, as plain JSON. */
export async function listRuns(studyId: string, options: { id?: string } = {}): Promise<RunRow[]> {
  const runs = await listMetricRuns(studyId);
  return runs
    .filter((run) => options.id === undefined || run.id === options.id)
    .map((run) => ({
      id: run.id,
      metrics: run.metrics,
      status: run.status,
      done: run.done,
      total: run.total,
      error: run.error,
      createdAt: run.createdAt.toISOString(),
      startedAt: run.startedAt?.toISOString() ?? null,
      finishedAt: run.finishedAt?.toISOString() ?? null,
      embedding: run.embedding === null ? "none (text metrics)" : run.embedding.offline ? OFFLINE_LABEL : run.embedding.model,
    }));
}

export const isActive = (status: JobStatus) => status === "QUEUED" || status === "RUNNING";

/** A run queued this long without a single chunk done suggests that no worker is running. */
export const WORKER_HINT_AFTER_MS = 20_000;

/** Whether a run has waited so long for its first chunk that the page should mention the worker. */
export function waitingForWorker(runs: readonly RunRow[], now = Date.now()): boolean {
  return runs.some((r) => r.status === "QUEUED" && r.done < r.total && now - Date.parse(r.createdAt) > WORKER_HINT_AFTER_MS);
}
