/** The worker's subscription to import jobs; their code loads with the first job (lib/jobs/work.ts). */
import type PgBoss from "pg-boss";
import { IMPORT_QUEUE } from "@/lib/jobs/queue";
import { workQueue } from "@/lib/jobs/work";

/** Uploads above CRJUDGE_IMPORT_INLINE_MB (./jobs.ts), one at a time: each holds a transaction and a core. */
export function workImportJobs(boss: PgBoss): Promise<string[]> {
  return workQueue<{ importJobId: string }>(boss, IMPORT_QUEUE, 1, async ([job]) => (await import("./jobs")).processImportJob(job.data.importJobId));
}
