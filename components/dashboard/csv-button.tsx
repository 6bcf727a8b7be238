"use client";

import { csvLine } from "@/lib/export/csv";
import type { CsvValue } from "./table-data";

/** Builds the CSV in the browser from the table's own cells and downloads it. */
export function CsvButton({ filename, header, rows, label }: { filename: string; header: string[]; rows: CsvValue[][]; label: string }) {
  return (
    <button
      type="button"
      aria-label={`Download CSV: ${label}`}
      className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-50"
      onClick={() => {
        const csv = [header, ...rows].map((r) => csvLine(r)).join("");
        const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
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
