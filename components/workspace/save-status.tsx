"use client";

import { useEffect, useState } from "react";
import type { OverallStatus, RetryState } from "./autosave";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The badge's words: short, so that every state fits its fixed width. */
const TEXT: Record<OverallStatus, (changes: number, drafts: number) => string> = {
  // Also after a reload, when every answer is stored: "no changes" would read as if nothing were.
  idle: () => "Nothing to save",
  pending: (changes) => `${plural(changes, "unsaved change")}…`,
  saving: () => "Saving…",
  saved: () => "All changes saved",
  failed: () => "Save failed",
  conflict: () => "Conflict: choose a value",
  error: () => "Not saved",
  draft: (_, drafts) => plural(drafts, "unsaved draft"),
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
  draft: "bg-amber-100 text-amber-900",
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

/**
 * The visible saving / saved / failed state of the autosave, saying what is not saved: changes
 * waiting to be sent, and drafts (values that cannot be saved yet, kept in this browser; each
 * named in the tooltip and next to its answer). The badge has one width in every state (no
 * layout shift, WCAG 2.2 AA); the explanation of a failure, the wait before the retry and the
 * buttons open below it, over the page, while the failure lasts.
 */
export function SaveStatus({
  status,
  changes,
  drafts,
  retry,
  detail,
  onRetry,
  onDiscard,
}: {
  status: OverallStatus;
  /** How many changes are not stored yet (waiting, being saved or failed). */
  changes: number;
  /** The drafts: "Review A: kept in this browser until the review has a grade". */
  drafts: string[];
  retry: RetryState | null;
  detail?: string;
  onRetry: () => void;
  onDiscard: () => void;
}) {
  const waiting = status === "failed" ? retry : null;
  const seconds = useSecondsUntil(waiting?.at ?? null);
  const failure = status === "failed" || status === "error";
  const text = waiting ? WAITING[waiting.reason] : TEXT[status](changes, drafts.length);
  const withDrafts = status !== "draft" && drafts.length > 0 ? ` · ${plural(drafts.length, "draft")}` : "";
  return (
    <span
      className={`relative inline-flex w-[12.5rem] shrink-0 items-center rounded px-2 py-0.5 text-sm whitespace-nowrap ${STYLE[status]}`}
      role="status"
      aria-live="polite"
      title={drafts.length > 0 ? `Not saved yet, kept in this browser:\n${drafts.join("\n")}` : undefined}
      data-testid="save-status"
      data-state={status}
      data-retry={waiting?.reason}
    >
      <span className="truncate">
        {text}
        {withDrafts}
      </span>
      {failure && (
        <span className="absolute top-full left-0 z-20 mt-1 flex w-max max-w-[min(28rem,90vw)] flex-wrap items-center gap-x-2 rounded border border-red-300 bg-white px-2 py-1 whitespace-normal text-red-800 shadow" data-testid="save-problem">
          {status === "failed" ? (waiting ? `${WAITING[waiting.reason]}, retrying in ${seconds} s… your changes are kept` : "Save failed, retrying; your changes are kept") : `Not saved${detail ? `: ${detail}` : ""}`}
          <button type="button" onClick={onRetry} className="min-h-6 underline">
            retry now
          </button>
          {status === "error" && (
            <button type="button" onClick={onDiscard} className="min-h-6 underline">
              discard the refused change
            </button>
          )}
        </span>
      )}
    </span>
  );
}
