/** CSV files as sheets (the CRScore annotation sheets are CSV exports of spreadsheets). */
import { CsvError, parse } from "csv-parse/sync";
import type { ErrorCollector } from "./errors";
import { readText, type ImportFile } from "./file";
import { checkRowShape, isBlankRow, type Sheet, type SheetRow } from "./sheet";

interface ParsedRecord {
  info: { lines: number };
  record: string[];
}

function newlines(cells: readonly string[]): number {
  let count = 0;
  for (const value of cells) for (let i = value.indexOf("\n"); i >= 0; i = value.indexOf("\n", i + 1)) count++;
  return count;
}

/**
 * Reads a CSV file (strict UTF-8, quoted multi-line cells) into a sheet. Rows are numbered as
 * in a spreadsheet (header = row 1); every row also records the line its record starts on.
 * Blank rows are skipped. Returns null after reporting an unreadable file.
 */
export function readCsv(file: ImportFile, errors: ErrorCollector): Sheet | null {
  const text = readText(file, errors);
  if (text === null) return null;
  let records: ParsedRecord[];
  try {
    records = parse(text, { info: true, relax_column_count: true, skip_empty_lines: true }) as unknown as ParsedRecord[];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const { records, lines } = error as CsvError & { records: number; lines: number };
    const unclosed = error.code === "CSV_QUOTE_NOT_CLOSED";
    errors.add(
      unclosed ? { file: file.name, row: records + 1 } : { file: file.name, line: lines },
      undefined,
      unclosed ? "a quoted cell of this row is never closed before the end of the file: the file is truncated or a quote is not doubled" : `not a readable CSV file: ${error.message}`,
    );
    return null;
  }
  const [header, ...body] = records;
  const rows: SheetRow[] = [];
  body.forEach(({ info, record }, i) => {
    if (!isBlankRow(record)) rows.push({ row: i + 2, line: info.lines - newlines(record), cells: record });
  });
  const sheet: Sheet = { file: file.name, header: header.record, rows, warnings: [] };
  checkRowShape(sheet, errors);
  return sheet;
}
