/** The worker's subscriptions to pseudo-reference jobs; their code loads with the first job (lib/jobs/work.ts). */
import type PgBoss from "pg-boss";
import { workQueue } from "@/lib/jobs/work";
import { contextOf, type WorkOptions } from "@/lib/metric-runs/work";
import { type PseudoReferenceJobData, SOURCE_QUEUES } from "./queues";

/** LLM claims (one job at a time) and static analysis (in chunks) of code changes (SOURCE_QUEUES); each job of a batch is completed or failed on its own. */
export async function workPseudoReferenceJobs(boss: PgBoss, options: WorkOptions = {}): Promise<string[]> {
  const ids: string[] = [];
  for (const { queue, chunk } of [SOURCE_QUEUES.claims, SOURCE_QUEUES.smells]) {
    ids.push(...(await workQueue<PseudoReferenceJobData>(boss, queue, options.concurrency ?? 1, async (jobs) => (await import("./runs")).settlePseudoReferenceJobs(boss, await contextOf(options), queue, jobs), chunk)));
  }
  return ids;
}
