/**
 * `gradedreviews` export: the workbook layout of the GradedReviews benchmark (`dataset.xlsx`;
 * see lib/import/gradedreviews.ts), so the benchmark's own scripts read it. Sheet 工作表1,
 * `ID, groundTruth, relatedCode`, then per system its review and its grade column (`Grade`,
 * `Grade.1`, … as pandas names repeated headers). The Grade columns hold the consensus grade
 * (adjudicated, else unanimous; blank while the graders disagree) when several annotators
 * graded, the only annotator's grades otherwise, or the grades of the annotator named. Written
 * with ExcelJS's streaming writer. String cells are written as strings, never as formulas, so texts
 * keep their first character (unlike the CSV exports' neutralised cells).
 */
import { PassThrough } from "node:stream";
import type ExcelJS from "exceljs";
import { GRADEDREVIEWS_SHEET, REFERENCE_COLUMN } from "@/lib/import/gradedreviews";
import type { ExportedChange } from "./rows";
import { AppError } from "@/lib/errors";
import { noExportData } from "./available";

export interface GradedReviewsLayout {
  /** Systems of the generated reviews, in review order. */
  systems: string[];
  /** Whose grades fill the Grade columns: the consensus or one annotator's (by id). */
  grades: { consensus: Map<string, number> } | { graderId: string };
}

/** The header of the sheet: fixed columns, then each system and its grade column. */
export function gradedReviewsHeader(systems: readonly string[]): string[] {
  return ["ID", REFERENCE_COLUMN, "relatedCode", ...systems.flatMap((system, i) => [system, i === 0 ? "Grade" : `Grade.${i}`])];
}

/**
 * Whose grades fill the Grade columns of the study's `systems` (in review order), given its
 * `graders` (see the file comment). A study without grades (409), an unknown or ambiguous
 * `annotator` name (400) are refused before anything is written.
 */
export async function gradedReviewsLayout(systems: string[], graders: readonly { id: string; name: string }[], consensus: () => Promise<Map<string, number>>, annotator?: string): Promise<GradedReviewsLayout> {
  const layout = (grades: GradedReviewsLayout["grades"]) => ({ systems, grades });
  if (graders.length === 0) throw noExportData("gradedreviews");
  if (annotator === undefined) return layout(graders.length > 1 ? { consensus: await consensus() } : { graderId: graders[0].id });
  const named = graders.filter((g) => g.name === annotator);
  if (named.length === 0) throw new AppError("INVALID_INPUT", { message: `No grades by "${annotator}" in this study; graders: ${graders.map((g) => g.name).join(", ") || "none"}.` });
  if (named.length > 1) throw new AppError("INVALID_INPUT", { message: `Several graders are called "${annotator}"; rename one to export their grades.` });
  return layout({ graderId: named[0].id });
}

/** IDs that are integers are written as numbers, as in the benchmark. */
function idCell(externalId: string): string | number {
  return /^\d{1,15}$/.test(externalId) ? Number(externalId) : externalId;
}

function rowOf(change: ExportedChange, layout: GradedReviewsLayout): (string | number | null)[] {
  const reference = change.reviews.find((r) => r.isReference);
  const cells: (string | number | null)[] = [idCell(change.externalId), reference?.text ?? null, change.newFile || change.diff];
  for (const system of layout.systems) {
    const review = change.reviews.find((r) => !r.isReference && r.system === system);
    const grades = layout.grades;
    const grade = !review ? undefined : "graderId" in grades ? review.referenceGrades.find((g) => g.annotatorId === grades.graderId)?.grade : grades.consensus.get(review.id);
    cells.push(review?.text ?? null, grade ?? null);
  }
  return cells;
}

/** The pandas/openpyxl header style of the benchmark's file. */
const HEADER_STYLE: Partial<ExcelJS.Style> = {
  font: { bold: true },
  border: { left: { style: "thin" }, right: { style: "thin" }, top: { style: "thin" }, bottom: { style: "thin" } },
  alignment: { horizontal: "center", vertical: "top" },
};

/**
 * The time the workbook says it was written (its properties and its zip entries'): fixed, as
 * reproducible builds date their archives (the zip format's first day), so the same data gives the same bytes.
 */
const WRITTEN_AT = new Date("1980-01-01T00:00:00Z");

/** ExcelJS's archive (archiver), to which it passes each entry's name and no date (archiver then takes the time of day). */
type ZipArchive = { append(source: unknown, entry: { name: string; date?: Date }): unknown };

/**
 * ExcelJS's streaming writer with its times fixed: the properties' (docProps/core.xml), and its zip
 * entries', each dated as it is added; the first two are added in the constructor, so the archive
 * is wrapped as the constructor sets it.
 */
function datedWorkbookWriter(excel: typeof ExcelJS, stream: PassThrough) {
  class DatedWorkbookWriter extends excel.stream.xlsx.WorkbookWriter {
    set zip(archive: ZipArchive) {
      const append = archive.append.bind(archive);
      archive.append = (source, entry) => append(source, { ...entry, date: WRITTEN_AT });
      Object.defineProperty(this, "zip", { value: archive });
    }
  }
  const workbook = new DatedWorkbookWriter({ stream, useSharedStrings: false, useStyles: true });
  workbook.created = workbook.modified = WRITTEN_AT;
  return workbook;
}

async function writeWorkbook(stream: PassThrough, changes: AsyncIterable<ExportedChange>, layout: GradedReviewsLayout): Promise<void> {
  // Loaded here, not with the module: see lib/import/xlsx.ts.
  const workbook = datedWorkbookWriter((await import("exceljs")).default, stream);
  const sheet = workbook.addWorksheet(GRADEDREVIEWS_SHEET);
  const header = sheet.addRow(gradedReviewsHeader(layout.systems));
  header.eachCell((cell) => {
    cell.style = HEADER_STYLE;
  });
  header.commit();
  for await (const change of changes) sheet.addRow(rowOf(change, layout)).commit();
  sheet.commit();
  await workbook.commit();
}

/** The workbook's bytes as they are written. */
export async function* gradedReviewsWorkbook(changes: AsyncIterable<ExportedChange>, layout: GradedReviewsLayout): AsyncGenerator<Uint8Array> {
  const stream = new PassThrough();
  const writing = writeWorkbook(stream, changes, layout).catch((error: unknown) => {
    stream.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  for await (const chunk of stream) yield chunk as Uint8Array;
  await writing;
}
