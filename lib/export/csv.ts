/**
 * CSV output as RFC 4180 (pandas `read_csv` and spreadsheets read it): quoted when needed, CRLF rows.
 *
 * Cells are neutralised against formula injection (OWASP, "CSV Injection"): a text starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return, which a spreadsheet reads as a formula, is written
 * with a leading `'`, unless it is a plain number (claim codes -1 and -2, a coefficient -0.5).
 * Raw writing (`raw`) keeps every text as it is, for scripts that read the file as data.
 */

const NEEDS_QUOTES = /[",\r\n]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

type Cell = string | number | boolean | null;

/** Whether a text's first character makes a spreadsheet read it as a formula: = + - @ tab CR. */
function startsLikeFormula(text: string): boolean {
  const first = text.charCodeAt(0);
  return first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13;
}

/** The text a spreadsheet shows as text: prefixed with `'` when it would start a formula. */
export function neutralised(text: string): string {
  return startsLikeFormula(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

function csvCell(value: Cell, raw: boolean): string {
  if (value === null) return "";
  if (typeof value !== "string") return String(value);
  const text = raw ? value : neutralised(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The line of cells 0 to count - 1, built by concatenation: the arrays of map and join per row were a fifth of the long CSV export's encoding. */
function line(count: number, cell: (i: number) => Cell, raw: boolean): string {
  let text = count === 0 ? "" : csvCell(cell(0), raw);
  for (let i = 1; i < count; i++) text += `,${csvCell(cell(i), raw)}`;
  return `${text}\r\n`;
}

export interface CsvOptions {
  /** Texts as they are, not neutralised (for scripts; never for a file a person opens in a spreadsheet). */
  raw?: boolean;
}

export function csvLine(values: readonly Cell[], { raw = false }: CsvOptions = {}): string {
  return line(values.length, (i) => values[i], raw);
}

/** The line of `row`'s `columns`, read from the row: no array of its cells per row (the long CSV export writes one per answer). */
export function csvRecord<Column extends string>(row: Readonly<Record<Column, Cell>>, columns: readonly Column[], { raw = false }: CsvOptions = {}): string {
  return line(columns.length, (i) => row[columns[i]], raw);
}
