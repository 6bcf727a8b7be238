"use client";

import { useState, useTransition, type ReactNode } from "react";
import type { Action } from "@/components/action-run";
import type { GeneratePreview } from "@/lib/data/assignment-admin";

/**
 * A preview of what an action would do, asked of the server (`ask`), shown until the lead
 * confirms it, cancels it or changes the input (`drop`): the rounds and the assignments pages.
 */
export function usePreview<P>(preview: Action<P>) {
  const [shown, setShown] = useState<P | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [previewing, start] = useTransition();
  const ask = (input: unknown) =>
    start(async () => {
      const result = await preview(input);
      setShown(result.ok ? result.data : null);
      setError(result.ok ? null : result.error);
    });
  return { shown, error: error === null ? null : { ok: false, text: error }, previewing, ask, drop: () => setShown(null) };
}

/** The preview's box: what it shows, then the button that confirms it and Cancel. */
export function PreviewBox({ label, testId, confirm, pending, onConfirm, onCancel, children }: { label: string; testId: string; confirm: string; pending: boolean; onConfirm: () => void; onCancel: () => void; children: ReactNode }) {
  return (
    <section aria-label={label} className="space-y-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm" data-testid={testId}>
      {children}
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" disabled={pending} onClick={onConfirm} className="rounded bg-blue-700 px-3 py-1 text-white disabled:opacity-50">
          {confirm}
        </button>
        <button type="button" onClick={onCancel} className="rounded border border-slate-400 bg-white px-3 py-1">
          Cancel
        </button>
      </div>
    </section>
  );
}

/** What a previewed plan does to the stored assignments. */
export function PlanEffectText({ effect, testId }: { effect: GeneratePreview["effect"]; testId: string }) {
  return (
    <p data-testid={testId}>
      Assignments: {effect.create} new, {effect.update} moved in their queues, {effect.remove} unopened removed, {effect.keep} started kept.
    </p>
  );
}
