import type { ReactNode } from "react";
import { CsvButton } from "./csv-button";
import { SortableTable } from "./sortable-table";
import { BodyRow, HeaderCell, sortKey } from "./table-parts";
import type { TableData } from "./table-data";

/**
 * The product's table: a caption (the title, with a "Download CSV" button producing exactly its
 * cells when the table has a file name, or a label for assistive technology), column headers,
 * the rows or the empty state, and footer rows. Rendered on the server; only a table with a
 * sortable column takes its header buttons to the browser.
 */
export function DataTable({ table, note }: { table: TableData; note?: ReactNode }) {
  const { id, title, columns } = table;
  const titleId = id && title ? `${id}-title` : undefined;
  const caption =
    title !== undefined ? (
      <caption className="pb-1 text-left">
        <span className="flex flex-wrap items-center justify-between gap-2">
          <span className="text-sm font-medium text-slate-800" id={titleId}>
            {title}
          </span>
          {id && table.filename && <CsvButton tableId={id} filename={table.filename} label={title} />}
        </span>
        {note && <span className="block text-xs font-normal text-slate-500">{note}</span>}
      </caption>
    ) : table.label !== undefined ? (
      <caption className="sr-only">{table.label}</caption>
    ) : null;
  const empty = table.rows.length === 0 && (
    <tr>
      <td colSpan={columns.length} className="px-2 py-2 text-slate-500">
        {table.empty ?? "No data yet."}
      </td>
    </tr>
  );
  const foot = table.foot && table.foot.length > 0 && (
    <tfoot className="border-t border-slate-200 font-medium">
      {table.foot.map((row) => (
        <BodyRow key={row.key} row={row} columns={columns} />
      ))}
    </tfoot>
  );
  const attributes = { "aria-labelledby": titleId, "data-testid": id, className: "w-full rounded border border-slate-200 bg-white text-left text-sm" };
  return (
    // Scrolls sideways when wider than the page; focusable so the keyboard can scroll it too.
    <div className={table.scroll ? "max-h-[28rem] overflow-auto [&_thead]:sticky [&_thead]:top-0" : "overflow-x-auto"} id={id} tabIndex={0}>
      {columns.some((c) => c.sortable) ? (
        <SortableTable
          {...attributes}
          columns={columns}
          rows={table.rows.map((row) => ({ key: row.key, node: <BodyRow row={row} columns={columns} />, keys: row.cells.map(sortKey) }))}
          caption={caption}
          foot={foot}
          empty={empty}
        />
      ) : (
        <table {...attributes}>
          {caption}
          <thead className="bg-slate-100 text-slate-600">
            <tr>
              {columns.map((column) => (
                <HeaderCell key={column.key} column={column} />
              ))}
            </tr>
          </thead>
          <tbody>
            {empty}
            {table.rows.map((row) => (
              <BodyRow key={row.key} row={row} columns={columns} />
            ))}
          </tbody>
          {foot}
        </table>
      )}
    </div>
  );
}
