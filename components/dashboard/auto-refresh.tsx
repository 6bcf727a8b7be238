"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";

/**
 * Re-renders the server page (which recomputes its report) every `seconds` while the tab is
 * visible, and on demand: dashboards follow the annotations as they arrive.
 */
export function AutoRefresh({ seconds, computedAt, enabled = true, label = "Auto-refresh" }: { seconds: number; computedAt: string; enabled?: boolean; label?: string }) {
  const router = useRouter();
  const [on, setOn] = useState(enabled);
  const [pending, start] = useTransition();
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") start(() => router.refresh());
    }, seconds * 1000);
    return () => clearInterval(timer);
  }, [on, seconds, router]);
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
    </div>
  );
}
