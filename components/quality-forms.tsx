"use client";

import { useState } from "react";
import { useRun, type Action } from "@/components/action-run";
import { ActionMessage } from "@/components/action-message";

/** How many gold items each queue gets, the minimum accuracy on gold and the minimum seconds per item. */
export function QualitySettingsForm({ slug, initial, save }: { slug: string; initial: { goldPerQueue: number; goldMinAccuracyPercent: number; minSecondsPerItem: number }; save: Action<unknown> }) {
  const { message, pending, run } = useRun();
  const [values, setValues] = useState(initial);
  const field = (key: keyof typeof values, label: string, max?: number) => (
    <label className="text-sm">
      {label}
      <input type="number" min={0} max={max} value={values[key]} onChange={(e) => setValues({ ...values, [key]: Number(e.target.value) })} className="ml-1 w-20 rounded border border-slate-300 px-1" />
    </label>
  );
  return (
    <form
      aria-label="Quality settings"
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        run(save, { slug, ...values }, () => "Settings saved. Generate the assignments again to mix gold items into the queues.");
      }}
    >
      {field("goldPerQueue", "Gold items per queue")}
      {field("goldMinAccuracyPercent", "Minimum accuracy on gold (%)", 100)}
      {field("minSecondsPerItem", "Too fast below (seconds per item)")}
      <button type="submit" disabled={pending} className="rounded bg-blue-700 px-3 py-1 text-sm text-white disabled:opacity-50">
        Save
      </button>
      <ActionMessage message={message} />
    </form>
  );
}

/** Pauses an annotator of the study (they can neither open nor save items) or resumes them. */
export function PauseButton({ slug, annotatorId, name, paused, save }: { slug: string; annotatorId: string; name: string; paused: boolean; save: Action<unknown> }) {
  const { message, pending, run } = useRun();
  return (
    <div className="flex items-center gap-2">
      <button
        type="button"
        disabled={pending}
        onClick={() => run(save, { slug, annotatorId, paused: !paused, reason: paused ? "" : "accuracy on gold items" }, () => (paused ? `${name} resumed.` : `${name} paused.`))}
        className="rounded border border-slate-300 bg-white px-2 py-0.5 text-sm disabled:opacity-50"
      >
        {paused ? `Resume ${name}` : `Pause ${name}`}
      </button>
      <ActionMessage message={message} />
    </div>
  );
}
