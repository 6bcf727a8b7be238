/**
 * A table read from a CSV file or a workbook sheet, as text cells with the spreadsheet row
 * number of every row, and header lookup by column name.
 */
import type { ErrorCollector, SourceLocation } from "./errors";
import { MAX_TEXT_CHARS } from "./text";

export interface SheetRow {
  /** Spreadsheet row number; the header is row 1. */
  row: number;
  /** CSV only: the line the record starts on. */
  line?: number;
  cells: string[];
}

export interface Sheet {
  file: string;
  header: string[];
  rows: SheetRow[];
  /** Problems the reader fixed (Excel error values read as missing). */
  warnings: string[];
}

export function rowLocation(sheet: Sheet, row: SheetRow): SourceLocation {
  return row.line === undefined ? { file: sheet.file, row: row.row } : { file: sheet.file, row: row.row, line: row.line };
}

/** A header as people read it: the first line of a multi-line header cell, trimmed. */
export function headerLabel(header: string): string {
  return header.split(/\r?\n/)[0].trim();
}

function normalizeHeader(header: string): string {
  return header.replace(/\s+/g, " ").trim().toLowerCase();
}

export interface ColumnSpec {
  /** The column's name in the layout (compared case- and whitespace-insensitively). */
  name: string;
  /** Match headers that start with `name` (CRScore's multi-line "Correctness" header). */
  prefix?: boolean;
  optional?: boolean;
}

/**
 * Finds each named column in the header (the first match). A missing required column is one
 * error naming the header found, so a sheet of the wrong kind is recognisable at once.
 */
export function findColumns<K extends string>(sheet: Sheet, spec: Record<K, ColumnSpec>, errors: ErrorCollector): Record<K, number> | null {
  const headers = sheet.header.map(normalizeHeader);
  const found = {} as Record<K, number>;
  const missing: string[] = [];
  for (const key of Object.keys(spec) as K[]) {
    const { name, prefix, optional } = spec[key];
    const wanted = normalizeHeader(name);
    const index = headers.findIndex((h) => (prefix ? h.startsWith(wanted) : h === wanted));
    if (index >= 0) found[key] = index;
    else if (!optional) missing.push(name);
    else found[key] = -1;
  }
  if (missing.length > 0) {
    errors.add(
      { file: sheet.file, row: 1 },
      "header",
      `missing column${missing.length > 1 ? "s" : ""} ${missing.map((m) => `"${m}"`).join(", ")}; the header has ${sheet.header.map((h) => `"${headerLabel(h)}"`).join(", ") || "no columns"}`,
    );
    return null;
  }
  return found;
}

/** The cell of a column found by findColumns ("" for an optional column that is absent). */
export function cell(row: SheetRow, column: number): string {
  return column < 0 ? "" : (row.cells[column] ?? "");
}

/**
 * A cell holding a whole number, as a spreadsheet or pandas writes it ("3", "-2", and "3.0": pandas
 * writes an integer column with blank cells as floats); NaN for anything else.
 */
export function cellInteger(text: string): number {
  const trimmed = text.trim();
  return /^-?\d+(\.0+)?$/.test(trimmed) ? Number(trimmed) : NaN;
}

/** The error values Excel writes into a cell whose formula failed; they are not data. */
export const EXCEL_ERRORS = new Set(["#VALUE!", "#N/A", "#REF!", "#DIV/0!", "#NAME?", "#NULL!", "#NUM!"]);

/** Reads Excel error values (`#VALUE!`, `#N/A`, …) as missing cells, with a warning for each. */
function blankExcelErrors(sheet: Sheet): void {
  for (const row of sheet.rows) {
    row.cells.forEach((value, i) => {
      const trimmed = value.trim();
      if (!EXCEL_ERRORS.has(trimmed)) return;
      row.cells[i] = "";
      sheet.warnings.push(`${sheet.file}: row ${row.row}: ${headerLabel(sheet.header[i] ?? `column ${i + 1}`)}: the Excel error value ${trimmed} is read as missing`);
    });
  }
}

/**
 * Refuses rows whose cells do not line up with the header and cells beyond MAX_TEXT_CHARS.
 * Empty cells right of the header (a spreadsheet's trailing commas) are dropped; Excel error
 * values become missing cells.
 */
export function checkRowShape(sheet: Sheet, errors: ErrorCollector): void {
  blankExcelErrors(sheet);
  for (const row of sheet.rows) {
    if (row.cells.length > sheet.header.length && isBlankRow(row.cells.slice(sheet.header.length))) row.cells.length = sheet.header.length;
    if (row.cells.length !== sheet.header.length) {
      errors.add(rowLocation(sheet, row), undefined, `expected ${sheet.header.length} cells as in the header, found ${row.cells.length}`);
    }
    row.cells.forEach((value, i) => {
      if (value.length > MAX_TEXT_CHARS) {
        errors.add(rowLocation(sheet, row), headerLabel(sheet.header[i] ?? `column ${i + 1}`), `cell has ${value.length.toLocaleString("en")} characters; at most ${MAX_TEXT_CHARS.toLocaleString("en")} are accepted`);
      }
    });
  }
}

export function isBlankRow(cells: readonly string[]): boolean {
  return cells.every((c) => c.trim() === "");
}
