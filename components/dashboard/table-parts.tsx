/** The pieces DataTable renders, shared by its server path and the sortable table in the browser. */
import Link from "next/link";
import type { CSSProperties, ReactNode } from "react";
import { ProgressBar } from "@/components/progress-bar";
import type { Cell, Column, Row, Tone } from "./table-data";

export const TONE: Record<Tone, string> = { good: "bg-emerald-50", warn: "bg-amber-50", alert: "bg-red-50" };

/** Green for agreement, red for disagreement, transparent around 0 or when undefined. */
function heatStyle(heat: number | null | undefined): CSSProperties | undefined {
  if (heat === null || heat === undefined || !Number.isFinite(heat)) return undefined;
  const v = Math.max(-1, Math.min(1, heat));
  return { backgroundColor: v >= 0 ? `rgba(16, 185, 129, ${(0.08 + 0.5 * v).toFixed(3)})` : `rgba(239, 68, 68, ${(0.08 + 0.5 * -v).toFixed(3)})` };
}

/** data-* attributes from a record ({ testid: "x" } → data-testid="x"). */
function dataAttributes(data: Record<string, string | number | boolean> | undefined): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const [k, v] of Object.entries(data ?? {})) attrs[`data-${k}`] = String(v);
  return attrs;
}

/** The cell's hover text, heat colour and data-* attributes; only those it has (an absent one would still weigh in the page's payload). */
function cellAttributes(cell: Cell): { title?: string; style?: CSSProperties } & Record<string, unknown> {
  const attrs: { title?: string; style?: CSSProperties } & Record<string, unknown> = dataAttributes(cell.data);
  if (cell.title !== undefined) attrs.title = cell.title;
  const style = heatStyle(cell.heat);
  if (style) attrs.style = style;
  if (cell.value !== undefined) attrs["data-value"] = cell.value === null ? "null" : String(cell.value);
  return attrs;
}

const alignClass = (column: Column) => (column.numeric ? "text-right tabular-nums" : column.end ? "text-right" : "");

function CellContent({ cell, label }: { cell: Cell; label: string }) {
  if (cell.progress) return <ProgressBar done={cell.progress.done} total={cell.progress.total} label={cell.progress.label ?? label} />;
  const main =
    cell.content !== undefined ? (
      cell.content
    ) : cell.href ? (
      <Link href={cell.href} className="text-blue-700 hover:underline">
        {cell.text}
      </Link>
    ) : (
      cell.text
    );
  return (
    <>
      {main}
      {cell.sub && (
        <span data-sub className="block text-xs text-slate-700">
          {cell.sub}
        </span>
      )}
    </>
  );
}

/** A column's header; `sort` is the sortable table's button in place of the plain label. */
export function HeaderCell({ column, sort, ariaSort }: { column: Column; sort?: (label: ReactNode) => ReactNode; ariaSort?: "ascending" | "descending" }) {
  const label = (
    <>
      {column.header ?? column.label}
      {column.sub && <span className="block text-xs font-normal">{column.sub}</span>}
    </>
  );
  return (
    <th scope="col" data-col={column.key} title={column.title} aria-label={column.header === undefined ? undefined : column.label} aria-sort={ariaSort} className={`px-2 py-1 font-medium ${alignClass(column)}`}>
      {sort ? sort(label) : label}
    </th>
  );
}

/** One row: its cells under their columns, its tone, id and data-* attributes. */
export function BodyRow({ row, columns }: { row: Row; columns: Column[] }) {
  return (
    <tr id={row.id} data-row={row.key} className={`border-t border-slate-100 target:bg-amber-50 ${row.tone ? TONE[row.tone] : ""}`} {...dataAttributes(row.data)}>
      {row.cells.map((cell, i) => {
        const column = columns[i];
        return (
          <td
            key={column.key}
            data-col={column.key}
            className={`px-2 py-1 align-top ${alignClass(column)} ${cell.mono ? "font-mono text-xs" : ""} ${cell.tone ? TONE[cell.tone] : ""}`}
            {...cellAttributes(cell)}
          >
            <CellContent cell={cell} label={`${column.label} of ${row.key}`} />
          </td>
        );
      })}
    </tr>
  );
}

/** What a sortable column orders a cell by: its raw number, a progress's done fraction, else its text. */
export function sortKey(cell: Cell): number | string | null {
  if (cell.value !== undefined) return cell.value;
  if (cell.progress) return cell.progress.total === 0 ? null : cell.progress.done / cell.progress.total;
  return cell.text;
}
