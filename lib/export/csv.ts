/** CSV output as RFC 4180 (pandas `read_csv` and spreadsheets read it): quoted when needed, CRLF rows. */

function csvCell(value: string | number | boolean | null): string {
  if (value === null) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly (string | number | boolean | null)[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
