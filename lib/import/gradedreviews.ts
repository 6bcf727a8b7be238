/**
 * `gradedreviews`: the GradedReviews benchmark workbook ("Deep Assessment of Code Review
 * Generation Approaches", §4.3; `dataset.xlsx`): sheet 工作表1, header
 * `ID, groundTruth, relatedCode, Tufano's, Grade, commentFinder, Grade.1, Auger, Grade.2,
 * LLaMA-Reviewer, Grade.3`. Each row is one reference review (`groundTruth`) of the method in
 * `relatedCode` and the generated reviews of the systems, each followed by its 1-5 grade
 * against the reference, imported as reference-based grades of one annotator. The same table
 * as CSV, or in a workbook whose one sheet is named otherwise, is read too (readSheetFile).
 */
import type { ReviewInput, CodeChangeInput, ReferenceGradeInput } from "./bundle";
import type { ErrorCollector } from "./errors";
import type { ParseOptions, ParseResult, Parser } from "./parser";
import { cell, cellInteger, findColumns, headerLabel, rowLocation, type Sheet, type SheetRow } from "./sheet";
import { integerId } from "./text";
import { readSheetFile } from "./xlsx";

export const GRADEDREVIEWS_SHEET = "工作表1";
/** The grades in the benchmark are the authors' agreed grades, hence one "consensus" annotator. */
export const DEFAULT_GRADER = "gradedreviews-consensus";
/** Header and system name of the reference review column. */
export const REFERENCE_COLUMN = "groundTruth";
export const GRADEDREVIEWS_LANGUAGE = "java";
export const MIN_GRADE = 1;
export const MAX_GRADE = 5;

const COLUMNS = { id: { name: "ID" }, reference: { name: REFERENCE_COLUMN }, code: { name: "relatedCode" } };

interface SystemColumn {
  system: string;
  review: number;
  grade: number;
}

/** The header right of the fixed columns: pairs of a system's column and its `Grade…` column. */
function systemColumns(sheet: Sheet, after: number, errors: ErrorCollector): SystemColumn[] | null {
  const systems: SystemColumn[] = [];
  const at = { file: sheet.file, row: 1 };
  for (let c = after + 1; c < sheet.header.length; c += 2) {
    const system = headerLabel(sheet.header[c]);
    const grade = headerLabel(sheet.header[c + 1] ?? "");
    if (system === "" || /^grade/i.test(system)) {
      errors.add(at, "header", `column ${c + 1} ("${system}") should name a system whose reviews follow the ID, groundTruth and relatedCode columns`);
      return null;
    }
    if (!/^grade/i.test(grade)) {
      errors.add(at, "header", `the ${system} column must be followed by its Grade column (found "${grade}")`);
      return null;
    }
    if (systems.some((s) => s.system === system)) {
      errors.add(at, "header", `system ${system} has two columns`);
      return null;
    }
    systems.push({ system, review: c, grade: c + 1 });
  }
  if (systems.length === 0) errors.add(at, "header", "no system columns after ID, groundTruth and relatedCode");
  return systems.length > 0 ? systems : null;
}

function gradeOfCell(sheet: Sheet, row: SheetRow, column: SystemColumn, errors: ErrorCollector): number | null {
  const value = cell(row, column.grade).trim();
  const grade = cellInteger(value);
  if (grade >= MIN_GRADE && grade <= MAX_GRADE) return grade;
  errors.add(rowLocation(sheet, row), `${headerLabel(sheet.header[column.grade])} (${column.system})`, `"${value}" is not a grade from ${MIN_GRADE} to ${MAX_GRADE}`);
  return null;
}

function requiredText(sheet: Sheet, row: SheetRow, column: number, errors: ErrorCollector): string {
  const value = cell(row, column);
  if (value.trim() === "") errors.add(rowLocation(sheet, row), headerLabel(sheet.header[column]), "the cell is empty");
  return value;
}

export const parseGradedReviews: Parser = async (file, options: ParseOptions, errors): Promise<ParseResult> => {
  const bundle = { tasks: ["REFERENCE_GRADING" as const], pullRequests: [], codeChanges: [] as CodeChangeInput[] };
  const sheet = await readSheetFile(file, GRADEDREVIEWS_SHEET, errors);
  const columns = sheet && findColumns(sheet, COLUMNS, errors);
  const systems = sheet && columns && systemColumns(sheet, Math.max(columns.id, columns.reference, columns.code), errors);
  if (!sheet || !columns || !systems) return { bundle, warnings: [] };
  const warnings = [...sheet.warnings];
  /** A review cell left empty (or an Excel error value): the review is imported as missing and keeps its grade. */
  const reviewText = (row: SheetRow, column: number): { text: string; textMissing?: true } => {
    const value = cell(row, column);
    if (value.trim() !== "") return { text: value };
    warnings.push(`${sheet.file}: row ${row.row}: ${headerLabel(sheet.header[column])}: the review text is missing; the review is imported as missing (its grade is kept; metrics and correlations leave it out)`);
    return { text: "", textMissing: true };
  };
  const annotator = { name: options.annotator?.trim() || DEFAULT_GRADER, id: null };
  const rowOfId = new Map<string, number>();
  sheet.rows.forEach((row, position) => {
    const at = rowLocation(sheet, row);
    const id = integerId(cell(row, columns.id));
    if (id === null) {
      errors.add(at, "ID", `"${cell(row, columns.id)}" is not an item id (a positive integer)`);
      return;
    }
    const earlier = rowOfId.get(id);
    if (earlier !== undefined) errors.add(at, "ID", `ID ${id} is already used on row ${earlier}`);
    rowOfId.set(id, row.row);
    const reference: ReviewInput = {
      externalId: REFERENCE_COLUMN,
      system: REFERENCE_COLUMN,
      ...reviewText(row, columns.reference),
      isReference: true,
      position: 0,
      ratings: [],
      grades: [],
      commentFilters: [],
      at,
    };
    const generated = systems.map((column, i): ReviewInput => {
      const grade = gradeOfCell(sheet, row, column, errors);
      const graded: ReferenceGradeInput[] = grade === null ? [] : [{ annotator, grade, comment: null, timeSpentMs: null, createdAt: null, updatedAt: null, at }];
      return { externalId: column.system, system: column.system, ...reviewText(row, column.review), isReference: false, position: i + 1, ratings: [], grades: graded, commentFilters: [], at };
    });
    bundle.codeChanges.push({
      externalId: id,
      pullRequest: null,
      filePath: null,
      language: GRADEDREVIEWS_LANGUAGE,
      diff: "",
      oldFile: null,
      newFile: requiredText(sheet, row, columns.code, errors),
      metadata: {},
      position,
      pseudoReferences: [],
      reviews: [reference, ...generated],
      at,
    });
  });
  return { bundle, warnings };
};
