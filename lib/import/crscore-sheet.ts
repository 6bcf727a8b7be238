/**
 * The layout shared by the CRScore annotation sheets (CRScore §4.1-4.2; data README): one code
 * change spans a block of consecutive rows; only the block's first row carries `id`
 * (CodeReviewer record id), `index` (line of the CodeReviewer test file), `diff`, `old_file`
 * and `new_file`. Context files are `test{index}_{old,new}.py`, read from a folder.
 */
import type { AnnotatorRef, CodeChangeInput } from "./bundle";
import { readCsv } from "./csv";
import type { ErrorCollector } from "./errors";
import type { ImportFile } from "./file";
import type { TaskType } from "@/lib/generated/prisma/enums";
import type { ContextFiles, ParseOptions, ParseResult } from "./parser";
import { cell, findColumns, rowLocation, type ColumnSpec, type Sheet, type SheetRow } from "./sheet";
import { integerId } from "./text";

export const CHANGE_COLUMNS = {
  id: { name: "id" },
  index: { name: "index" },
  diff: { name: "diff" },
  oldFile: { name: "old_file" },
  newFile: { name: "new_file" },
} satisfies Record<string, ColumnSpec>;

type ChangeColumns = Record<keyof typeof CHANGE_COLUMNS, number>;

/** One code change: its first row and all its rows. */
export interface Block {
  /** CodeReviewer record id. */
  id: string;
  index: number;
  /** The id, or `id@index` when the file uses the id for several changes. */
  externalId: string;
  first: SheetRow;
  rows: SheetRow[];
}

/** External id of a change whose CodeReviewer id also names other changes (e.g. JavaScript id 12872 is index 2830 and 7055). */
export function separatedChangeId(id: string, index: number): string {
  return `${id}@${index}`;
}

/**
 * Splits the rows into blocks. A block starts at a row with an id; the columns of the first
 * row must be blank on the other rows (a sorted or filtered sheet breaks the blocks, and
 * silently mixing changes would attach claims to the wrong diff). A change is identified by
 * its id and index: CodeReviewer ids are not unique (the same id on two lines of its test
 * file, with different diffs), so blocks with the same id and different indexes are different
 * changes, imported as `id@index` with a warning.
 */
export function readBlocks(sheet: Sheet, columns: ChangeColumns, errors: ErrorCollector, separated: string[]): Block[] {
  const blocks: Block[] = [];
  const firstRowOfChange = new Map<string, number>();
  for (const row of sheet.rows) {
    const at = rowLocation(sheet, row);
    const idCell = cell(row, columns.id).trim();
    if (idCell === "") {
      const block = blocks.at(-1);
      if (!block) {
        errors.add(at, "id", "the first row of a code change must carry its CodeReviewer id");
        continue;
      }
      for (const key of ["index", "diff", "oldFile", "newFile"] as const) {
        if (cell(row, columns[key]).trim() !== "") errors.add(at, CHANGE_COLUMNS[key].name, "only the first row of a code change fills this column, and id is blank here");
      }
      block.rows.push(row);
      continue;
    }
    const id = integerId(idCell);
    const index = integerId(cell(row, columns.index));
    if (id === null) errors.add(at, "id", `"${idCell}" is not a CodeReviewer record id (a non-negative integer)`);
    if (index === null) errors.add(at, "index", `"${cell(row, columns.index)}" is not a line number of the CodeReviewer test file (a non-negative integer)`);
    if (id === null || index === null) continue;
    const key = `${id}|${index}`;
    const earlier = firstRowOfChange.get(key);
    if (earlier !== undefined) errors.add(at, "id", `code change ${id} (index ${index}) already starts on row ${earlier}; each change must be one block of consecutive rows`);
    firstRowOfChange.set(key, row.row);
    blocks.push({ id, index: Number(index), externalId: id, first: row, rows: [row] });
  }
  const byId = new Map<string, Block[]>();
  for (const block of blocks) byId.set(block.id, [...(byId.get(block.id) ?? []), block]);
  for (const [id, same] of byId) {
    const indexes = new Set(same.map((b) => b.index));
    if (indexes.size < 2) continue;
    for (const block of same) block.externalId = separatedChangeId(id, block.index);
    const places = same.map((b) => `index ${b.index} on row ${b.first.row}`).join(", ");
    separated.push(`${sheet.file}: CodeReviewer id ${id} names ${indexes.size} different code changes (${places}); imported as ${same.map((b) => b.externalId).join(", ")}`);
  }
  return blocks;
}

const LANGUAGE_OF_EXTENSION: Record<string, string> = { py: "python", java: "java", js: "javascript" };
const LANGUAGE_OF_PREFIX: Record<string, string> = { py: "python", java: "java", js: "javascript" };

/** The language of a change: from its context file's extension, else the sheet's py_/java_/js_ prefix. */
function languageOf(fileName: string, sheetName: string): string | null {
  const extension = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (extension && LANGUAGE_OF_EXTENSION[extension]) return LANGUAGE_OF_EXTENSION[extension];
  const prefix = /^([a-z]+)_/i.exec(sheetName)?.[1]?.toLowerCase();
  return prefix ? (LANGUAGE_OF_PREFIX[prefix] ?? null) : null;
}

/** Whether context files were given: none (or an upload without any) leaves old/new files unstated. */
function hasContext(context: ContextFiles | undefined): context is ContextFiles {
  return context !== undefined && context.size > 0;
}

function contextFile(name: string, field: string, context: ContextFiles | undefined, at: ReturnType<typeof rowLocation>, errors: ErrorCollector): string | null {
  if (!hasContext(context) || name === "") return null;
  const text = context.get(name);
  if (text === undefined) errors.add(at, field, `context file "${name}" is not in the context folder`);
  return text ?? null;
}

/** The code change of a block (without pseudo-references and reviews). */
export function codeChangeOfBlock(
  sheet: Sheet,
  block: Block,
  position: number,
  columns: ChangeColumns,
  context: ContextFiles | undefined,
  errors: ErrorCollector,
): Omit<CodeChangeInput, "pseudoReferences" | "reviews"> | null {
  const at = rowLocation(sheet, block.first);
  const oldName = cell(block.first, columns.oldFile).trim();
  const newName = cell(block.first, columns.newFile).trim();
  const language = languageOf(newName || oldName, sheet.file);
  if (language === null) {
    errors.add(at, "new_file", `cannot tell the language from "${newName}" or the file name; expected .py, .java or .js files or a py_/java_/js_ sheet`);
    return null;
  }
  return {
    externalId: block.externalId,
    codeReviewer: { id: block.id, index: block.index },
    pullRequest: null,
    filePath: null,
    language,
    diff: cell(block.first, columns.diff),
    oldFile: contextFile(oldName, "old_file", context, at, errors),
    newFile: contextFile(newName, "new_file", context, at, errors),
    metadata: { index: block.index },
    position,
    at,
  };
}

/**
 * The annotator a CRScore sheet belongs to: `--annotator`, else the name the sheet's file
 * name carries (`pattern`'s first group: `py_claim_acc_annot_marcus.csv`,
 * `py_marcus_review_qual_final.csv`); null for the blank templates and other names.
 */
function annotatorOfSheet(fileName: string, option: string | undefined, pattern: RegExp): string | null {
  if (option !== undefined && option.trim() !== "") return option.trim();
  return pattern.exec(fileName)?.[1] ?? null;
}

/**
 * Claim numbers in a cell ("1,3", "2, 4"); "-" is none. Returns null when the cell is not such
 * a list.
 */
export function claimNumbers(value: string): number[] | null {
  const trimmed = value.trim();
  if (trimmed === "-") return [];
  if (!/^\d+(\s*[,;]\s*\d+)*$/.test(trimmed)) return null;
  return trimmed.split(/\s*[,;]\s*/).map(Number);
}

/** How a phase's sheets name their annotator, and which of a row's cells are the annotator's. */
export interface SheetAnnotatorRule<K extends string> {
  /** The annotator's name in the file name (first group). */
  inFileName: RegExp;
  /** The file name to suggest when a sheet holds annotations but names no annotator, e.g. py_NAME_review_qual_final.csv. */
  namePattern: string;
  /** The annotator's columns: a row with one of them filled holds annotations. */
  columns: readonly K[];
  /** The field the missing-annotator error names. */
  field: string;
}

/**
 * A CRScore sheet parsed for one phase's task: the CSV, its columns, its annotator
 * (`--annotator`, else from the file name; a sheet holding annotations without one is an error),
 * then each block as a code change with what `contents` reads from it (claims, reviews). The
 * contents of a block are read even when its code change is refused, so one run reports all of
 * the file's problems.
 */
export function parseCrscoreSheet<K extends string, A extends K>(
  file: ImportFile,
  options: ParseOptions,
  errors: ErrorCollector,
  layout: { task: TaskType; columns: Record<K, ColumnSpec> & Record<keyof ChangeColumns, ColumnSpec>; annotator: SheetAnnotatorRule<A> },
  contents: (sheet: Sheet, block: Block, columns: Record<K, number>, annotator: AnnotatorRef | null) => Pick<CodeChangeInput, "pseudoReferences" | "reviews">,
): ParseResult {
  const bundle = { tasks: [layout.task], pullRequests: [], codeChanges: [] as CodeChangeInput[] };
  const sheet = readCsv(file, errors);
  const columns = sheet && findColumns(sheet, layout.columns, errors);
  if (!sheet || !columns) return { bundle, warnings: [] };
  const warnings = [...sheet.warnings];
  const rule = layout.annotator;
  const name = annotatorOfSheet(file.name, options.annotator, rule.inFileName);
  const annotated = name === null ? sheet.rows.find((row) => rule.columns.some((c) => cell(row, columns[c]).trim() !== "")) : undefined;
  if (annotated) errors.add(rowLocation(sheet, annotated), rule.field, `the sheet holds annotations but names no annotator; pass --annotator NAME or name the file like ${rule.namePattern}`);
  const annotator = name === null ? null : { name, id: null };
  const separatedChanges: string[] = [];
  readBlocks(sheet, columns, errors, separatedChanges).forEach((block, position) => {
    const change = codeChangeOfBlock(sheet, block, position, columns, options.context, errors);
    const read = contents(sheet, block, columns, annotator);
    if (change) bundle.codeChanges.push({ ...change, ...read });
  });
  return { bundle, warnings, separatedChanges, contextNotGiven: !hasContext(options.context) };
}
