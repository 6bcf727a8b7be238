"use client";

import { useState } from "react";
import { useRun, type Action } from "@/components/action-run";
import { ActionMessage } from "@/components/action-message";
import { PlanEffectText, PreviewBox, usePreview } from "@/components/plan-effect";
import type { GeneratePreview } from "@/lib/data/assignment-admin";

export function SettingsForm({
  slug,
  initial,
  save,
}: {
  slug: string;
  initial: { annotatorsPerItem: number; reliabilitySetSize: number; assignmentSeed: number };
  save: Action<unknown>;
}) {
  const { message, pending, run } = useRun();
  const [values, setValues] = useState(initial);
  return (
    <form
      aria-label="Assignment settings"
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        run(save, { slug, ...values }, () => "Settings saved.");
      }}
    >
      <label className="text-sm">
        Annotators per item
        <input type="number" min={1} value={values.annotatorsPerItem} onChange={(e) => setValues({ ...values, annotatorsPerItem: Number(e.target.value) })} className="ml-1 w-16 rounded border border-slate-300 px-1" />
      </label>
      <label className="text-sm">
        Reliability set size
        <input type="number" min={0} value={values.reliabilitySetSize} onChange={(e) => setValues({ ...values, reliabilitySetSize: Number(e.target.value) })} className="ml-1 w-16 rounded border border-slate-300 px-1" />
      </label>
      <label className="text-sm">
        Seed
        <input type="number" min={0} value={values.assignmentSeed} onChange={(e) => setValues({ ...values, assignmentSeed: Number(e.target.value) })} className="ml-1 w-24 rounded border border-slate-300 px-1" />
      </label>
      <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-1 text-sm text-white disabled:opacity-50">
        Save settings
      </button>
      <ActionMessage message={message} />
    </form>
  );
}

/**
 * Generates the study's assignments for the chosen annotators: first a preview of what it creates,
 * moves, removes and keeps, then the lead confirms (changing the annotators drops the preview).
 */
export function GenerateForm({
  slug,
  annotators,
  preview,
  generate,
}: {
  slug: string;
  annotators: { id: string; label: string; checked: boolean }[];
  preview: Action<GeneratePreview>;
  generate: Action<{ created: number; updated: number; removed: number; kept: number; annotators: number }>;
}) {
  const { message, pending, run } = useRun();
  const [chosen, setChosen] = useState(() => new Set(annotators.filter((a) => a.checked).map((a) => a.id)));
  const { shown, error, previewing, ask, drop } = usePreview(preview);
  return (
    <div className="space-y-2">
      <form
        aria-label="Generate assignments"
        className="space-y-2"
        onSubmit={(e) => {
          e.preventDefault();
          ask({ slug, annotatorIds: [...chosen] });
        }}
      >
        <fieldset className="flex flex-wrap gap-3">
          <legend className="text-sm text-slate-600">Annotators</legend>
          {annotators.map((a) => (
            <label key={a.id} className="text-sm">
              <input
                type="checkbox"
                checked={chosen.has(a.id)}
                onChange={(e) => {
                  drop();
                  setChosen((s) => {
                    const next = new Set(s);
                    if (e.target.checked) next.add(a.id);
                    else next.delete(a.id);
                    return next;
                  });
                }}
              />{" "}
              {a.label}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={previewing} className="rounded border border-slate-400 bg-white px-3 py-1 text-sm disabled:opacity-50">
          Preview assignments
        </button>
        <ActionMessage message={error} />
      </form>
      {shown && (
        <PreviewBox
          label="Assignments preview"
          testId="generate-preview"
          confirm={`Generate: create ${shown.effect.create} assignment${shown.effect.create === 1 ? "" : "s"}`}
          pending={pending}
          onConfirm={() => {
            run(generate, { slug, annotatorIds: [...chosen], confirm: shown.key }, (s) => `Generated for ${s.annotators} annotators: ${s.created} created, ${s.updated} reordered, ${s.removed} untouched ones removed, ${s.kept} started ones kept.`);
            drop();
          }}
          onCancel={drop}
        >
          <p>
            For {shown.annotators} annotator{shown.annotators === 1 ? "" : "s"}:
          </p>
          <PlanEffectText effect={shown.effect} testId="generate-preview-changes" />
        </PreviewBox>
      )}
      <ActionMessage message={message} />
    </div>
  );
}

export function ReassignForm({
  slug,
  assignmentId,
  fromAnnotatorId,
  people,
  reassign,
  label,
}: {
  slug: string;
  assignmentId?: string;
  fromAnnotatorId?: string;
  people: { id: string; label: string }[];
  reassign: Action<unknown>;
  label: string;
}) {
  const { message, pending, run } = useRun();
  const options = people.filter((p) => p.id !== fromAnnotatorId);
  const [to, setTo] = useState(options[0]?.id ?? "");
  if (options.length === 0) return null;
  return (
    <form
      className="inline-flex items-center gap-1"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        run(reassign, { slug, assignmentId, fromAnnotatorId, toAnnotatorId: to }, (r) => {
          const moved = r as { moved?: number; clashes?: number };
          return moved.moved !== undefined ? `Moved ${moved.moved}${moved.clashes ? `, ${moved.clashes} already held by them` : ""}.` : "Reassigned.";
        });
      }}
    >
      <select aria-label="Reassign to" value={to} onChange={(e) => setTo(e.target.value)} className="rounded border border-slate-300 px-1 text-xs">
        {options.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
      </select>
      <button type="submit" disabled={pending} className="rounded border border-slate-300 px-2 text-xs hover:bg-slate-50 disabled:opacity-50">
        {assignmentId ? "Reassign" : "Move open"}
      </button>
      <ActionMessage message={message} />
    </form>
  );
}
