/**
 * Number formatting of every dashboard (tables, chart tooltips): statistics with 4 decimals,
 * p-values with 4 decimals or "< 0.0001", rates as percentages with 2 decimals (the same
 * precision as a 4-decimal fraction). The raw number is always kept next to the text
 * (`data-value`, CSV files), so nothing is lost to rounding.
 */
export const DIGITS = 4;

/** "0.8043", or "—" when undefined. */
export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return value.toFixed(DIGITS);
}

/** Two-sided p-value: "0.0123", "< 0.0001", or "—". */
export function formatP(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return value < 10 ** -DIGITS ? `< ${(10 ** -DIGITS).toFixed(DIGITS)}` : value.toFixed(DIGITS);
}

/** A fraction as a percentage: 0.83653 → "83.65 %". */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return `${(100 * value).toFixed(DIGITS - 2)} %`;
}

/** A count or a rank (ties share a mean rank such as 5.5): printed as is. */
export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : String(value);
}

/** "2025-01-31 14:05:09 UTC": the same text on the server and in the browser. */
export function formatTime(date: Date | string | null | undefined): string {
  if (!date) return "—";
  const d = typeof date === "string" ? new Date(date) : date;
  return `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}
