"use client";

import { ActionMessage } from "@/components/action-message";
import { useRun, type Action } from "@/components/action-run";

/** Starts a run of the location matcher with k lines, which the worker computes and stores. */
export function MatcherRunForm({ slug, start }: { slug: string; start: Action<{ runId: string; status: string }> }) {
  const { message, pending, submit } = useRun();
  return (
    <form aria-label="Run the location matcher" onSubmit={(event) => submit(start, event, "Queued: the worker computes the run; reload to see it.")} className="flex flex-wrap items-end gap-3">
      <input type="hidden" name="slug" value={slug} />
      <label className="text-sm">
        k (lines apart)
        <input name="k" type="number" min={0} max={10000} step={1} defaultValue={3} required className="ml-2 w-20 rounded border border-slate-300 px-2 py-1" />
      </label>
      <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white disabled:opacity-50">
        Run the location matcher
      </button>
      <ActionMessage message={message} />
    </form>
  );
}
