"use client";

import { DataTable } from "@/components/dashboard/data-table";
import { count as countCell, text } from "@/components/dashboard/table-data";
import { useState } from "react";
import { useRun, type Action } from "@/components/action-run";
import { ActionMessage } from "@/components/action-message";
import { PlanEffectText, PreviewBox, usePreview } from "@/components/plan-effect";
import type { RoundsPreview } from "@/lib/data/rounds";
import { commaList } from "@/lib/validation/list";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Splits the study into equal calibration rounds, or takes calibration item sets (by name, in
 * order) as rounds: first a preview of the rounds and of the assignments they create, per
 * annotator and round, then the lead confirms (or changes the input, which drops the preview).
 */
export function MakeRoundsForm({ slug, preview, save }: { slug: string; preview: Action<RoundsPreview>; save: Action<{ rounds: number; assignments: number }> }) {
  const { message, pending, run } = useRun();
  const [count, setCount] = useState(3);
  const [sets, setSets] = useState("");
  const { shown, error, previewing, ask, drop } = usePreview(preview);
  const input = () => {
    const itemSets = commaList(sets);
    return itemSets.length ? { slug, itemSets } : { slug, count };
  };
  const change = (apply: () => void) => {
    apply();
    drop();
  };
  return (
    <div className="space-y-3">
      <form
        aria-label="Make rounds"
        className="flex flex-wrap items-end gap-3 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          ask(input());
        }}
      >
        <label>
          Equal rounds
          <input type="number" min={1} value={count} onChange={(e) => change(() => setCount(Number(e.target.value)))} className="ml-1 w-16 rounded border border-slate-300 px-1" />
        </label>
        <label>
          or calibration item sets, in order
          <input value={sets} onChange={(e) => change(() => setSets(e.target.value))} placeholder="batch-1, batch-2" className="ml-1 w-48 rounded border border-slate-300 px-1" />
        </label>
        <button type="submit" disabled={previewing} className="rounded border border-slate-400 bg-white px-3 py-1 disabled:opacity-50">
          Preview rounds
        </button>
        <ActionMessage message={error} />
      </form>
      {shown && (
        <PreviewBox
          label="Rounds preview"
          testId="rounds-preview"
          confirm={`Make ${plural(shown.rounds.length, "round")} and create ${plural(shown.effect.create, "assignment")}`}
          pending={pending}
          onConfirm={() => run(save, { ...input(), confirm: shown.key }, (d) => `${plural(d.rounds, "round")} made; ${plural(d.assignments, "assignment")} created or moved.`)}
          onCancel={drop}
        >
          <p>
            {plural(shown.rounds.length, "round")} ({shown.rounds.map((r) => `${r.name}: ${plural(r.codeChanges, "code change")}`).join(", ")});{" "}
            {shown.outsideCodeChanges === 0 ? "every code change of the study is in a round." : `${plural(shown.outsideCodeChanges, "code change")} outside the rounds, which open after the last round's release.`}
          </p>
          {shown.annotators.length === 0 ? (
            <p>The study has no active annotators: no assignments are created now (add members, then generate assignments).</p>
          ) : (
            <DataTable
              table={{
                id: "rounds-preview-table",
                label: "Assignments per annotator and round",
                columns: [
                  { key: "annotator", label: "Annotator" },
                  ...shown.rounds.map((r) => ({ key: `round-${r.number}`, label: `Round ${r.number}`, numeric: true })),
                  { key: "outside", label: "Outside rounds", numeric: true },
                  { key: "total", label: "Total", numeric: true },
                ],
                rows: shown.annotators.map((a) => ({
                  key: a.annotatorId,
                  data: { testid: "rounds-preview-annotator" },
                  cells: [text(a.name), ...a.perRound.map((n) => countCell(n)), countCell(a.outside), countCell(a.total)],
                })),
                foot: [{ key: "total", data: { testid: "rounds-preview-total" }, cells: [text("All annotators"), ...shown.perRound.map((n) => countCell(n)), countCell(shown.outside), countCell(shown.total)] }],
              }}
            />
          )}
          <PlanEffectText effect={shown.effect} testId="rounds-preview-changes" />
        </PreviewBox>
      )}
      <ActionMessage message={message} />
    </div>
  );
}

/** Opens the items outside every round before the last round's release. */
export function OpenOutsideRoundsButton({ slug, save }: { slug: string; save: Action<unknown> }) {
  const { message, pending, run } = useRun();
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button type="button" disabled={pending} onClick={() => run(save, { slug }, () => "Items outside the rounds are open.")} className="rounded border border-slate-400 bg-white px-2 py-0.5 text-sm disabled:opacity-50">
        Open items outside rounds now
      </button>
      <ActionMessage message={message} />
    </span>
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
      <ActionMessage message={message} />
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
      <ActionMessage message={message} />
    </form>
  );
}
