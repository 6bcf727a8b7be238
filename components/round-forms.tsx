"use client";

import { useState } from "react";
import { Message, useRun, type Action } from "@/components/action-run";
import { commaList } from "@/lib/validation/list";

/** Splits the study into equal calibration rounds, or takes calibration item sets (by name, in order) as rounds. */
export function MakeRoundsForm({ slug, save }: { slug: string; save: Action<{ rounds: number; assignments: number }> }) {
  const { message, pending, run } = useRun();
  const [count, setCount] = useState(3);
  const [sets, setSets] = useState("");
  return (
    <form
      aria-label="Make rounds"
      className="flex flex-wrap items-end gap-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        const itemSets = commaList(sets);
        run(save, itemSets.length ? { slug, itemSets } : { slug, count }, (d) => `${d.rounds} rounds made; ${d.assignments} assignments generated.`);
      }}
    >
      <label>
        Equal rounds
        <input type="number" min={1} value={count} onChange={(e) => setCount(Number(e.target.value))} className="ml-1 w-16 rounded border border-slate-300 px-1" />
      </label>
      <label>
        or calibration item sets, in order
        <input value={sets} onChange={(e) => setSets(e.target.value)} placeholder="batch-1, batch-2" className="ml-1 w-48 rounded border border-slate-300 px-1" />
      </label>
      <button type="submit" disabled={pending} className="rounded bg-blue-700 px-3 py-1 text-white disabled:opacity-50">
        Make rounds
      </button>
      <Message message={message} />
    </form>
  );
}

/** The release rule: the next round opens when the lower CI bound of the coefficient reaches the threshold on every question. */
export function RoundRuleForm({ slug, coefficients, initial, save }: { slug: string; coefficients: Record<string, string>; initial: { coefficient: string; threshold: number | null }; save: Action<unknown> }) {
  const { message, pending, run } = useRun();
  const [coefficient, setCoefficient] = useState(initial.coefficient);
  const [threshold, setThreshold] = useState(initial.threshold === null ? "" : String(initial.threshold));
  return (
    <form
      aria-label="Release rule"
      className="flex flex-wrap items-end gap-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        run(save, { slug, coefficient, threshold }, () => (threshold === "" ? "Rounds are released by hand." : "Rule saved."));
      }}
    >
      <label>
        Release the next round by itself when the lower CI bound of
        <select value={coefficient} onChange={(e) => setCoefficient(e.target.value)} className="ml-1 rounded border border-slate-300 px-1">
          {Object.entries(coefficients).map(([key, label]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        reaches
        <input type="number" step="0.01" min={-1} max={1} value={threshold} onChange={(e) => setThreshold(e.target.value)} placeholder="by hand" className="ml-1 w-20 rounded border border-slate-300 px-1" />
      </label>
      <button type="submit" disabled={pending} className="rounded border border-slate-300 bg-white px-2 py-0.5 disabled:opacity-50">
        Save rule
      </button>
      <Message message={message} />
    </form>
  );
}

/** Notes on the reviewed round and the release of the next one. */
export function ReleaseForm({ slug, number, save }: { slug: string; number: number; save: Action<unknown> }) {
  const { message, pending, run } = useRun();
  const [notes, setNotes] = useState("");
  return (
    <form
      aria-label={`Release round ${number}`}
      className="space-y-2 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        run(save, { slug, number, notes }, () => `Round ${number} released.`);
      }}
    >
      <label className="block">
        Notes on the review of round {number - 1}
        <textarea value={notes} onChange={(e) => setNotes(e.target.value)} rows={2} className="mt-1 block w-full rounded border border-slate-300 p-1" />
      </label>
      <button type="submit" disabled={pending} className="rounded bg-blue-700 px-3 py-1 text-white disabled:opacity-50">
        Release round {number}
      </button>
      <Message message={message} />
    </form>
  );
}
