/**
 * Workbook sheets as text cells (the GradedReviews benchmark ships as dataset.xlsx), or the same table as CSV. ExcelJS is
 * loaded when a workbook is read: it costs about 1 s of CPU to load, which the worker and CLI
 * commands without workbooks do not pay.
 */
import type ExcelJS from "exceljs";
import type { ErrorCollector } from "./errors";
import { readCsv } from "./csv";
import type { ImportFile } from "./file";
import { checkRowShape, isBlankRow, type Sheet, type SheetRow } from "./sheet";

/** A cell as the text a spreadsheet shows: numbers as written, rich text joined, formulas by result. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== "object") return String(value);
  if ("richText" in value) return value.richText.map((run) => run.text).join("");
  if ("result" in value) return cellText(value.result as ExcelJS.CellValue);
  if ("text" in value) return String(value.text);
  if ("error" in value) return String(value.error);
  return "";
}

/** A cell's text; the cells a merged cell covers besides its first are blank, as in a CSV export. */
function shownText(cell: ExcelJS.Cell): string {
  return cell.isMerged && cell.master.address !== cell.address ? "" : cellText(cell.value);
}

async function loadWorkbook(content: Uint8Array): Promise<ExcelJS.Workbook | null> {
  const excel = (await import("exceljs")).default;
  const workbook = new excel.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(content.buffer, content.byteOffset, content.byteLength) as unknown as ExcelJS.Buffer);
    return workbook;
  } catch {
    return null;
  }
}

/**
 * Reads the named sheet of an .xlsx workbook. Row 1 is the header; blank rows are skipped;
 * cells right of the header count as cells of the row (and so as a shape error).
 */
async function readXlsxSheet(file: ImportFile, sheetName: string, errors: ErrorCollector): Promise<Sheet | null> {
  if (file.content.length === 0) {
    errors.add({ file: file.name }, undefined, "the file is empty");
    return null;
  }
  const workbook = await loadWorkbook(file.content);
  if (workbook === null) {
    errors.add({ file: file.name }, undefined, "not an .xlsx workbook (it could not be opened as one)");
    return null;
  }
  const only = workbook.worksheets.length === 1 ? workbook.worksheets[0] : undefined;
  // A workbook saved again elsewhere (pandas' to_excel, an English Excel) names its one sheet otherwise.
  const worksheet = workbook.getWorksheet(sheetName) ?? only;
  if (!worksheet) {
    errors.add({ file: file.name }, "sheet", `no sheet named "${sheetName}"; the workbook has ${workbook.worksheets.map((w) => `"${w.name}"`).join(", ") || "no sheets"}`);
    return null;
  }
  const width = (row: ExcelJS.Row) => row.cellCount;
  const headerRow = worksheet.getRow(1);
  const header = Array.from({ length: width(headerRow) }, (_, i) => shownText(headerRow.getCell(i + 1)));
  const rows: SheetRow[] = [];
  worksheet.eachRow({ includeEmpty: false }, (row, number) => {
    if (number === 1) return;
    const cells = Array.from({ length: Math.max(width(row), header.length) }, (_, i) => shownText(row.getCell(i + 1)));
    while (cells.length > header.length && cells[cells.length - 1] === "") cells.pop();
    if (!isBlankRow(cells)) rows.push({ row: number, cells });
  });
  const warnings = worksheet.name === sheetName ? [] : [`${file.name}: no sheet named "${sheetName}"; its only sheet, "${worksheet.name}", is read`];
  const sheet: Sheet = { file: file.name, header, rows, warnings };
  checkRowShape(sheet, errors);
  return sheet;
}

/** The first bytes of an .xlsx file (a zip archive) and of an .xls one (Excel 97-2003, a compound document). */
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const COMPOUND_DOCUMENT = [0xd0, 0xcf, 0x11, 0xe0];
const startsWith = (content: Uint8Array, magic: readonly number[]) => magic.every((byte, i) => content[i] === byte);

/**
 * The named sheet of a workbook, or a CSV file of the same table (pandas' to_csv, a spreadsheet
 * saved as CSV): told apart by their first bytes, not the file's name. An .xls workbook is refused with what to do.
 */
export async function readSheetFile(file: ImportFile, sheetName: string, errors: ErrorCollector): Promise<Sheet | null> {
  if (startsWith(file.content, ZIP)) return readXlsxSheet(file, sheetName, errors);
  if (startsWith(file.content, COMPOUND_DOCUMENT)) {
    errors.add({ file: file.name }, undefined, "an .xls workbook (Excel 97-2003), which is not read: save it as .xlsx or as CSV");
    return null;
  }
  return readCsv(file, errors);
}
