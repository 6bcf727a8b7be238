"use client";

import { csvLine } from "@/lib/export/csv";

/** A cell's CSV value as DataTable wrote it: its raw number (data-value, "null" when undefined), else its text without the small second line. */
function cellCsvValue(td: HTMLTableCellElement): string | null {
  const value = td.dataset.value;
  if (value !== undefined) return value === "null" ? null : value;
  const copy = td.cloneNode(true) as HTMLElement;
  copy.querySelectorAll("[data-sub]").forEach((e) => e.remove());
  return copy.textContent ?? "";
}

/** A header's text without what is only for the eye (a sortable column's arrow). */
function headerText(th: Element): string {
  const copy = th.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('[aria-hidden="true"]').forEach((e) => e.remove());
  return copy.textContent ?? "";
}

/** The CSV of a table in the page: its header and, cell by cell, its rows. */
function tableCsv(table: HTMLTableElement): string {
  const header = [...table.querySelectorAll("thead th")].map(headerText);
  const rows = [...table.querySelectorAll<HTMLTableRowElement>("tbody tr[data-row]")].map((tr) => [...tr.cells].map(cellCsvValue));
  return [header, ...rows].map((r) => csvLine(r)).join("");
}

/**
 * Builds the CSV in the browser from the table's own cells (the table in the element with id
 * `tableId`) and downloads it; the page carries no second copy of the rows.
 */
export function CsvButton({ tableId, filename, label }: { tableId: string; filename: string; label: string }) {
  return (
    <button
      type="button"
      aria-label={`Download CSV: ${label}`}
      className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-50"
      onClick={() => {
        const table = document.getElementById(tableId)?.querySelector("table");
        if (!table) return;
        const url = URL.createObjectURL(new Blob([tableCsv(table)], { type: "text/csv;charset=utf-8" }));
        const a = document.createElement("a");
        a.href = url;
        a.download = `${filename}.csv`;
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      }}
    >
      Download CSV
    </button>
  );
}
