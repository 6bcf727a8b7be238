/**
 * The metric worker's subscriptions to the job queues (scripts/worker.ts). The code of each kind
 * of job (metrics, judges, pseudo-references, reports, imports) and the Prisma client are loaded
 * when its first job arrives, not at the start: the worker is ready for jobs without them
 * (scripts/bench/cli-start.ts). Only pg-boss and this module load before.
 */
import type PgBoss from "pg-boss";
import type { PrismaClient } from "@/lib/db/client";
import type { PseudoReferenceJobData } from "@/lib/pseudo-refs";
import type { MetricJobContext } from "./context";
import { type ChunkJobData, IMPORT_QUEUE, METRIC_QUEUE, PSEUDO_REFERENCE_QUEUE, REPORT_QUEUE, STATIC_ANALYSIS_CHUNK, STATIC_ANALYSIS_QUEUE } from "./queue";

/** What every subscription takes: jobs computed at once (one per subscription), and the context of metric and pseudo-reference jobs (this process's default, made with the first such job, when absent). */
export interface WorkOptions {
  concurrency?: number;
  context?: MetricJobContext;
}

let processContext: Promise<MetricJobContext> | undefined;

function contextOf(options: WorkOptions): Promise<MetricJobContext> {
  if (options.context) return Promise.resolve(options.context);
  processContext ??= import("./context").then((module) => module.createJobContext());
  return processContext;
}

/**
 * Subscribes `concurrency` handlers to `queue`, up to `batchSize` jobs at a time each (one by
 * default). After a batch the next is fetched at once instead of after the polling interval,
 * which pg-boss would otherwise wait whenever a batch took less than that.
 */
async function workQueue<T extends object>(boss: PgBoss, queue: string, concurrency: number, handle: (jobs: PgBoss.JobWithMetadata<T>[]) => Promise<unknown>, batchSize = 1): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < concurrency; i++) {
    let id = "";
    id = await boss.work<T>(queue, { batchSize, includeMetadata: true, pollingIntervalSeconds: 1 }, async (jobs) => {
      try {
        return await handle(jobs);
      } finally {
        boss.notifyWorker(id);
      }
    });
    ids.push(id);
  }
  return ids;
}

/** Metric chunks (./worker.ts runChunkJob). */
export function workMetricChunks(boss: PgBoss, options: WorkOptions = {}): Promise<string[]> {
  return workQueue<ChunkJobData>(boss, METRIC_QUEUE, options.concurrency ?? 1, async ([job]) => (await import("./worker")).runChunkJob(await contextOf(options), job));
}

/**
 * LLM claims (one job at a time) and static analysis (STATIC_ANALYSIS_CHUNK jobs at a time) of
 * code changes (lib/pseudo-refs); each job of a batch is completed or failed on its own.
 */
export async function workPseudoReferenceJobs(boss: PgBoss, options: WorkOptions = {}): Promise<string[]> {
  const subscribe = (queue: string, batchSize: number) =>
    workQueue<PseudoReferenceJobData>(boss, queue, options.concurrency ?? 1, async (jobs) => (await import("@/lib/pseudo-refs/runs")).settlePseudoReferenceJobs(boss, await contextOf(options), queue, jobs), batchSize);
  return [...(await subscribe(PSEUDO_REFERENCE_QUEUE, 1)), ...(await subscribe(STATIC_ANALYSIS_QUEUE, STATIC_ANALYSIS_CHUNK))];
}

/** Dashboard reports with bootstrap CIs of big studies (./report-jobs.ts), one at a time. */
export function workReportJobs(boss: PgBoss, client?: PrismaClient): Promise<string[]> {
  return workQueue<{ reportJobId: string }>(boss, REPORT_QUEUE, 1, async ([job]) => (await import("./report-jobs")).processReportJob(job.data.reportJobId, client));
}

/** Uploads above CRJUDGE_IMPORT_INLINE_MB (./import-jobs.ts), one at a time: each holds a transaction and a core. */
export function workImportJobs(boss: PgBoss, client?: PrismaClient): Promise<string[]> {
  return workQueue<{ importJobId: string }>(boss, IMPORT_QUEUE, 1, async ([job]) => (await import("./import-jobs")).processImportJob(job.data.importJobId, client));
}
