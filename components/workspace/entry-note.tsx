"use client";

import type { Entry } from "./autosave";

/** Per-annotation save state, shown next to its controls when it is not simply saved. */
export function EntryNote({ entry }: { entry: Entry | undefined }) {
  if (!entry) return null;
  switch (entry.status) {
    case "invalid":
      return <span className="text-xs text-amber-700">not saved yet: {entry.message}</span>;
    case "failed":
      return <span className="text-xs text-red-700">save failed, retrying</span>;
    case "error":
      return <span className="text-xs text-red-700">not saved: {entry.message}</span>;
    case "conflict":
      return <span className="text-xs font-medium text-red-700">conflict (see above)</span>;
    case "saving":
    case "pending":
      return <span className="text-xs text-slate-500">saving…</span>;
    default:
      return null;
  }
}
