/**
 * Large upload imports as worker jobs, off the web process. Parsing a
 * big workbook and writing its rows in one transaction takes seconds to minutes of CPU, which
 * in the web process would stall every annotator's save behind it. Uploads above
 * CRJUDGE_IMPORT_INLINE_MB are stored in PostgreSQL (ImportJob + ImportJobFile), imported by
 * a worker (queue "import-jobs", any machine of a scale-out), and the upload's answer follows
 * the job's progress in the database. Smaller uploads are imported in place, so a product
 * without a worker still imports them.
 */
import type { SessionAccount } from "@/lib/auth/authenticate";
import { createImportJob, finishImportJob, importJobState, startImportJob, writeImportProgress } from "@/lib/data/import-jobs";
import { AppError, publicError } from "@/lib/errors";
import { type ImportFile, type ImportFormat, type ImportProgress, type ImportResult } from "@/lib/import";
import { previewImport, runImport } from "@/lib/data/imports";
import { decodeUtf8 } from "@/lib/import/text";
import { IMPORT_QUEUE, jobIdOf, sendQueue } from "@/lib/jobs/queue";
import { announceImport } from "@/lib/webhooks/send";
import { env, type Env } from "@/lib/env";

const MIB = 1024 * 1024;

/** Upload size (all files) up to which an import runs in the web process. CRJUDGE_IMPORT_INLINE_MB overrides (0: always a job). */
export function importInlineBytes(config: Pick<Env, "CRJUDGE_IMPORT_INLINE_MB"> = env()): number {
  return Math.round(config.CRJUDGE_IMPORT_INLINE_MB * MIB);
}

export interface ImportJobOptions {
  format: ImportFormat;
  annotator?: string;
  update: boolean;
  skipInvalidRows: boolean;
  /** The annotator's judgements are primary for Table 1 (lib/claims/verdict.ts). */
  primary: boolean;
  dryRun: boolean;
}

/** One line of the upload's answer (NDJSON), whether the import runs in place or in a worker. */
export type ImportEvent = { progress: ImportProgress } | { result: ImportResult } | { error: string };

/** Stores the upload as a job and enqueues it; answers the job's id. */
export async function enqueueImport(account: SessionAccount, study: string, options: ImportJobOptions, files: readonly ImportFile[], context: readonly ImportFile[]): Promise<string> {
  const rows = [...files.map((f) => ({ role: "file", name: f.name, content: f.content })), ...context.map((f) => ({ role: "context", name: f.name, content: f.content }))];
  const jobId = await createImportJob(account.id, study, options, rows);
  const boss = await sendQueue();
  await boss.insert([{ id: jobIdOf(`import:${jobId}`), name: IMPORT_QUEUE, data: { importJobId: jobId } }]);
  return jobId;
}

/** Progress is written at most this often (each write is a row update). */
const PROGRESS_EVERY_MS = 500;

/** Imports one job in this (worker) process and stores its result or its error; its files are deleted afterwards. */
export async function processImportJob(importJobId: string): Promise<void> {
  const job = await startImportJob(importJobId);
  if (!job) return;
  const options = job.options as unknown as ImportJobOptions;
  const fileOf = (role: string) => job.files.filter((f) => f.role === role).map((f) => ({ name: f.name, content: new Uint8Array(f.content) }));
  // The upload route refused context files that are not UTF-8 before storing them.
  const context = new Map(fileOf("context").flatMap((f) => { const decoded = decodeUtf8(f.content); return decoded.ok ? [[f.name, decoded.text] as const] : []; }));
  let lastWrite = 0;
  let writing: Promise<unknown> = Promise.resolve();
  const onProgress = (progress: ImportProgress) => {
    const now = Date.now();
    if (now - lastWrite < PROGRESS_EVERY_MS) return;
    lastWrite = now;
    writing = writing.then(() => writeImportProgress(job.id, progress)).catch(() => undefined);
  };
  const importer = { id: job.createdBy.id, email: job.createdBy.email, name: job.createdBy.name, role: job.createdBy.role };
  const request = { study: job.study, format: options.format, files: fileOf("file"), annotator: options.annotator, context, update: options.update, skipInvalidRows: options.skipInvalidRows, primary: options.primary, createdById: importer.id, importer, onProgress };
  let outcome: { status: "DONE"; result: ImportResult } | { status: "FAILED"; error: string };
  try {
    outcome = { status: "DONE", result: await (options.dryRun ? previewImport(request) : runImport(request)) };
    await announceImport(job.study, outcome.result);
  } catch (error) {
    outcome = { status: "FAILED", error: publicError(error).userMessage };
  }
  await writing;
  await finishImportJob(job.id, outcome);
}


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The job's progress as it changes, then its result or error: what the upload's answer streams.
 * Only the lead who started the job may follow it. Stops when `signal` aborts (the browser left;
 * the job goes on).
 */
export async function* followImportJob(account: Pick<SessionAccount, "id">, importJobId: string, signal: AbortSignal, pollMs = 500): AsyncGenerator<ImportEvent> {
  let shown = "";
  while (!signal.aborted) {
    const job = await importJobState(account.id, importJobId);
    if (!job) throw new AppError("NOT_FOUND", { message: "No such import job of yours." });
    if (job.status === "DONE") return yield { result: job.result as unknown as ImportResult };
    if (job.status === "FAILED") return yield { error: job.error ?? "The import failed." };
    const progress = JSON.stringify(job.progress);
    if (job.progress && progress !== shown) {
      shown = progress;
      yield { progress: job.progress as unknown as ImportProgress };
    }
    await sleep(pollMs);
  }
}
