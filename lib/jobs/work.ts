/**
 * Working a queue: a domain subscribes its handler to its queue (lib/metric-runs/work.ts,
 * lib/pseudo-refs/work.ts, lib/analysis/report-work.ts, lib/import/work.ts) and the worker's
 * entry (scripts/worker.ts) gathers those subscriptions. A domain's handler loads its code and the
 * Prisma client when its first job arrives, not at the start: the worker is ready for jobs
 * without them (scripts/bench/cli-start.ts).
 */
import type PgBoss from "pg-boss";

/**
 * Subscribes `concurrency` handlers to `queue`, up to `batchSize` jobs at a time each (one by
 * default). After a batch the next is fetched at once instead of after the polling interval,
 * which pg-boss would otherwise wait whenever a batch took less than that.
 */
export async function workQueue<T extends object>(boss: PgBoss, queue: string, concurrency: number, handle: (jobs: PgBoss.JobWithMetadata<T>[]) => Promise<unknown>, batchSize = 1): Promise<string[]> {
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
