/**
 * Importing study data: parse every file into a bundle (pure parsers, all errors
 * collected, up to 50 reported at once), then write all bundles in ONE transaction, so an
 * import either happens completely or not at all.
 *
 * Entry points for the CLI and the upload page:
 * - `previewImport(request)`: what the import would create, update and leave unchanged, or
 *   every error; runs the whole import in a transaction that is rolled back.
 * - `runImport(request)`: the import itself; records an ImportRun with the summary.
 */
import { findOrCreateStudy, findStudy, type FoundStudy } from "@/lib/data/studies";
import { studySlugSchema } from "@/lib/validation/study-fields";
import { requireImportTarget, type StudyUser } from "@/lib/data/study-access";
import { db, transactionConnection, type Prisma, type PrismaClient } from "@/lib/db/client";
import type { TaskType } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";
import type { StudyScales } from "@/lib/analysis/questions";
import type { StudyBundle } from "./bundle";
import { ErrorCollector, inFileOrder, type ImportError } from "./errors";
import { checkDiffs } from "./diffs";
import type { ImportFile } from "./file";
import type { ImportFormat } from "./formats";
import { DEFAULT_LIKERT, type ContextFiles, type LikertScale } from "./parser";
import { PARSERS } from "./parsers";
import { leaveOutFaultyRows, unskippable } from "./skip-rows";
import { TABLES, type ImportCounts, type Table, type TableCounts } from "./plan";
import { writeBundle } from "./write-bundle";
import { analyzeChangedTables } from "./analyze";
import { storedPullRequests, writePullRequests, type PullRequestRows } from "@/lib/data/pull-requests";
import { checkPullRequestComments, parsePullRequestImport, type PullRequestImportOptions } from "./pull-request";

export { IMPORT_FORMATS, isImportFormat, type ImportFormat } from "./formats";
export { formatImportError, formatImportErrors, MAX_REPORTED_ERRORS, type ImportError } from "./errors";
export type { ImportFile } from "./file";
export type { ContextFiles } from "./parser";
export type { ImportCounts } from "./plan";
export { COMMENTS_FORMATS, type CommentsFormat, type PullRequestImportOptions } from "./pull-request";

/** Interactive transactions of big imports run for minutes (100,000 reviews: see scripts/bench/import.ts). */
const TRANSACTION_TIMEOUT_MS = 30 * 60_000;

export interface ImportProgress {
  phase: "parse" | "write";
  file: string;
  done: number;
  total: number;
}

export interface ImportRequest {
  /** Slug of the study; created when it does not exist. */
  study: string;
  format: ImportFormat;
  files: readonly ImportFile[];
  /** Annotator of a CRScore sheet (else from its file name) or of GradedReviews grades. */
  annotator?: string;
  /** CRScore context files (`test{index}_{old,new}.py`) by name. */
  context?: ContextFiles;
  /** Overwrite stored values that the files contradict instead of refusing the import. */
  update?: boolean;
  /** Import the valid rows and leave out the faulty ones (listed in the summary) instead of refusing the import. */
  skipInvalidRows?: boolean;
  /** The annotator's judgements are primary: Table 1 takes them over another annotator's of the same claim (lib/claims/verdict.ts). */
  primary?: boolean;
  /** Format `pull-request`: a pull request read from git (the files are then its comments files), and how comments are read. */
  pullRequest?: PullRequestImportOptions;
  createdById?: string | null;
  /** The signed-in user of a web import: only into a study they lead, or a new one (the CLI's operator imports anywhere). */
  importer?: StudyUser;
  onProgress?: (progress: ImportProgress) => void;
}


export interface ImportSummary {
  study: { id: string; slug: string; created: boolean; enabledTaskTypes: TaskType[] };
  format: ImportFormat;
  files: string[];
  annotators: string[];
  counts: ImportCounts;
  warnings: string[];
  /** Code changes told apart although they share a CodeReviewer id, and where. */
  separatedChanges: string[];
  /** Claims matched to the study's claims by normalized text, with the normalizations relied on. */
  claimNormalizations: string[];
  /** With skipInvalidRows: every faulty row left out, with file, row or line, field and reason. */
  skippedRows: ImportError[];
  /** The ImportRun recording this import (null for a preview). */
  importRunId: string | null;
}

export type ImportResult =
  | { status: "imported" | "preview"; summary: ImportSummary }
  | { status: "refused"; errors: ImportError[]; totalErrors: number; warnings: string[] };

interface ParsedFile {
  file: string;
  bundle: StudyBundle;
  contextNotGiven: boolean;
}

/** The study's Likert scale, or the default one for a study the import will create. */
function likertOf(study: StudyScales | null): LikertScale {
  return study ? { dimensions: study.likertDimensions, min: study.likertMin, max: study.likertMax } : DEFAULT_LIKERT;
}

/** Parses every file (nothing is written); errors of all files are collected together. */
export async function parseImportFiles(request: ImportRequest, likert: LikertScale, errors: ErrorCollector): Promise<{ parsed: ParsedFile[]; warnings: string[]; separatedChanges: string[] }> {
  const parsed: ParsedFile[] = [];
  const warnings: string[] = [];
  const separatedChanges: string[] = [];
  if (request.format === "pull-request") return { parsed, warnings, separatedChanges };
  for (const [i, file] of request.files.entries()) {
    if (errors.full && !request.skipInvalidRows) break;
    request.onProgress?.({ phase: "parse", file: file.name, done: i, total: request.files.length });
    const result = await PARSERS[request.format](file, { annotator: request.annotator, context: request.context, likert }, errors);
    parsed.push({ file: file.name, bundle: result.bundle, contextNotGiven: result.contextNotGiven ?? false });
    warnings.push(...result.warnings, ...checkDiffs(result.bundle, errors));
    separatedChanges.push(...(result.separatedChanges ?? []));
  }
  return { parsed, warnings, separatedChanges };
}

function emptyCounts(): ImportCounts {
  return { ...(Object.fromEntries(TABLES.map((t) => [t, { created: 0, updated: 0, unchanged: 0 }])) as Record<Table, TableCounts>), reviewComments: { created: 0, updated: 0, unchanged: 0 }, reviewClaimLinks: { created: 0 }, annotationHistory: { created: 0 } };
}

function addCounts(total: ImportCounts, plan: { counts: Record<Table, TableCounts>; creates: { reviewClaimLinks: unknown[]; annotationHistory: unknown[] } }): void {
  for (const table of TABLES) {
    for (const key of ["created", "updated", "unchanged"] as const) total[table][key] += plan.counts[table][key];
  }
  total.reviewClaimLinks.created += plan.creates.reviewClaimLinks.length;
  total.annotationHistory.created += plan.creates.annotationHistory.length;
}

/**
 * The changes a file without its context files leaves without old and new file; none when the
 * study had them already (a phase-2 sheet after the phase-1 import that brought them).
 */
export function withoutFilesWarning(file: string, changes: readonly string[]): string {
  const shown = changes.slice(0, 5).join(", ") + (changes.length > 5 ? `, and ${changes.length - 5} more` : "");
  const count = changes.length === 1 ? "1 code change has" : `${changes.length} code changes have`;
  return `${file}: ${count} no old and new file (${shown}): no context files were given and the study has none for them, so the workspace shows only their diffs and static analysis skips them. Import again with the context files (test{index}_old.py and _new.py) to add them.`;
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

  const taskTypes = [...new Set(parsed.flatMap((p) => p.bundle.taskTypes))];
  try {
    return await client.$transaction(
      async (tx) => {
        const found: FoundStudy = await findOrCreateStudy({ slug: slug.data, taskTypes, createdById: request.createdById, importer: request.importer }, tx);
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
          study: { id: found.study.id, slug: found.study.slug, created: found.created, enabledTaskTypes: found.enabledTaskTypes },
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
