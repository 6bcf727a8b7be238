import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, describe, expect, inject, test } from "vitest";
import { createClient } from "@/lib/db/client";
import { runImport } from "@/lib/data/imports";
import { cellText } from "@/lib/import/xlsx";
import { hasSharedFile, sharedPath } from "../shared-data";
import { countRows, exportBytes, fileAt, GRADEDREVIEWS_SAMPLE, imported, sharedFile } from "./import-fixtures";

const STUDY = "gradedreviews-sample";

async function readSheet(source: string | Buffer): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  if (typeof source === "string") await workbook.xlsx.readFile(source);
  else await workbook.xlsx.load(source as unknown as ExcelJS.Buffer);
  return workbook.worksheets[0];
}

describe.skipIf(!hasSharedFile(...GRADEDREVIEWS_SAMPLE))("GradedReviews sample workbook", () => {
  const client = createClient(inject("databaseUrl"));
  const tmp = mkdtempSync(path.join(tmpdir(), "crjudge-gr-"));
  const sample = () => sharedFile(...GRADEDREVIEWS_SAMPLE);
  afterAll(async () => {
    rmSync(tmp, { recursive: true, force: true });
    await client.$disconnect();
  });

  test("imports 300 code changes, 300 references and 1,200 graded reviews with the benchmark's grade counts", async () => {
    const summary = imported(await runImport({ study: STUDY, format: "gradedreviews", files: [sample()] }, client));
    expect(summary.study.created).toBe(true);
    expect(summary.study.enabledTasks).toEqual(["REFERENCE_GRADING"]);
    expect(summary.counts.codeChanges.created).toBe(300);
    const studyId = summary.study.id;
    const inStudy = { codeChange: { studyId } };
    expect(await client.codeChange.count({ where: { studyId, language: "java" } })).toBe(300);
    expect(await client.review.count({ where: { ...inStudy, isReference: true } })).toBe(300);
    expect(await client.review.count({ where: { ...inStudy, isReference: false } })).toBe(1200);
    const grades = await client.referenceGrade.groupBy({ by: ["grade"], where: { review: inStudy }, _count: true, orderBy: { grade: "asc" } });
    expect(Object.fromEntries(grades.map((g) => [g.grade, g._count]))).toEqual({ 1: 1077, 2: 84, 3: 15, 4: 15, 5: 9 });
    const grader = await client.account.findFirstOrThrow({ where: { name: "gradedreviews-consensus" } });
    expect(grader.active).toBe(false);
    // The grader account is shared by every study that imports GradedReviews: count this study's grades only.
    const gradeIds = (await client.referenceGrade.findMany({ where: { review: inStudy }, select: { id: true } })).map((g) => g.id);
    expect(await client.annotationHistory.count({ where: { kind: "REFERENCE_GRADE", action: "IMPORT", accountId: grader.id, annotationId: { in: gradeIds } } })).toBe(1200);
  });

  test("importing the same file again changes nothing", async () => {
    const before = await countRows(client);
    const summary = imported(await runImport({ study: STUDY, format: "gradedreviews", files: [sample()] }, client));
    const created = Object.values(summary.counts).reduce((n, c) => n + c.created, 0);
    expect(created).toBe(0);
    expect(summary.counts.referenceGrades).toEqual({ created: 0, updated: 0, unchanged: 1200 });
    expect({ ...(await countRows(client)), importRun: before.importRun }).toEqual(before);
  });

  test("the gradedreviews export is a workbook whose cells equal the input's", async () => {
    const study = await client.study.findUniqueOrThrow({ where: { slug: STUDY } });
    const input = await readSheet(sharedPath(...GRADEDREVIEWS_SAMPLE));
    const output = await readSheet(await exportBytes(client, study.id, "gradedreviews"));
    expect(output.name).toBe(input.name);
    expect([output.rowCount, output.columnCount]).toEqual([input.rowCount, input.columnCount]);
    const cells = (sheet: ExcelJS.Worksheet) => {
      const values: ExcelJS.CellValue[][] = [];
      sheet.eachRow({ includeEmpty: true }, (row, r) => {
        values[r] = Array.from({ length: sheet.columnCount }, (_, c) => row.getCell(c + 1).value);
      });
      return values;
    };
    expect(cells(output)).toEqual(cells(input));
  });

  test("a file contradicting the study is refused without update, and applied and logged with it", async () => {
    const input = new ExcelJS.Workbook();
    await input.xlsx.readFile(sharedPath(...GRADEDREVIEWS_SAMPLE));
    const sheet = input.worksheets[0];
    const stored = Number(cellText(sheet.getCell("G5").value));
    sheet.getCell("G5").value = stored === 5 ? 4 : stored + 1;
    const modified = path.join(tmp, "graded-modified.xlsx");
    await input.xlsx.writeFile(modified);

    const before = await countRows(client);
    const refused = await runImport({ study: STUDY, format: "gradedreviews", files: [fileAt(modified)] }, client);
    expect(refused).toEqual({
      status: "refused",
      totalErrors: 1,
      warnings: [],
      errors: [{ file: "graded-modified.xlsx", row: 5, field: "grade", message: `code change 4, review commentFinder, grade by gradedreviews-consensus: the study has ${stored}, this file has ${stored === 5 ? 4 : stored + 1}; import with update to overwrite` }],
    });
    expect(await countRows(client)).toEqual(before);

    const summary = imported(await runImport({ study: STUDY, format: "gradedreviews", files: [fileAt(modified)], update: true }, client));
    expect(summary.counts.referenceGrades).toEqual({ created: 0, updated: 1, unchanged: 1199 });
    const grade = await client.referenceGrade.findFirstOrThrow({ where: { review: { externalId: "commentFinder", codeChange: { externalId: "4", study: { slug: STUDY } } } } });
    expect([grade.grade, grade.version]).toEqual([stored === 5 ? 4 : stored + 1, 2]);
    const history = await client.annotationHistory.findMany({ where: { annotationId: grade.id }, orderBy: { id: "asc" } });
    // Both changes are the imports', each naming its run; the grade names the last one and its file.
    expect(history.map((h) => [h.action, h.baseVersion, h.oldValue, h.newValue, h.importRunId])).toEqual([
      ["IMPORT", null, null, { grade: stored, comment: "" }, expect.any(String)],
      ["IMPORT", 1, { grade: stored, comment: "" }, { grade: grade.grade, comment: "" }, summary.importRunId],
    ]);
    expect([grade.importRunId, grade.importedFile]).toEqual([summary.importRunId, path.basename(modified)]);
  });
});
