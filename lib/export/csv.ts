/** CSV output as RFC 4180 (pandas `read_csv` and spreadsheets read it): quoted when needed, CRLF rows. */

const NEEDS_QUOTES = /[",\r\n]/;

type Cell = string | number | boolean | null;

function csvCell(value: Cell): string {
  if (value === null) return "";
  if (typeof value !== "string") return String(value);
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The line of cells 0 to count - 1, built by concatenation: the arrays of map and join per row were a fifth of the long CSV export's encoding. */
function line(count: number, cell: (i: number) => Cell): string {
  let text = count === 0 ? "" : csvCell(cell(0));
  for (let i = 1; i < count; i++) text += `,${csvCell(cell(i))}`;
  return `${text}\r\n`;
}

export function csvLine(values: readonly Cell[]): string {
  return line(values.length, (i) => values[i]);
}

/** The line of `row`'s `columns`, read from the row: no array of its cells per row (the long CSV export writes one per answer). */
export function csvRecord<Column extends string>(row: Readonly<Record<Column, Cell>>, columns: readonly Column[]): string {
  return line(columns.length, (i) => row[columns[i]]);
}
