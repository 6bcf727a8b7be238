/**
 * The description of a table, rendered by DataTable (on the server where it can) and, for the
 * figures a lead copies, turned into CSV by the download button from the very same cells. Plain
 * JSON but for `content`, the interactive cells of the product's pages (links with more, buttons,
 * form controls).
 */
import type { ReactNode } from "react";
import { formatCount, formatNumber, formatP, formatPercent } from "./format";

/** A highlighted row or cell: agreement (green), disagreement (amber), a tie or a problem (red). */
export type Tone = "good" | "warn" | "alert";

export interface Cell {
  /** What the table shows, and what a sortable column sorts by when the cell has no value. */
  text: string;
  /** Shown instead of the text: links with more, badges, buttons, form controls. */
  content?: ReactNode;
  /** The raw number behind the text (data-value attribute, which the CSV download takes); null when undefined. */
  value?: number | null;
  /** A second, smaller line (e.g. "n 18" under a kappa). */
  sub?: string;
  href?: string;
  /** Hover text: reasons for undefined values, full method names. */
  title?: string;
  /** Background intensity, -1 (red) … 1 (green), for heat tables. */
  heat?: number | null;
  /** Progress bar instead of text (CSV: the done fraction); its label defaults to "<column> of <row key>". */
  progress?: { done: number; total: number; label?: string };
  /** Extra data-* attributes (e.g. { n: 18 }, { testid: "status" }). */
  data?: Record<string, string | number | boolean>;
  mono?: boolean;
  tone?: Tone;
}

export interface Column {
  key: string;
  /** The header (and the CSV's). */
  label: string;
  /** A second, smaller header line. */
  sub?: string;
  /** Shown in the header instead of the label (e.g. a "select all" box); the label still names the column. */
  header?: ReactNode;
  /** Right-aligned with tabular digits. */
  numeric?: boolean;
  /** Right-aligned (row actions); numeric columns are anyway. */
  end?: boolean;
  title?: string;
  /** A button in the header sorts the rows by this column (in the browser; the server renders them in the given order). */
  sortable?: boolean;
}

export interface Row {
  key: string;
  cells: Cell[];
  /** The row's element id: a link to `#id` highlights it. */
  id?: string;
  tone?: Tone;
  /** Extra data-* attributes (e.g. { testid: "study-row" }). */
  data?: Record<string, string | number | boolean>;
}

export interface TableData {
  /** Unique on the page: the table's data-testid and anchor. */
  id?: string;
  /** The caption, shown above the table. */
  title?: string;
  /** The caption for assistive technology only, where a heading beside the table already names it. */
  label?: string;
  /** Download file name, without ".csv": a "Download CSV" button beside the title (tables that are figures). */
  filename?: string;
  columns: Column[];
  rows: Row[];
  /** Rows below the body (totals, a summary per column); not sorted. */
  foot?: Row[];
  /** Shown when there are no rows. */
  empty?: string;
  /** A long list: at most about 28rem high, its rows scrolling under the header. */
  scroll?: boolean;
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
/** A run's progress: a bar of `done` of `total` (its value the done fraction, 1 when there is nothing to do). */
export const progress = (done: number, total: number): Cell => ({ text: `${done}/${total}`, value: total === 0 ? 1 : done / total, progress: { done, total } });
/** A cell that shows more than text (a link with a badge, a button, a form control); `text`, if any, is what its column sorts by. */
export const content = (node: ReactNode, extra: Partial<Cell> = {}): Cell => ({ text: "", content: node, ...extra });
