/** Running metric jobs: a long-lived worker (scripts/worker.ts) or a CLI draining its own run. */
import { hostname } from "node:os";
import type PgBoss from "pg-boss";
import type { MetricRun } from "@/lib/generated/prisma/client";
import type { MetricJobContext } from "./context";
import { type ChunkRun, chunkRun, failMetricRun, requireMetricRun } from "@/lib/data/metric-runs";
import { announceMetricRun } from "@/lib/webhooks/send";
import { type ChunkInput, type ComputedChunk, processChunk, readChunk, scoreChunk, storeChunk } from "./process-chunk";
import type { ChunkJobData } from "./chunks";
import { METRIC_QUEUE } from "@/lib/jobs/queue";
import { AppError } from "@/lib/errors";

/** Which process computed a chunk: stored as the job's output (pgboss.job.output), so several workers' shares can be told apart. */
export interface ChunkJobOutput {
  worker: string;
  /** Reviews whose scores this execution computed and stored. */
  reviews: number;
}

const WORKER = `${hostname()}:${process.pid}`;

/** A chunk job failed: on its last attempt the whole run fails, with the message shown to the lead. */
async function chunkFailed(job: PgBoss.JobWithMetadata<ChunkJobData>, error: unknown): Promise<void> {
  if (job.retryCount < job.retryLimit) return;
  const message = `chunk ${job.data.chunk}: ${(error as Error).message}`;
  await announceMetricRun(await failMetricRun(job.data.runId, message), "FAILED", message);
}

/** Processes one job (a failure is recorded by chunkFailed and thrown again, for pg-boss to retry). */
export async function runChunkJob(context: MetricJobContext, job: PgBoss.JobWithMetadata<ChunkJobData>): Promise<ChunkJobOutput> {
  try {
    return { worker: WORKER, reviews: await processChunk(context, job.data) };
  } catch (error) {
    await chunkFailed(job, error);
    throw error;
  }
}

export interface DrainOptions {
  /** Called with the run after every chunk. */
  onProgress?: (run: MetricRun) => void;
  /** Stop after this many chunks (tests simulate a crash this way). */
  maxChunks?: number;
  /** Wait between polls while other workers hold the remaining chunks. Default 250 ms. */
  pollMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const finished = (run: Pick<MetricRun, "status">) => run.status === "DONE" || run.status === "FAILED";

/** A fetched job with the run's row read beside it, its chunk's input being read (none when the queue had no job for this process). */
interface Taken {
  run: ChunkRun | undefined;
  job?: PgBoss.JobWithMetadata<ChunkJobData>;
  input?: Promise<ChunkInput | null>;
}

/**
 * Works the metric queue in this process until run `runId` is done or failed (it may also
 * compute chunks of other runs found in the queue), and returns the run's final row.
 * Pipelined: while PostgreSQL stores a chunk's scores (its job completed after them), this
 * process computes the next one, whose job was fetched and whose reviews were read meanwhile,
 * so the database's work and the metric's overlap on two cores and this process does not wait
 * for a chunk's reads; one store at a time, and every chunk it took is stored or failed before
 * it returns. The run is read at the same time as the next job is fetched, and a chunk of this
 * run read with that row: each round trip to the database costs milliseconds on a loaded
 * machine (about 10 ms at load 7 on 2 cores), more than a chunk of a cheap metric takes to compute.
 */
export async function drainMetricRun(boss: PgBoss, context: MetricJobContext, runId: string, options: DrainOptions = {}): Promise<MetricRun> {
  let storing: Promise<void> | null = null;
  const settle = async () => {
    await storing;
    storing = null;
  };
  const store = async (job: PgBoss.JobWithMetadata<ChunkJobData>, computed: Promise<ComputedChunk | null>) => {
    try {
      const output: ChunkJobOutput = { worker: WORKER, reviews: await storeChunk(await computed) };
      await boss.complete(METRIC_QUEUE, job.id, output);
    } catch (error) {
      await chunkFailed(job, error);
      await boss.fail(METRIC_QUEUE, job.id, { message: (error as Error).message });
    }
    if (options.onProgress) options.onProgress(await requireMetricRun(runId));
  };
  // Once the run was seen done or failed, or maxChunks jobs were taken, no job is fetched any more.
  let fetching = true;
  let taken = 0;
  const fetches = () => fetching && (options.maxChunks === undefined || taken < options.maxChunks);
  const take = async (): Promise<Taken> => {
    const fetch = fetches();
    const [run, [job]] = await Promise.all([chunkRun(runId), fetch ? boss.fetch<ChunkJobData>(METRIC_QUEUE, { batchSize: 1, includeMetadata: true }) : []]);
    if (!job) return { run };
    taken++;
    const input = readChunk(job.data, job.data.runId === runId ? run : undefined);
    // A failed read fails the job when it is stored.
    input.catch(() => undefined);
    return { run, job, input };
  };
  let next = take();
  for (;;) {
    const { run, job, input } = await next;
    if (!run) throw new AppError("NOT_FOUND", { message: `metric run ${runId} does not exist` });
    if (finished(run)) fetching = false;
    if (!job || !input) {
      // The last chunks may be this process's own, still being stored.
      if (storing) await settle();
      else if (!fetches()) return requireMetricRun(runId);
      else await sleep(options.pollMs ?? 250);
      next = take();
      continue;
    }
    next = take();
    // The fetch's statements reach the socket through several promise steps, which would wait
    // behind a computation started now: a macrotask lets them go out first.
    await new Promise((resolve) => setImmediate(resolve));
    // A failed computation is handed to store, which fails the job in turn.
    const computed = input.then((read) => scoreChunk(context, read));
    await computed.catch(() => null);
    await settle();
    storing = store(job, computed);
  }
}
