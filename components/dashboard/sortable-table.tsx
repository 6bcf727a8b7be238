"use client";

import { Fragment, type ReactNode, useState } from "react";
import { HeaderCell } from "./table-parts";
import type { Column } from "./table-data";

export interface SortableRow {
  key: string;
  /** The row as the server rendered it. */
  node: ReactNode;
  /** Per column, what it sorts by (table-parts sortKey). */
  keys: (number | string | null)[];
}

type Direction = "ascending" | "descending";

/** Undefined values last in either direction; numbers by value, text in natural order ("item 2" before "item 10"). */
export function compareSortKeys(a: number | string | null, b: number | string | null, direction: Direction): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const order = typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b), undefined, { numeric: true });
  return direction === "ascending" ? order : -order;
}

/**
 * DataTable's table when a column is sortable: the rows come rendered from the server in their
 * given order (which a page without JavaScript keeps), and a header button reorders them.
 */
export function SortableTable({
  columns,
  rows,
  caption,
  foot,
  empty,
  ...attributes
}: {
  columns: Column[];
  rows: SortableRow[];
  caption: ReactNode;
  foot: ReactNode;
  empty: ReactNode;
  className: string;
  "aria-labelledby"?: string;
  "data-testid"?: string;
}) {
  const [sort, setSort] = useState<{ column: number; direction: Direction } | null>(null);
  const shown = sort ? [...rows].sort((a, b) => compareSortKeys(a.keys[sort.column], b.keys[sort.column], sort.direction)) : rows;
  return (
    <table {...attributes}>
      {caption}
      <thead className="bg-slate-100 text-slate-600">
        <tr>
          {columns.map((column, i) => {
            const direction = sort?.column === i ? sort.direction : undefined;
            return (
              <HeaderCell
                key={column.key}
                column={column}
                ariaSort={direction}
                sort={
                  column.sortable
                    ? (label) => (
                        <button type="button" onClick={() => setSort({ column: i, direction: direction === "ascending" ? "descending" : "ascending" })} className="font-medium hover:underline">
                          {label}
                          {/* The header's aria-sort says the order; the arrow is for the eye (and left out of the CSV's header). */}
                          <span aria-hidden="true" className={direction ? "ml-1" : "ml-1 text-slate-400"}>
                            {direction === "ascending" ? "▲" : direction === "descending" ? "▼" : "↕"}
                          </span>
                        </button>
                      )
                    : undefined
                }
              />
            );
          })}
        </tr>
      </thead>
      <tbody>
        {empty}
        {shown.map((row) => (
          <Fragment key={row.key}>{row.node}</Fragment>
        ))}
      </tbody>
      {foot}
    </table>
  );
}
