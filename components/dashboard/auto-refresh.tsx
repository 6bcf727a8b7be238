"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";

/**
 * Re-renders the server page (which recomputes its report when the data changed) `seconds`
 * after the last render arrived, while the tab is visible, and on demand: dashboards follow
 * the annotations as they arrive. Refreshes never overlap, however long a report takes.
 */
export function AutoRefresh({ seconds, computedAt, enabled = true, label = "Auto-refresh", note }: { seconds: number; computedAt: string; enabled?: boolean; label?: string; note?: string }) {
  const router = useRouter();
  const [on, setOn] = useState(enabled);
  const [pending, start] = useTransition();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (!on) return;
    const tick = () => {
      if (document.visibilityState === "visible") start(() => router.refresh());
      else timer.current = setTimeout(tick, seconds * 1000);
    };
    timer.current = setTimeout(tick, seconds * 1000);
    return () => clearTimeout(timer.current);
    // computedAt: each new render schedules the next refresh.
  }, [on, seconds, router, computedAt]);
  return (
    <div className="flex flex-wrap items-center gap-3 text-xs text-slate-600" data-testid="auto-refresh">
      <span>
        Computed <span data-testid="computed-at">{computedAt}</span>
        {pending ? " · refreshing…" : ""}
      </span>
      <label>
        <input type="checkbox" checked={on} onChange={(e) => setOn(e.target.checked)} /> {label} every {seconds} s
      </label>
      <button type="button" onClick={() => start(() => router.refresh())} disabled={pending} className="rounded border border-slate-300 bg-white px-2 py-0.5 hover:bg-slate-50 disabled:opacity-50">
        Refresh now
      </button>
      {note && <span className="text-amber-800">{note}</span>}
    </div>
  );
}
