import Link from "next/link";
import type { CSSProperties, ReactNode } from "react";
import { ProgressBar } from "@/components/progress-bar";
import { CsvButton } from "./csv-button";
import type { Cell, TableData } from "./table-data";

/** Green for agreement, red for disagreement, transparent around 0 or when undefined. */
function heatStyle(heat: number | null | undefined): CSSProperties | undefined {
  if (heat === null || heat === undefined || !Number.isFinite(heat)) return undefined;
  const v = Math.max(-1, Math.min(1, heat));
  return { backgroundColor: v >= 0 ? `rgba(16, 185, 129, ${(0.08 + 0.5 * v).toFixed(3)})` : `rgba(239, 68, 68, ${(0.08 + 0.5 * -v).toFixed(3)})` };
}

/** The cell's hover text, heat colour and data-* attributes; only those it has (an absent one would still weigh in the page's payload). */
function cellAttributes(cell: Cell): { title?: string; style?: CSSProperties } & Record<string, unknown> {
  const attrs: { title?: string; style?: CSSProperties } & Record<string, unknown> = {};
  if (cell.title !== undefined) attrs.title = cell.title;
  const style = heatStyle(cell.heat);
  if (style) attrs.style = style;
  if (cell.value !== undefined) attrs["data-value"] = cell.value === null ? "null" : String(cell.value);
  for (const [k, v] of Object.entries(cell.data ?? {})) attrs[`data-${k}`] = String(v);
  return attrs;
}

function CellContent({ cell, label }: { cell: Cell; label: string }) {
  if (cell.progress) return <ProgressBar done={cell.progress.done} total={cell.progress.total} label={label} />;
  const main = cell.href ? (
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

/** A table with its title and a "Download CSV" button producing exactly its cells (raw numbers). */
export function DataTable({ table, note }: { table: TableData; note?: ReactNode }) {
  return (
    <div className="space-y-1" id={table.id}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="text-sm font-medium text-slate-800" id={`${table.id}-title`}>
          {table.title}
        </h4>
        <CsvButton tableId={table.id} filename={table.filename} label={table.title} />
      </div>
      {note && <div className="text-xs text-slate-500">{note}</div>}
      <div className="overflow-x-auto" tabIndex={0}>
        <table aria-labelledby={`${table.id}-title`} data-testid={table.id} className="w-full rounded border border-slate-200 bg-white text-left text-sm">
          <thead className="bg-slate-100 text-slate-600">
            <tr>
              {table.columns.map((c) => (
                <th key={c.key} scope="col" data-col={c.key} title={c.title} className={`px-2 py-1 font-medium ${c.numeric ? "text-right" : ""}`}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.length === 0 && (
              <tr>
                <td colSpan={table.columns.length} className="px-2 py-2 text-slate-500">
                  {table.empty ?? "No data yet."}
                </td>
              </tr>
            )}
            {table.rows.map((row) => (
              <tr key={row.key} data-row={row.key} className="border-t border-slate-100">
                {row.cells.map((cell, i) => {
                  const column = table.columns[i];
                  return (
                    <td
                      key={column.key}
                      data-col={column.key}
                      className={`px-2 py-1 align-top ${column.numeric ? "text-right tabular-nums" : ""} ${cell.mono ? "font-mono text-xs" : ""}`}
                      {...cellAttributes(cell)}
                    >
                      <CellContent cell={cell} label={`${column.label} of ${row.key}`} />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
