/** A metric run's jobs on the queue: one per chunk of its reviews. */
import type PgBoss from "pg-boss";
import { jobIdOf, METRIC_QUEUE, replaceJobs } from "@/lib/jobs/queue";

export interface ChunkJobData {
  runId: string;
  chunk: number;
  reviewIds: string[];
  /**
   * None of the chunk's scores was stored when the run was planned: the chunk computes without
   * reading which are (a statement per chunk less), and its store falls back should some have
   * been stored since (runs.ts storeChunkScores).
   */
  fresh?: boolean;
}

/** A UUID fixed by (run, chunk), so enqueueing a chunk again never duplicates it. */
export const chunkJobId = (runId: string, chunk: number) => jobIdOf(`${runId}:${chunk}`);

/** Enqueues chunks, replacing any job of the same chunk left by an earlier attempt. */
export function enqueueChunks(boss: PgBoss, chunks: readonly ChunkJobData[]): Promise<void> {
  return replaceJobs(
    boss,
    METRIC_QUEUE,
    chunks.map((data) => ({ id: chunkJobId(data.runId, data.chunk), data })),
  );
}
