/**
 * Plain-JSON description of a dashboard table, rendered by DataTable on the server and turned
 * into CSV by the download button from the very same cells.
 */
import { formatCount, formatNumber, formatP, formatPercent } from "./format";

export interface Cell {
  /** What the table shows. */
  text: string;
  /** The raw number behind the text (data-value attribute, which the CSV download takes); null when undefined. */
  value?: number | null;
  /** A second, smaller line (e.g. "n 18" under a kappa). */
  sub?: string;
  href?: string;
  /** Hover text: reasons for undefined values, full method names. */
  title?: string;
  /** Background intensity, -1 (red) … 1 (green), for heat tables. */
  heat?: number | null;
  /** Progress bar instead of text (CSV: the done fraction). */
  progress?: { done: number; total: number };
  /** Extra data-* attributes (e.g. { n: 18 }). */
  data?: Record<string, string | number>;
  mono?: boolean;
}

export interface Column {
  key: string;
  label: string;
  numeric?: boolean;
  title?: string;
}

export interface Row {
  key: string;
  cells: Cell[];
}

export interface TableData {
  /** Unique on the page: the table's data-testid and anchor. */
  id: string;
  title: string;
  /** Download file name, without ".csv". */
  filename: string;
  columns: Column[];
  rows: Row[];
  /** Shown when there are no rows. */
  empty?: string;
}

/** Makes a file-name-safe slug of the parts ("demo", "REVIEW_RATING", "relevance") → "demo-review_rating-relevance". */
export function fileSlug(...parts: string[]): string {
  return parts
    .map((p) => p.toLowerCase().replace(/[^a-z0-9_.-]+/g, "-").replace(/^-+|-+$/g, ""))
    .filter(Boolean)
    .join("-");
}

// Cell builders.
export const text = (value: string, extra: Partial<Cell> = {}): Cell => ({ text: value, ...extra });
export const num = (value: number | null | undefined, extra: Partial<Cell> = {}): Cell => ({ text: formatNumber(value), value: value ?? null, ...extra });
export const pValue = (value: number | null | undefined, extra: Partial<Cell> = {}): Cell => ({ text: formatP(value), value: value ?? null, ...extra });
export const percent = (value: number | null | undefined, extra: Partial<Cell> = {}): Cell => ({ text: formatPercent(value), value: value ?? null, ...extra });
export const count = (value: number | null | undefined, extra: Partial<Cell> = {}): Cell => ({ text: formatCount(value), value: value ?? null, ...extra });
