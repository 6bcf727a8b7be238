/**
 * Dashboard reports with bootstrap CIs as jobs of the job queue. On a big study the CIs take seconds to
 * minutes of synchronous work (scripts/bench/analysis.ts measures it), which
 * would stall the web process and every annotator's save behind it. So the web process computes
 * only the point estimates (nResamples 0) and asks for the full report: a ReportJob row per
 * study, report kind, options and state of the data (lib/data/report-cache.ts
 * studyFingerprint), computed once by a worker (queue "report-jobs") and then served from the
 * database by every web process. Small studies, whose CIs take milliseconds, are computed in
 * place (REPORT_INLINE_LIMIT), so a product without a worker still shows them.
 */
import type { AgreementOptions, AgreementReport, ValidityOptions, ValidityReport } from "@/lib/analysis";
import { agreementReport, validityReport } from "@/lib/data/reports";
import { cachedAgreementReport, cachedValidityReport, sharedValiditySections } from "@/lib/data/report-cache";
import { createReportJob, failReportJob, findReportJob, lastReportComputeMs, startReportJob, storeReport } from "@/lib/data/report-jobs";
import { AppError } from "@/lib/errors";
import type { ReportJob } from "@/lib/generated/prisma/client";
import { jobDone } from "@/lib/jobs/events";
import { jobIdOf, REPORT_QUEUE, sendQueue } from "@/lib/jobs/queue";
import { env } from "@/lib/env";

export type ReportKind = "agreement" | "validity";

/** A report a job has computed and stored (announced to onReportDone's listeners). */
export interface ReportDone {
  studyId: string;
  kind: ReportKind;
}

type ReportOf<K extends ReportKind> = K extends "agreement" ? AgreementReport : ValidityReport;
type OptionsOf<K extends ReportKind> = K extends "agreement" ? AgreementOptions : ValidityOptions;

/**
 * Annotations (and, for validity, metric scores) up to which a report's CIs are computed in
 * the web process: about a second of bootstrap at most. CRJUDGE_REPORT_INLINE_LIMIT overrides.
 */
export function reportInlineLimit(): number {
  return env().CRJUDGE_REPORT_INLINE_LIMIT;
}

/** How many annotations and scores a fingerprint counts (each of its parts starts with a count). */
export function fingerprintSize(fingerprint: string): number {
  const parts = JSON.parse(fingerprint) as Record<string, string | null>;
  return ["judgements", "ratings", "grades", "filters", "scores"].reduce((n, key) => n + (Number.parseInt(parts[key] ?? "0", 10) || 0), 0);
}

/** Canonical JSON of options: keys sorted, so equal options make one job. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

export interface ReportJobState<K extends ReportKind> {
  status: "QUEUED" | "RUNNING" | "DONE" | "FAILED";
  /** The full report once DONE. */
  report: ReportOf<K> | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  /** How long the computation took (DONE), or the previous computation of these options, as an estimate. */
  computeMs: number | null;
}

function stateOf<K extends ReportKind>(job: ReportJob, estimateMs: number | null): ReportJobState<K> {
  return { status: job.status, report: job.report as unknown as ReportOf<K> | null, error: job.error, createdAt: job.createdAt, startedAt: job.startedAt, computeMs: job.computeMs ?? estimateMs };
}

/**
 * The full report of `kind` with `options` for the data's state `fingerprint`: from its job
 * when a worker computed it, else the job is created (once) and enqueued and its state
 * returned, so a page can show the point estimates and the progress.
 */
export async function requestReport<K extends ReportKind>(kind: K, studyId: string, options: OptionsOf<K>, fingerprint: string): Promise<ReportJobState<K>> {
  const key = { studyId, kind, options: canonical(options), fingerprint };
  let job = await findReportJob(key);
  if (!job) {
    job = await createReportJob(key);
    const boss = await sendQueue();
    await boss.insert([{ id: jobIdOf(`report:${job.id}`), name: REPORT_QUEUE, data: { reportJobId: job.id } }]);
  }
  if (job.status === "DONE") return stateOf(job, null);
  return stateOf(job, await lastReportComputeMs({ studyId, kind, options: key.options }));
}

/**
 * Computes one report job in this (worker) process and stores it; older states of the same report
 * are dropped. Its listeners learn of it (onReportDone): an agreement report may complete what a
 * calibration round's release rule waited for, and the next round is then released at once, not
 * on the next page load.
 */
export async function processReportJob(reportJobId: string): Promise<void> {
  const job = await startReportJob(reportJobId);
  if (!job) return;
  const t0 = performance.now();
  try {
    const options = JSON.parse(job.options) as object;
    const report =
      job.kind === "agreement"
        ? await agreementReport(job.studyId, options as AgreementOptions)
        : await validityReport(job.studyId, options as ValidityOptions, undefined, sharedValiditySections(job.studyId, options as ValidityOptions, job.fingerprint));
    await storeReport(job, report, performance.now() - t0);
  } catch (error) {
    await failReportJob(job.id, (error as Error).message);
    return;
  }
  // A closed calibration round's CIs may be what its release rule waited for: its listener
  // (lib/data/rounds releaseAfterReport, registered by the worker) releases the next round now.
  await jobDone<ReportDone>(REPORT_QUEUE, { studyId: job.studyId, kind: job.kind as ReportKind });
}


/** What a dashboard shows: the full report, or until the worker has computed it the point estimates and the job's state. */
export interface DashboardReport<K extends ReportKind> {
  report: ReportOf<K>;
  complete: boolean;
  job: ReportJobState<K> | null;
}

function cachedReport<K extends ReportKind>(kind: K, studyId: string, options: OptionsOf<K>, fingerprint: string): Promise<ReportOf<K>> {
  return (kind === "agreement" ? cachedAgreementReport(studyId, options as AgreementOptions, fingerprint) : cachedValidityReport(studyId, options as ValidityOptions, fingerprint)) as Promise<ReportOf<K>>;
}

/**
 * The report a dashboard page or route serves for the data's state `fingerprint`: computed in
 * place for small studies (fingerprintSize up to reportInlineLimit), else the worker's report
 * when done, or the point estimates (nResamples 0, computed here, cached) with the job's state.
 */
export async function dashboardReport<K extends ReportKind>(kind: K, studyId: string, options: OptionsOf<K>, fingerprint: string): Promise<DashboardReport<K>> {
  const noCis = options.bootstrap?.nResamples === 0;
  if (noCis || fingerprintSize(fingerprint) <= reportInlineLimit()) return { report: await cachedReport(kind, studyId, options, fingerprint), complete: true, job: null };
  const job = await requestReport(kind, studyId, options, fingerprint);
  if (job.status === "DONE" && job.report) return { report: job.report, complete: true, job };
  return { report: await cachedReport(kind, studyId, { ...options, bootstrap: { ...options.bootstrap, nResamples: 0 } }, fingerprint), complete: false, job };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits up to `timeoutMs` for the worker to finish the report (polling its row); null when it has not by then or failed. */
export async function waitForReport<K extends ReportKind>(kind: K, studyId: string, options: OptionsOf<K>, fingerprint: string, timeoutMs: number): Promise<ReportOf<K> | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await findReportJob({ studyId, kind, options: canonical(options), fingerprint });
    if (!job || job.status === "FAILED") return null;
    if (job.status === "DONE") return job.report as unknown as ReportOf<K>;
    if (Date.now() >= deadline) return null;
    await sleep(500);
  }
}

/** One line on a report job's progress for the page. */
export function reportJobNote(job: ReportJobState<ReportKind>, now = Date.now()): string {
  const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;
  const estimate = job.computeMs !== null ? ` The last computation of this report took ${seconds(job.computeMs)}.` : "";
  if (job.status === "FAILED") return `Computing the confidence intervals failed: ${job.error ?? "unknown error"}.`;
  if (job.status === "RUNNING" && job.startedAt) return `Computing bootstrap confidence intervals in the worker: started ${seconds(now - job.startedAt.getTime())} ago.${estimate}`;
  const waiting = now - job.createdAt.getTime();
  return `Bootstrap confidence intervals queued for the worker ${seconds(waiting)} ago.${estimate}${waiting > 20_000 ? " No worker seems to be running: npm start runs one, npm run worker starts another." : ""}`;
}

/**
 * The full report for a JSON route: computed in place for small studies, else the worker's,
 * waited for up to `waitMs`; while it is still computing, UNAVAILABLE (503) with Retry-After and
 * the job's progress, so clients poll instead of holding the web process.
 */
export async function routeReport<K extends ReportKind>(kind: K, studyId: string, options: OptionsOf<K>, fingerprint: string, waitMs = 25_000): Promise<ReportOf<K>> {
  const shown = await dashboardReport(kind, studyId, options, fingerprint);
  if (shown.complete || !shown.job) return shown.report;
  if (shown.job.status === "FAILED") throw new AppError("INTERNAL", { message: reportJobNote(shown.job), userMessage: "Computing this report failed; see the worker's log." });
  const report = await waitForReport(kind, studyId, options, fingerprint, waitMs);
  if (report) return report;
  throw new AppError("UNAVAILABLE", { message: reportJobNote(shown.job), retryAfterSeconds: 10, details: { status: shown.job.status } });
}
