/**
 * Imports run: every file parsed (lib/import), then all bundles written in ONE transaction
 * (lib/data/import-writer.ts), so an import either happens completely or not at all.
 */
import "server-only";
import { db, transactionConnection, type Prisma, type PrismaClient } from "@/lib/db/client";
import { storedPullRequests, writePullRequests, type PullRequestRows } from "@/lib/data/pull-requests";
import { findOrCreateStudy, findStudy, type FoundStudy } from "@/lib/data/studies";
import { requireImportTarget } from "@/lib/data/study-access";
import { analyzeChangedTables, writeBundle } from "@/lib/data/import-writer";
import type { StudyScales } from "@/lib/analysis/questions";
import { AppError } from "@/lib/errors";
import { addCounts, emptyCounts, type ImportError, type ImportRequest, type ImportResult, type ImportSummary, parseImportFiles, withoutFilesWarning } from "@/lib/import";
import { ErrorCollector, inFileOrder } from "@/lib/import/errors";
import { DEFAULT_LIKERT, type LikertScale } from "@/lib/import/parser";
import { checkPullRequestComments, parsePullRequestImport } from "@/lib/import/pull-request";
import { leaveOutFaultyRows, unskippable } from "@/lib/import/skip-rows";
import { studySlugSchema } from "@/lib/validation/study-fields";

/** Interactive transactions of big imports run for minutes (100,000 reviews: see scripts/bench/import.ts). */
const TRANSACTION_TIMEOUT_MS = 30 * 60_000;

/** The study's Likert scale, or the default one for a study the import will create. */
function likertOf(study: StudyScales | null): LikertScale {
  return study ? { dimensions: study.likertDimensions, min: study.likertMin, max: study.likertMax } : DEFAULT_LIKERT;
}

/**
 * The pull requests of a `pull-request` import with their comments checked against their files
 * and against the comments the study holds (a reply may answer one); a git or file problem is an
 * error of the import (nothing to skip).
 */
async function parsePullRequests(request: ImportRequest, slug: string, client: PrismaClient, errors: ErrorCollector, warnings: string[]): Promise<PullRequestRows[]> {
  try {
    const read = await parsePullRequestImport(request.files, request.pullRequest ?? {}, errors);
    warnings.push(...read.warnings);
    const stored = await storedPullRequests(slug, read.parsed.map((p) => p.pullRequest.externalId), client);
    const checked = checkPullRequestComments(read.parsed, stored, errors);
    warnings.push(...checked.warnings);
    return checked.rows;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    errors.add({ file: request.pullRequest?.git?.repo ?? "(import)" }, undefined, error.message);
    return [];
  }
}

/** Thrown inside the transaction to roll it back with a result. */
class Rollback extends Error {
  constructor(readonly result: ImportResult) {
    super("rollback");
  }
}

const requestError = (field: string, message: string): ImportResult => ({ status: "refused", errors: [{ file: "(import)", field, message }], totalErrors: 1, warnings: [] });

async function importFiles(request: ImportRequest, client: PrismaClient, dryRun: boolean): Promise<ImportResult> {
  const slug = studySlugSchema.safeParse(request.study);
  if (!slug.success) return requestError("study", slug.error.issues[0].message);
  if (request.files.length === 0 && !request.pullRequest?.git) return requestError("files", "no files to import");
  if (request.importer) await requireImportTarget(request.importer, slug.data, client);
  const errors = new ErrorCollector();
  const { parsed, warnings, separatedChanges } = await parseImportFiles(request, likertOf(await findStudy({ slug: slug.data }, client)), errors);
  const pullRequests = request.format === "pull-request" ? await parsePullRequests(request, slug.data, client, errors, warnings) : [];
  const skippedRows: ImportError[] = [];
  const fileNames = request.pullRequest?.git ? [request.pullRequest.git.repo, ...request.files.map((f) => f.name)] : request.files.map((f) => f.name);
  if (!errors.empty) {
    if (!request.skipInvalidRows || errors.all.some(unskippable)) return { status: "refused", errors: inFileOrder(errors.errors, fileNames), totalErrors: errors.total, warnings };
    for (const entry of parsed) {
      const kept = leaveOutFaultyRows(entry.bundle, errors.all.filter((e) => e.file === entry.file));
      entry.bundle = kept.bundle;
      skippedRows.push(...kept.cascaded);
    }
    skippedRows.unshift(...inFileOrder(errors.all, fileNames));
  }

  const tasks = [...new Set(parsed.flatMap((p) => p.bundle.tasks))];
  try {
    return await client.$transaction(
      async (tx) => {
        const found: FoundStudy = await findOrCreateStudy({ slug: slug.data, tasks, ownerId: request.createdById, importer: request.importer }, tx);
        // Imports into one study run one after the other: each plans against the rows the previous one wrote.
        await tx.$queryRaw`SELECT id FROM "Study" WHERE id = ${found.study.id} FOR UPDATE`;
        const connection = await transactionConnection(client, tx);
        const counts = emptyCounts();
        const annotators = new Set<string>();
        const conflicts = new ErrorCollector();
        const claimNormalizations: string[] = [];
        // Created first so that every annotation written can name it; the summary follows.
        const run = await tx.importRun.create({ data: { studyId: found.study.id, format: request.format, files: fileNames, createdById: request.createdById ?? null, primary: request.primary ?? false } });
        for (const { file, bundle, contextNotGiven } of parsed) {
          const onProgress = request.onProgress && ((p: { done: number; total: number }) => request.onProgress?.({ phase: "write", file, ...p }));
          const result = await writeBundle(tx, bundle, { studyId: found.study.id, connection, update: request.update ?? false, onProgress, provenance: { importRunId: run.id, file } });
          result.plan.conflicts.forEach((c) => conflicts.add(c, c.field, c.message));
          addCounts(counts, result.plan);
          separatedChanges.push(...result.plan.separatedChanges);
          claimNormalizations.push(...result.plan.claimNormalizations);
          if (contextNotGiven && result.plan.withoutFiles.length > 0) warnings.push(withoutFilesWarning(file, result.plan.withoutFiles));
          result.annotators.forEach((a) => annotators.add(a));
        }
        if (pullRequests.length > 0) {
          const written = await writePullRequests(tx, found.study.id, pullRequests, { update: request.update ?? false });
          written.conflicts.forEach((c) => conflicts.add(c, c.field, c.message));
          for (const table of ["pullRequests", "codeChanges", "reviewComments"] as const) {
            for (const key of ["created", "updated", "unchanged"] as const) counts[table][key] += written.counts[table][key];
          }
        }
        if (!conflicts.empty) throw new Rollback({ status: "refused", errors: conflicts.errors, totalErrors: conflicts.total, warnings });
        const summary: ImportSummary = {
          study: { id: found.study.id, slug: found.study.slug, created: found.created, enabledTasks: found.enabledTasks },
          format: request.format,
          files: fileNames,
          annotators: [...annotators],
          counts,
          warnings,
          separatedChanges,
          claimNormalizations,
          skippedRows,
          importRunId: null,
        };
        if (dryRun) throw new Rollback({ status: "preview", summary });
        await tx.importRun.update({ where: { id: run.id }, data: { summary: JSON.parse(JSON.stringify(summary)) as Prisma.InputJsonObject } });
        return { status: "imported" as const, summary: { ...summary, importRunId: run.id } };
      },
      { timeout: TRANSACTION_TIMEOUT_MS, maxWait: 60_000 },
    );
  } catch (error) {
    if (error instanceof Rollback) return error.result;
    throw error;
  }
}

/**
 * Imports the files in one transaction; refused (nothing written) on any error or conflict. The
 * tables a large import changed are analyzed after the commit (./analyze.ts).
 */
export async function runImport(request: ImportRequest, client: PrismaClient = db): Promise<ImportResult> {
  const result = await importFiles(request, client, false);
  if (result.status === "imported") await analyzeChangedTables(client, result.summary.counts);
  return result;
}

/** What `runImport` would do, without writing anything (the transaction is rolled back). */
export function previewImport(request: ImportRequest, client: PrismaClient = db): Promise<ImportResult> {
  return importFiles(request, client, true);
}
