/**
 * Importing study data: parse every file into a bundle (pure parsers, all errors
 * collected, up to 50 reported at once), then write all bundles in ONE transaction, so an
 * import either happens completely or not at all (lib/data/imports.ts).
 *
 * Entry points for the CLI and the upload page, in lib/data/imports.ts:
 * - `previewImport(request)`: what the import would create, update and leave unchanged, or
 *   every error; runs the whole import in a transaction that is rolled back.
 * - `runImport(request)`: the import itself; records an ImportRun with the summary.
 */
import type { TaskType } from "@/lib/generated/prisma/client";
import type { StudyBundle } from "./bundle";
import { ErrorCollector, type ImportError } from "./errors";
import { checkDiffs } from "./diffs";
import type { ImportFile } from "./file";
import type { ImportFormat } from "./formats";
import type { ContextFiles, LikertScale } from "./parser";
import { PARSERS } from "./parsers";
import { TABLES, type ImportCounts, type Table, type TableCounts } from "./plan";
import type { PullRequestImportOptions } from "./pull-request";
import type { SessionAccount } from "@/lib/auth/authenticate";

export { IMPORT_FORMATS, isImportFormat, type ImportFormat } from "./formats";
export { formatImportError, formatImportErrors, MAX_REPORTED_ERRORS, type ImportError } from "./errors";
export type { ImportFile } from "./file";
export type { ContextFiles } from "./parser";
export type { ImportCounts } from "./plan";
export { COMMENTS_FORMATS, type CommentsFormat, type PullRequestImportOptions } from "./pull-request";

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
  /** The signed-in account of a web import: only into a study they lead, or a new one (the CLI's operator imports anywhere). */
  importer?: Pick<SessionAccount, "id" | "role">;
  onProgress?: (progress: ImportProgress) => void;
}


export interface ImportSummary {
  study: { id: string; slug: string; created: boolean; enabledTasks: TaskType[] };
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

export interface ParsedFile {
  file: string;
  bundle: StudyBundle;
  contextNotGiven: boolean;
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

export function emptyCounts(): ImportCounts {
  return { ...(Object.fromEntries(TABLES.map((t) => [t, { created: 0, updated: 0, unchanged: 0 }])) as Record<Table, TableCounts>), reviewComments: { created: 0, updated: 0, unchanged: 0 }, reviewClaimLinks: { created: 0 }, annotationHistory: { created: 0 } };
}

export function addCounts(total: ImportCounts, plan: { counts: Record<Table, TableCounts>; creates: { reviewClaimLinks: unknown[]; annotationHistory: unknown[] } }): void {
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
