/** Report jobs on the job queue: the worker's subscription and the event of a finished report; their code loads with the first job (lib/jobs/work.ts). */
import type PgBoss from "pg-boss";
import { onJobDone } from "@/lib/jobs/events";
import { REPORT_QUEUE } from "@/lib/jobs/queue";
import { workQueue } from "@/lib/jobs/work";
import type { ReportDone } from "./report-jobs";

/** Dashboard reports with bootstrap CIs of big studies (./report-jobs.ts), one at a time. */
export function workReportJobs(boss: PgBoss): Promise<string[]> {
  return workQueue<{ reportJobId: string }>(boss, REPORT_QUEUE, 1, async ([job]) => (await import("./report-jobs")).processReportJob(job.data.reportJobId));
}

/** Calls `listener` after each report this process computes (processReportJob); returns its removal. */
export const onReportDone = (listener: (report: ReportDone) => Promise<void> | void) => onJobDone<ReportDone>(REPORT_QUEUE, listener);
