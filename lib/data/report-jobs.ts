/** Report jobs (ReportJob rows, lib/analysis/report-jobs.ts): one per study, report kind, canonical options and state of the data. */
import "server-only";
import { db } from "@/lib/db/client";
import type { ReportJob } from "@/lib/generated/prisma/client";

/** What names a report job: its options as canonical JSON. */
export interface ReportJobKey {
  studyId: string;
  kind: string;
  options: string;
  fingerprint: string;
}

export function findReportJob(key: ReportJobKey): Promise<ReportJob | null> {
  return db.reportJob.findUnique({ where: { studyId_kind_options_fingerprint: key } });
}

/** The job of `key`, created QUEUED unless another process has just made it. */
export function createReportJob(key: ReportJobKey): Promise<ReportJob> {
  return db.reportJob.upsert({ where: { studyId_kind_options_fingerprint: key }, create: key, update: {} });
}

/** How long the latest computation of these options took (on an earlier state of the data), null when none finished. */
export async function lastReportComputeMs(key: Omit<ReportJobKey, "fingerprint">): Promise<number | null> {
  const previous = await db.reportJob.findFirst({ where: { ...key, status: "DONE" }, orderBy: { finishedAt: "desc" }, select: { computeMs: true } });
  return previous?.computeMs ?? null;
}

/** The job, marked RUNNING; null when it does not exist or is DONE. */
export async function startReportJob(reportJobId: string): Promise<ReportJob | null> {
  const job = await db.reportJob.findUnique({ where: { id: reportJobId } });
  if (!job || job.status === "DONE") return null;
  await db.reportJob.update({ where: { id: job.id }, data: { status: "RUNNING", startedAt: new Date(), error: null } });
  return job;
}

/** Stores the computed report and drops the older states' reports of the same options. */
export async function storeReport(job: ReportJob, report: unknown, computeMs: number): Promise<void> {
  // As JSON text that PostgreSQL parses: Prisma would round the numbers to 16 digits.
  await db.$executeRaw`
    UPDATE "ReportJob" SET status = 'DONE', report = ${JSON.stringify(report)}::jsonb, "computeMs" = ${Math.round(computeMs)}::int, "finishedAt" = now()
    WHERE id = ${job.id}`;
  await db.reportJob.deleteMany({ where: { studyId: job.studyId, kind: job.kind, options: job.options, id: { not: job.id }, status: { in: ["DONE", "FAILED"] } } });
}

export async function failReportJob(reportJobId: string, message: string): Promise<void> {
  await db.reportJob.update({ where: { id: reportJobId }, data: { status: "FAILED", error: message, finishedAt: new Date() } });
}
