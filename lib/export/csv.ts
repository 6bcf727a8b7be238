/** CSV output as RFC 4180 (pandas `read_csv` and spreadsheets read it): quoted when needed, CRLF rows. */

function csvCell(value: string | number | boolean | null): string {
  if (value === null) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Built by concatenation: the arrays of map and join per row were a fifth of the long CSV export's encoding. */
export function csvLine(values: readonly (string | number | boolean | null)[]): string {
  let line = values.length === 0 ? "" : csvCell(values[0]);
  for (let i = 1; i < values.length; i++) line += `,${csvCell(values[i])}`;
  return `${line}\r\n`;
}
