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

const DELIMITERS = [",", ";", "\t"] as const;
const DELIMITER_NAMES: Record<(typeof DELIMITERS)[number], string> = { ",": "comma", ";": "semicolon", "\t": "tab" };

/**
 * The file's delimiter, from its header line: the one of comma, semicolon (what Excel writes where
 * the decimal separator is a comma) and tab found most often outside quotes; comma on a tie.
 */
export function csvDelimiter(text: string): (typeof DELIMITERS)[number] {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "\n" || c === "\r")) break;
    else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1);
  }
  return DELIMITERS.reduce((best, d) => (counts.get(d)! > counts.get(best)! ? d : best));
}

/**
 * Reads a CSV file (strict UTF-8, quoted multi-line cells; comma-, semicolon- or tab-separated,
 * csvDelimiter) into a sheet. Rows are numbered as
 * in a spreadsheet (header = row 1); every row also records the line its record starts on.
 * Blank rows are skipped. Returns null after reporting an unreadable file.
 */
export function readCsv(file: ImportFile, errors: ErrorCollector): Sheet | null {
  const text = readText(file, errors);
  if (text === null) return null;
  const delimiter = csvDelimiter(text);
  let records: ParsedRecord[];
  try {
    records = parse(text, { delimiter, info: true, relax_column_count: true, skip_empty_lines: true }) as unknown as ParsedRecord[];
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
  const warnings = delimiter === "," ? [] : [`${file.name}: read as ${DELIMITER_NAMES[delimiter]}-separated values (its header line has more ${DELIMITER_NAMES[delimiter]}s than commas)`];
  const sheet: Sheet = { file: file.name, header: header.record, rows, warnings };
  checkRowShape(sheet, errors);
  return sheet;
}
