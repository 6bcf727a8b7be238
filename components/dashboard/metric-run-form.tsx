"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";

interface Started {
  runId: string;
  status: string;
  total: number;
  done: number;
  resumed: boolean;
  chunks: { total: number; enqueued: number; skipped: number };
}

/** Chooses metrics (and optionally CRScore's τ) and starts a background metric run. */
export function MetricRunForm({ slug, metrics, start }: { slug: string; metrics: { name: string; label: string; embedding: boolean; llm: boolean }[]; start: (input: unknown) => Promise<ActionResult<Started>> }) {
  const router = useRouter();
  const [chosen, setChosen] = useState<string[]>([]);
  const [tau, setTau] = useState("");
  const [tauCalibration, setTauCalibration] = useState("");
  const [chunkSize, setChunkSize] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, run] = useTransition();
  return (
    <form
      aria-label="Start a metric run"
      className="space-y-2 rounded border border-slate-200 bg-white p-3"
      onSubmit={(e) => {
        e.preventDefault();
        run(async () => {
          const result = await start({ slug, metrics: chosen, ...(tau.trim() === "" ? {} : { tau: Number(tau) }), ...(tauCalibration === "" ? {} : { tauCalibration }), ...(chunkSize.trim() === "" ? {} : { chunkSize: Number(chunkSize) }) });
          if (!result.ok) {
            setMessage({ ok: false, text: result.error });
            return;
          }
          const d = result.data;
          setMessage({
            ok: true,
            text: d.status === "DONE" ? `Nothing to compute: all ${d.total} reviews are already scored.` : `${d.resumed ? "Resumed" : "Started"} run: ${d.total - d.done} of ${d.total} reviews to score in ${d.chunks.enqueued} chunk(s).`,
          });
          router.refresh();
        });
      }}
    >
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <legend className="mb-1 text-sm font-medium">Metrics</legend>
        {metrics.map((m) => (
          <label key={m.name} title={m.label}>
            <input
              type="checkbox"
              name="metric"
              value={m.name}
              checked={chosen.includes(m.name)}
              onChange={(e) => setChosen(e.target.checked ? [...chosen, m.name] : chosen.filter((x) => x !== m.name))}
            />{" "}
            {m.name}
            {m.embedding ? " *" : ""}
            {m.llm ? " †" : ""}
          </label>
        ))}
      </fieldset>
      <div className="flex flex-wrap items-end gap-3 text-sm">
        <label>
          CRScore τ <input type="number" step="0.0001" min={0} max={1} value={tau} onChange={(e) => setTau(e.target.value)} placeholder="paper's" className="w-28 rounded border border-slate-300 px-1" />
        </label>
        <label title="CRScore §3.3: τ = 0.7314 for mxbai-embed-large-v1; for another embedder the mean best similarity of the best-rated system's review sentences on the changes nobody annotated; τ_GT uses the human reference reviews instead">
          τ procedure{" "}
          <select value={tauCalibration} onChange={(e) => setTauCalibration(e.target.value)} className="rounded border border-slate-300 bg-white px-1">
            <option value="">{"the paper's (0.7314 for its model, else the best system)"}</option>
            <option value="best-system">{"best system's reviews, always"}</option>
            <option value="gt">τ_GT: human reference reviews</option>
          </select>
        </label>
        <label>
          Reviews per job <input type="number" step="1" min={1} value={chunkSize} onChange={(e) => setChunkSize(e.target.value)} placeholder="1000" className="w-20 rounded border border-slate-300 px-1" />
        </label>
        <button type="submit" disabled={pending || chosen.length === 0} className="rounded bg-slate-900 px-3 py-1 text-white disabled:opacity-50">
          {pending ? "Planning…" : "Start run"}
        </button>
        <span className="text-xs text-slate-500">* uses the embedding provider · † an LLM judge (needs LLM_URL)</span>
      </div>
      {message && (
        <p role={message.ok ? "status" : "alert"} className={`whitespace-pre-line text-sm ${message.ok ? "text-emerald-700" : "text-red-700"}`}>
          {message.text}
        </p>
      )}
    </form>
  );
}
