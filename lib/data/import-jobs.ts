/** Import jobs (ImportJob rows with their files, lib/import/jobs.ts): stored uploads, their progress and outcome. */
import "server-only";
import { db, Prisma } from "@/lib/db/client";
import type { ImportJob, ImportJobFile, Account } from "@/lib/generated/prisma/client";

/** Stores an upload's files (role "file" or "context", in order) as a queued job; returns its id. */
export async function createImportJob(createdById: string, study: string, options: object, files: readonly { role: string; name: string; content: Uint8Array }[]): Promise<string> {
  const job = await db.importJob.create({
    data: {
      study,
      createdById,
      options: options as Prisma.InputJsonValue,
      files: { create: files.map(({ role, name, content }, position) => ({ role, position, name, content: Buffer.from(content) })) },
    },
    select: { id: true },
  });
  return job.id;
}

/** The job with its files and its creator, marked RUNNING; null when it does not exist or has ended. */
export async function startImportJob(importJobId: string): Promise<(ImportJob & { files: ImportJobFile[]; createdBy: Account }) | null> {
  const job = await db.importJob.findUnique({ where: { id: importJobId }, include: { files: { orderBy: { position: "asc" } }, createdBy: true } });
  if (!job || job.status === "DONE" || job.status === "FAILED") return null;
  await db.importJob.update({ where: { id: job.id }, data: { status: "RUNNING", startedAt: new Date(), progress: Prisma.DbNull } });
  return job;
}

export async function writeImportProgress(importJobId: string, progress: object): Promise<void> {
  await db.importJob.update({ where: { id: importJobId }, data: { progress: progress as Prisma.InputJsonValue } });
}

/** Stores the job's result or error and deletes its files, in one transaction. */
export async function finishImportJob(importJobId: string, outcome: { status: "DONE"; result: object } | { status: "FAILED"; error: string }): Promise<void> {
  await db.$transaction([
    db.importJob.update({
      where: { id: importJobId },
      data: outcome.status === "DONE" ? { status: "DONE", result: outcome.result as Prisma.InputJsonValue, finishedAt: new Date() } : { status: "FAILED", error: outcome.error, finishedAt: new Date() },
    }),
    db.importJobFile.deleteMany({ where: { jobId: importJobId } }),
  ]);
}

/** The job's state, when `createdById` started it (only they may follow it); null otherwise. */
export function importJobState(createdById: string, importJobId: string): Promise<Pick<ImportJob, "status" | "progress" | "result" | "error"> | null> {
  return db.importJob.findFirst({ where: { id: importJobId, createdById }, select: { status: true, progress: true, result: true, error: true } });
}
