/** The worker's subscription to matcher runs queued from the tools page; their code loads with the first job (lib/jobs/work.ts). */
import type PgBoss from "pg-boss";
import { MATCHER_QUEUE } from "@/lib/jobs/queue";
import { workQueue } from "@/lib/jobs/work";
import type { MatcherRunJobData } from "./run";

/** Matcher runs (./run.ts computeMatcherRun), one at a time. */
export function workMatcherRuns(boss: PgBoss): Promise<string[]> {
  return workQueue<MatcherRunJobData>(boss, MATCHER_QUEUE, 1, async ([job]) => (await import("./run")).computeMatcherRun(job.data.runId));
}
