"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { ActionMessage } from "@/components/action-message";

interface Started {
  runs: { runId: string; source: string; status: string; total: number; done: number; resumed: boolean; enqueued: number }[];
}

/** Starts (or resumes) the generation of smells, claims or both. */
export function PseudoRefRunForm({ slug, start }: { slug: string; start: (input: unknown) => Promise<ActionResult<Started>> }) {
  const router = useRouter();
  const [source, setSource] = useState("smells");
  const [temperature, setTemperature] = useState("");
  const [seed, setSeed] = useState("");
  const [budget, setBudget] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, run] = useTransition();
  const optional = (name: string, value: string) => (value.trim() === "" ? {} : { [name]: Number(value) });
  return (
    <form
      aria-label="Generate pseudo-references"
      className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        run(async () => {
          const result = await start({ slug, source, ...optional("temperature", temperature), ...optional("seed", seed), ...optional("budgetUsd", budget) });
          if (!result.ok) return setMessage({ ok: false, text: result.error });
          setMessage({
            ok: true,
            text: result.data.runs.map((r) => (r.status === "DONE" ? `${r.source}: nothing to do, all ${r.total} code changes are done.` : `${r.source}: ${r.resumed ? "resumed" : "started"}, ${r.enqueued} of ${r.total} code changes queued.`)).join("\n"),
          });
          router.refresh();
        });
      }}
    >
      <label>
        Source{" "}
        <select value={source} onChange={(e) => setSource(e.target.value)} className="rounded border border-slate-300 px-1">
          <option value="smells">smells (static analysis)</option>
          <option value="claims">claims and implications (LLM)</option>
          <option value="all">both</option>
        </select>
      </label>
      <label>
        Temperature <input type="number" step="0.1" min={0} max={2} value={temperature} onChange={(e) => setTemperature(e.target.value)} placeholder="0" className="w-16 rounded border border-slate-300 px-1" />
      </label>
      <label>
        Seed <input type="number" step="1" value={seed} onChange={(e) => setSeed(e.target.value)} placeholder="none" className="w-20 rounded border border-slate-300 px-1" />
      </label>
      <label>
        Budget (USD) <input type="number" step="0.01" min={0} value={budget} onChange={(e) => setBudget(e.target.value)} placeholder="none" className="w-20 rounded border border-slate-300 px-1" />
      </label>
      <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-1 text-white disabled:opacity-50">
        {pending ? "Planning…" : "Generate"}
      </button>
      <ActionMessage message={message} />
    </form>
  );
}

/** Edits the study's claim-generation prompt ("" restores the product's). */
export function ClaimPromptForm({ slug, prompt, custom, save }: { slug: string; prompt: string; custom: boolean; save: (input: unknown) => Promise<ActionResult<{ custom: boolean }>> }) {
  const router = useRouter();
  const [text, setText] = useState(prompt);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, run] = useTransition();
  const submit = (value: string) =>
    run(async () => {
      const result = await save({ slug, prompt: value });
      if (!result.ok) return setMessage({ ok: false, text: result.error });
      setMessage({ ok: true, text: result.data.custom ? "Saved the study's own prompt." : "The study uses the product's prompt." });
      router.refresh();
    });
  return (
    <form
      aria-label="Claim prompt"
      className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        submit(text);
      }}
    >
      <label className="block font-medium" htmlFor="claim-prompt">
        Claim-generation prompt ({custom ? "the study's own" : "the product's"}; {"{{language}}"}, {"{{file_path}}"} and {"{{diff}}"} are filled in)
      </label>
      <textarea id="claim-prompt" value={text} onChange={(e) => setText(e.target.value)} rows={12} className="w-full rounded border border-slate-300 p-1 font-mono text-xs" />
      <div className="flex gap-2">
        <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-1 text-white disabled:opacity-50">
          Save prompt
        </button>
        {custom && (
          <button type="button" disabled={pending} onClick={() => submit("")} className="rounded border border-slate-300 px-3 py-1">
            Use the product&apos;s prompt
          </button>
        )}
      </div>
      <ActionMessage message={message} />
    </form>
  );
}
