/** The worker's subscription to judge runs started from a page; their code loads with the first job (lib/jobs/work.ts). */
import type PgBoss from "pg-boss";
import { JUDGE_QUEUE } from "@/lib/jobs/queue";
import { workQueue } from "@/lib/jobs/work";
import type { JudgeRunJobData } from "./run";

/** Judge runs (./run.ts runQueuedJudge), `concurrency` at a time; each run limits its own requests in flight. */
export function workJudgeRuns(boss: PgBoss, options: { concurrency?: number } = {}): Promise<string[]> {
  return workQueue<JudgeRunJobData>(boss, JUDGE_QUEUE, options.concurrency ?? 1, async ([job]) => (await import("./run")).runQueuedJudge(job.data.runId));
}
