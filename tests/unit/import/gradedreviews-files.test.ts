import ExcelJS from "exceljs";
import { describe, expect, test } from "vitest";
import { ErrorCollector } from "@/lib/import/errors";
import { GRADEDREVIEWS_SHEET, parseGradedReviews } from "@/lib/import/gradedreviews";
import { DEFAULT_LIKERT, type ParseResult } from "@/lib/import/parser";

const HEADER = ["ID", "groundTruth", "relatedCode", "Tufano's", "Grade", "commentFinder", "Grade.1"];
const ROWS = [
  ["101", "Use a constant here.", "int f() {\n  return 42;\n}", "Why 42?", "3", "Extract \"42\", please", "4"],
  ["102", "Close the stream, a, b", "void g() { s.open(); }", "", "1", "Close it.", "5"],
];

async function workbook(sheets: string[], rows = [HEADER, ...ROWS]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const name of sheets) book.addWorksheet(name).addRows(rows);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const csv = (rows: string[][]) => rows.map((r) => r.map((v) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(",")).join("\r\n");

async function parse(name: string, content: Buffer): Promise<{ result: ParseResult; errors: ErrorCollector }> {
  const errors = new ErrorCollector();
  const result = await parseGradedReviews({ name, content }, { likert: DEFAULT_LIKERT }, errors);
  return { result, errors };
}

/** The code changes without their source locations (rows and files differ between the files). */
const changes = (result: ParseResult) => JSON.parse(JSON.stringify(result.bundle.codeChanges, (key, value: unknown) => (key === "at" ? undefined : value))) as unknown;

describe("the GradedReviews table in the files people have", () => {
  test("the benchmark's workbook, a workbook whose one sheet is named otherwise, its CSV and pandas' CSV (with its index column) give the same code changes", async () => {
    const original = await parse("dataset.xlsx", await workbook([GRADEDREVIEWS_SHEET]));
    expect(original.errors.errors).toEqual([]);
    expect(original.result.warnings).toEqual([expect.stringContaining("review text is missing")]);
    const expected = changes(original.result);
    expect((expected as { reviews: { grades: { grade: number }[] }[] }[]).map((c) => c.reviews.map((r) => r.grades.map((g) => g.grade)))).toEqual([[[], [3], [4]], [[], [1], [5]]]);

    const renamed = await parse("dataset.xlsx", await workbook(["Sheet1"]));
    expect(renamed.errors.errors).toEqual([]);
    expect(changes(renamed.result)).toEqual(expected);
    expect(renamed.result.warnings).toContain(`dataset.xlsx: no sheet named "${GRADEDREVIEWS_SHEET}"; its only sheet, "Sheet1", is read`);

    for (const [name, rows] of [["dataset.csv", [HEADER, ...ROWS]], ["pandas.csv", [["", ...HEADER], ...ROWS.map((r, i) => [String(i), ...r])]]] as const) {
      const fromCsv = await parse(name, Buffer.from(csv(rows as unknown as string[][])));
      expect(fromCsv.errors.errors).toEqual([]);
      expect(changes(fromCsv.result)).toEqual(expected);
    }
  });

  test("a workbook of several sheets none of which is the benchmark's, and an .xls workbook, are refused with what was found", async () => {
    const several = await parse("dataset.xlsx", await workbook(["Sheet1", "Sheet2"]));
    expect(several.errors.errors).toEqual([{ file: "dataset.xlsx", field: "sheet", message: `no sheet named "${GRADEDREVIEWS_SHEET}"; the workbook has "Sheet1", "Sheet2"` }]);
    const xls = await parse("dataset.xls", Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0]));
    expect(xls.errors.errors).toEqual([{ file: "dataset.xls", message: "an .xls workbook (Excel 97-2003), which is not read: save it as .xlsx or as CSV" }]);
  });
});
