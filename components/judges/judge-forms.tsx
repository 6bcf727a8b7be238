"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { ActionMessage } from "@/components/action-message";

type Act<T> = (input: unknown) => Promise<ActionResult<T>>;
type Message = { ok: boolean; text: string } | null;

const optional = (name: string, value: string) => (value.trim() === "" ? {} : { [name]: Number(value) });

/** Puts an unfinished judge run back on the queue; it resumes with the items not answered yet. */
export function ResumeRunButton({ slug, runId, resume }: { slug: string; runId: string; resume: Act<{ status: string }> }) {
  const router = useRouter();
  const [message, setMessage] = useState<Message>(null);
  const [pending, run] = useTransition();
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        disabled={pending}
        className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs disabled:opacity-50"
        onClick={() =>
          run(async () => {
            const result = await resume({ slug, runId });
            setMessage(result.ok ? { ok: true, text: "Queued." } : { ok: false, text: result.error });
            router.refresh();
          })
        }
      >
        Resume
      </button>
      <ActionMessage message={message} />
    </span>
  );
}

export interface EditorVersion {
  version: string;
  text: string;
  preset: string;
  createdAt: string | null;
}

/**
 * A question's prompt: edit or paste a text, store it as a new version (its variables checked:
 * an unknown one is named), preview it on an item of the study (no LLM call), and run a version.
 */
export function PromptEditor({
  slug,
  task,
  question,
  versions,
  defaultModel,
  save,
  preview,
  start,
}: {
  slug: string;
  task: string;
  question: string;
  versions: EditorVersion[];
  defaultModel: string;
  save: Act<{ version: string; stored: boolean }>;
  preview: Act<{ item: number; itemId: string; prompt: string }>;
  start: Act<{ runId: string; status: string; total: number; resumed: boolean }>;
}) {
  const router = useRouter();
  const [text, setText] = useState(versions[0]?.text ?? "");
  const [item, setItem] = useState("1");
  const [shown, setShown] = useState<{ item: number; itemId: string; prompt: string } | null>(null);
  const [saved, setSaved] = useState<Message>(null);
  const [previewed, setPreviewed] = useState<Message>(null);
  const [version, setVersion] = useState(versions[0]?.version ?? "");
  const [model, setModel] = useState(defaultModel);
  const [name, setName] = useState("");
  const [trials, setTrials] = useState("");
  const [temperature, setTemperature] = useState("");
  const [budget, setBudget] = useState("");
  const [started, setStarted] = useState<Message>(null);
  const [pending, act] = useTransition();
  const base = { slug, task, question };
  return (
    <div className="space-y-4">
      <form
        aria-label="Prompt template"
        className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          act(async () => {
            const result = await save({ ...base, text });
            if (!result.ok) return setSaved({ ok: false, text: result.error });
            setSaved({ ok: true, text: `${result.data.stored ? "Stored as version" : "Already stored as version"} ${result.data.version.slice(0, 12)}.` });
            setVersion(result.data.version);
            router.refresh();
          });
        }}
      >
        <label className="block font-medium" htmlFor="prompt-text">
          Template (edit a version or paste any text; variables as {"{{name}}"})
        </label>
        <textarea id="prompt-text" value={text} onChange={(e) => setText(e.target.value)} rows={14} className="w-full rounded border border-slate-300 p-1 font-mono text-xs" />
        <div className="flex flex-wrap items-end gap-2">
          <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-1 text-white disabled:opacity-50">
            Save as a new version
          </button>
          <label>
            Item <input type="number" min={1} value={item} onChange={(e) => setItem(e.target.value)} className="w-20 rounded border border-slate-300 px-1" />
          </label>
          <button
            type="button"
            disabled={pending}
            className="rounded border border-slate-300 px-3 py-1 disabled:opacity-50"
            onClick={() =>
              act(async () => {
                const result = await preview({ ...base, text, item: Number(item) || 1 });
                if (!result.ok) {
                  setShown(null);
                  return setPreviewed({ ok: false, text: result.error });
                }
                setPreviewed(null);
                setShown(result.data);
              })
            }
          >
            Preview
          </button>
        </div>
        <ActionMessage message={saved} />
        <ActionMessage message={previewed} />
        {shown && (
          <figure className="space-y-1" data-testid="prompt-preview">
            <figcaption className="text-xs text-slate-600">
              What the judge would be sent for item {shown.item} (<code>{shown.itemId}</code>):
            </figcaption>
            <pre className="max-h-96 overflow-auto whitespace-pre-wrap rounded border border-slate-200 bg-slate-50 p-2 text-xs">{shown.prompt}</pre>
          </figure>
        )}
      </form>
      <form
        aria-label="Run a judge"
        className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          act(async () => {
            const result = await start({ ...base, promptVersion: version, model, ...(name.trim() ? { name: name.trim() } : {}), ...optional("trials", trials), ...optional("temperature", temperature), ...optional("budgetUsd", budget) });
            if (!result.ok) return setStarted({ ok: false, text: result.error });
            setStarted({ ok: true, text: `${result.data.resumed ? "Resumed" : "Queued"}: ${result.data.total} items for the worker. Follow it in the judge lab.` });
            router.refresh();
          });
        }}
      >
        <label>
          Version{" "}
          <select value={version} onChange={(e) => setVersion(e.target.value)} className="rounded border border-slate-300 px-1 font-mono text-xs">
            {versions.map((v) => (
              <option key={v.version} value={v.version}>
                {v.version.slice(0, 12)} ({v.preset || "study's own"})
              </option>
            ))}
          </select>
        </label>
        <label>
          Model <input value={model} onChange={(e) => setModel(e.target.value)} required className="w-40 rounded border border-slate-300 px-1" />
        </label>
        <label>
          Rater name <input value={name} onChange={(e) => setName(e.target.value)} placeholder="model-version" className="w-40 rounded border border-slate-300 px-1" />
        </label>
        <label>
          Trials <input type="number" min={1} max={20} value={trials} onChange={(e) => setTrials(e.target.value)} placeholder="1" className="w-14 rounded border border-slate-300 px-1" />
        </label>
        <label>
          Temperature <input type="number" step="0.1" min={0} max={2} value={temperature} onChange={(e) => setTemperature(e.target.value)} placeholder="0" className="w-16 rounded border border-slate-300 px-1" />
        </label>
        <label>
          Budget (USD) <input type="number" step="0.01" min={0} value={budget} onChange={(e) => setBudget(e.target.value)} placeholder="none" className="w-20 rounded border border-slate-300 px-1" />
        </label>
        <button type="submit" disabled={pending || !version} className="rounded bg-slate-900 px-3 py-1 text-white disabled:opacity-50">
          Run
        </button>
        <ActionMessage message={started} />
      </form>
    </div>
  );
}
