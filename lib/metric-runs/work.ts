/**
 * The worker's subscription to metric chunks. Light on purpose: the metrics' code and the Prisma
 * client load with the first job (lib/jobs/work.ts).
 */
import type PgBoss from "pg-boss";
import { METRIC_QUEUE } from "@/lib/jobs/queue";
import { workQueue } from "@/lib/jobs/work";
import type { ChunkJobData } from "./chunks";
import type { MetricJobContext } from "./context";

/** What a subscription takes: jobs computed at once (one per subscription), and the context of metric and pseudo-reference jobs (this process's default, made with the first such job, when absent). */
export interface WorkOptions {
  concurrency?: number;
  context?: MetricJobContext;
}

let processContext: Promise<MetricJobContext> | undefined;

/** The options' context, else this process's, made once. */
export function contextOf(options: WorkOptions): Promise<MetricJobContext> {
  if (options.context) return Promise.resolve(options.context);
  processContext ??= import("./context").then((module) => module.createJobContext());
  return processContext;
}

/** Metric chunks (./drain.ts runChunkJob). */
export function workMetricChunks(boss: PgBoss, options: WorkOptions = {}): Promise<string[]> {
  return workQueue<ChunkJobData>(boss, METRIC_QUEUE, options.concurrency ?? 1, async ([job]) => (await import("./drain")).runChunkJob(await contextOf(options), job));
}
