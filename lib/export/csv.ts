/** CSV output as RFC 4180 (pandas `read_csv` and spreadsheets read it): quoted when needed, CRLF rows. */

const NEEDS_QUOTES = /[",\r\n]/;

function csvCell(value: string | number | boolean | null): string {
  if (value === null) return "";
  if (typeof value !== "string") return String(value);
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

type Cell = string | number | boolean | null;

/** Built by concatenation: the arrays of map and join per row were a fifth of the long CSV export's encoding. */
export function csvLine(values: readonly Cell[]): string {
  let line = values.length === 0 ? "" : csvCell(values[0]);
  for (let i = 1; i < values.length; i++) line += `,${csvCell(values[i])}`;
  return `${line}\r\n`;
}

/** The line of `row`'s `columns`, read from the row: no array of its cells per row (the long CSV export writes one per answer). */
export function csvRecord<Column extends string>(row: Readonly<Record<Column, Cell>>, columns: readonly Column[]): string {
  let line = columns.length === 0 ? "" : csvCell(row[columns[0]]);
  for (let i = 1; i < columns.length; i++) line += `,${csvCell(row[columns[i]])}`;
  return `${line}\r\n`;
}
