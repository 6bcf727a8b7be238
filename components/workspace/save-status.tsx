"use client";

import type { OverallStatus } from "./autosave";

const TEXT: Record<OverallStatus, string> = {
  idle: "No changes yet",
  pending: "Unsaved changes…",
  saving: "Saving…",
  saved: "All changes saved",
  failed: "Save failed — retrying; your changes are kept",
  conflict: "Conflict — choose which value to keep",
  error: "Not saved",
};

const STYLE: Record<OverallStatus, string> = {
  idle: "bg-slate-100 text-slate-600",
  pending: "bg-amber-50 text-amber-800",
  saving: "bg-sky-50 text-sky-800",
  saved: "bg-emerald-50 text-emerald-800",
  failed: "bg-red-100 text-red-800",
  conflict: "bg-red-100 text-red-800",
  error: "bg-red-100 text-red-800",
};

/** The visible saving / saved / failed state of the autosave. */
export function SaveStatus({ status, detail, onRetry, onDiscard }: { status: OverallStatus; detail?: string; onRetry: () => void; onDiscard: () => void }) {
  return (
    <span className={`inline-flex items-center gap-2 rounded px-2 py-0.5 text-sm ${STYLE[status]}`} role="status" aria-live="polite" data-testid="save-status" data-state={status}>
      {TEXT[status]}
      {status === "error" && detail ? `: ${detail}` : ""}
      {(status === "failed" || status === "error") && (
        <button type="button" onClick={onRetry} className="underline">
          retry now
        </button>
      )}
      {status === "error" && (
        <button type="button" onClick={onDiscard} className="underline">
          discard the refused change
        </button>
      )}
    </span>
  );
}
