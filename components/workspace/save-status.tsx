"use client";

import { useEffect, useState } from "react";
import type { OverallStatus, RetryState } from "./autosave";

const TEXT: Record<OverallStatus, string> = {
  idle: "No changes yet",
  pending: "Unsaved changes…",
  saving: "Saving…",
  saved: "All changes saved",
  failed: "Save failed — retrying; your changes are kept",
  conflict: "Conflict — choose which value to keep",
  error: "Not saved",
};

const WAITING: Record<RetryState["reason"], string> = {
  busy: "Server busy",
  offline: "No connection",
  failing: "Save failed",
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

/** Whole seconds until `at`, updated every half second while a retry is waiting. */
function useSecondsUntil(at: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    const first = setTimeout(() => setNow(Date.now()), 0);
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [at]);
  return at === null ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The visible saving / saved / failed state of the autosave, with the wait before a retry. */
export function SaveStatus({ status, retry, detail, onRetry, onDiscard }: { status: OverallStatus; retry: RetryState | null; detail?: string; onRetry: () => void; onDiscard: () => void }) {
  const waiting = status === "failed" ? retry : null;
  const seconds = useSecondsUntil(waiting?.at ?? null);
  return (
    <span className={`inline-flex min-w-[11rem] items-center gap-2 rounded px-2 py-0.5 text-sm ${STYLE[status]}`} role="status" aria-live="polite" data-testid="save-status" data-state={status} data-retry={waiting?.reason}>
      {waiting ? `${WAITING[waiting.reason]}, retrying in ${seconds} s… your changes are kept` : TEXT[status]}
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
