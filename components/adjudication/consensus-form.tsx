"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { NEXT_DISAGREEMENT_ID } from "./next-disagreement";

type Value = string | number;
type Consensus = { value: Value; source: "unanimous" | "adjudicated"; reason: string; version: number; gold: boolean };

/**
 * The lead's consensus value of one question of an item, with the reason; saving names the
 * version it was based on. Nothing is chosen for the lead where the annotators disagree.
 */
export function ConsensusForm({
  input,
  label,
  scale,
  split,
  tie,
  current,
  save,
}: {
  input: { slug: string; task: string; itemId: string; question: string };
  label: string;
  scale: Value[];
  /** How the annotators' values split ("annotators agree", "tie 1–1: no majority", …). */
  split: string;
  tie: boolean;
  current: Consensus | null;
  save: (input: unknown) => Promise<ActionResult<{ id: string; version: number }>>;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [value, setValue] = useState<string>(current ? String(current.value) : "");
  const [reason, setReason] = useState(current?.reason ?? "");
  const [gold, setGold] = useState(current?.gold ?? false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  // The decision just saved, shown until the page's refresh brings it (or a later version).
  const [saved, setSaved] = useState<Consensus | null>(null);
  const shown = saved && saved.version > (current?.version ?? 0) ? saved : current;
  const submit = () =>
    start(async () => {
      const chosen = scale.find((v) => String(v) === value);
      if (chosen === undefined) return setMessage({ ok: false, text: "Choose a value." });
      const result = await save({ ...input, value: chosen, reason, baseVersion: shown?.version ?? 0, gold });
      setMessage(result.ok ? { ok: true, text: `Saved (version ${result.data.version}).` } : { ok: false, text: result.error });
      if (result.ok) {
        setSaved({ value: chosen, source: "adjudicated", reason, version: result.data.version, gold });
        router.refresh();
        document.getElementById(NEXT_DISAGREEMENT_ID)?.focus();
      }
    });
  return (
    <form
      aria-label={`Consensus: ${label}`}
      className="space-y-2 rounded border border-slate-200 bg-white p-3"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span className="font-medium">{label}</span>
        <span className="text-slate-500" data-testid="consensus-current">
          {shown ? (shown.source === "adjudicated" ? `decided: ${shown.value} (version ${shown.version})${shown.gold ? " · gold" : ""}` : `unanimous: ${shown.value}`) : "no consensus yet"}
        </span>
        <span className={`rounded px-1 text-xs font-medium ${tie ? "bg-red-200 text-red-950" : "bg-slate-100 text-slate-700"}`} data-testid="consensus-split">
          {split}
          {tie && !shown ? ": choose the value, there is no default" : ""}
        </span>
      </div>
      <fieldset className="flex flex-wrap gap-3 text-sm">
        <legend className="sr-only">Consensus value</legend>
        {scale.map((v) => (
          <label key={String(v)} className="flex items-center gap-1">
            <input type="radio" name={`consensus-${input.question}`} value={String(v)} checked={value === String(v)} onChange={() => setValue(String(v))} />
            {String(v)}
          </label>
        ))}
      </fieldset>
      <label className="block text-sm">
        Reason
        <textarea className="mt-1 block w-full rounded border border-slate-300 p-1" rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      <label className="flex items-center gap-1 text-sm">
        <input type="checkbox" checked={gold} onChange={(e) => setGold(e.target.checked)} />
        Gold: a known answer, checked against annotators&apos; answers (the item is mixed into queues and left out of agreement and exports)
      </label>
      <button type="submit" disabled={pending} className="rounded bg-blue-700 px-3 py-1 text-sm text-white disabled:opacity-50">
        {pending ? "Saving…" : "Save consensus"}
      </button>
      {message && (
        <p role={message.ok ? "status" : "alert"} className={message.ok ? "text-sm text-green-700" : "text-sm text-red-700"}>
          {message.text}
        </p>
      )}
    </form>
  );
}
