"use client";

import { useRef, useState } from "react";
import { useRun, type Action } from "@/components/action-run";
import { ActionMessage } from "@/components/action-message";
import { TASK_LABELS } from "@/lib/annotation/task-labels";
import { FIELD_INPUT, LikertScaleInputs, TASK_TYPES, withTask } from "@/components/study-fields";
import { Markdown } from "@/components/workspace/markdown";
import type { SettingsUsage } from "@/lib/annotation/study-settings";
import type { StudySettings } from "@/lib/data/study-settings";
import { commaList } from "@/lib/validation/list";

type Settings = StudySettings;

const input = FIELD_INPUT;

/** The settings form: guidelines in Markdown with a live preview (the workspace's renderer) and the CRScore codebook as a template to insert. */
export function StudySettingsForm({ slug, initial, usage, template, save }: { slug: string; initial: Settings; usage: SettingsUsage; template: string; save: Action<{ notes: string[] }> }) {
  const { message, pending, run } = useRun();
  const [values, setValues] = useState(initial);
  const [dimensions, setDimensions] = useState(initial.likertDimensions.join(", "));
  const guidelines = useRef<HTMLTextAreaElement>(null);
  const set = <K extends keyof Settings>(key: K, value: Settings[K]) => setValues((v) => ({ ...v, [key]: value }));

  /** Inserts the codebook template at the cursor (at the end when the box was never focused). */
  const insertTemplate = () => {
    const box = guidelines.current;
    const at = box && document.activeElement === box ? box.selectionStart : values.guidelines.length;
    const before = values.guidelines.slice(0, at);
    const gap = before === "" || before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
    set("guidelines", `${before}${gap}${template}${values.guidelines.slice(at)}`);
  };

  return (
    <form
      aria-label="Study settings"
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        const likertDimensions = commaList(dimensions);
        run(save, { slug, ...values, likertDimensions }, (r) => ["Settings saved.", ...r.notes].join("\n"));
      }}
    >
      <label className="block text-sm font-medium">
        Name
        <input value={values.name} onChange={(e) => set("name", e.target.value)} required maxLength={200} className={`mt-1 block w-full max-w-xl font-normal ${input}`} />
      </label>

      <section aria-labelledby="guidelines-heading" className="space-y-2">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="guidelines-heading" className="text-lg font-medium">
            Guidelines
          </h2>
          <button type="button" onClick={insertTemplate} className="rounded border border-slate-500 px-2 py-1 text-sm hover:bg-slate-50">
            Insert the CRScore codebook (Tables 7-8)
          </button>
        </div>
        <p className="text-sm text-slate-600">Markdown: headings (#), lists, pipe tables, **bold**, *italic*, `code` and links. Annotators see it in the workspace&apos;s guidelines column (key g).</p>
        <div className="grid gap-3 lg:grid-cols-2">
          <label className="text-sm">
            <span className="sr-only">Guidelines in Markdown</span>
            <textarea ref={guidelines} value={values.guidelines} onChange={(e) => set("guidelines", e.target.value)} rows={24} className={`block w-full font-mono text-xs ${input}`} />
          </label>
          <div aria-label="Guidelines preview" role="region" tabIndex={0} className="max-h-[36rem] overflow-auto rounded border border-slate-300 bg-white p-3">
            {values.guidelines.trim() ? <Markdown source={values.guidelines} /> : <p className="text-sm text-slate-500">No guidelines: annotators see only the built-in codebook of each task.</p>}
          </div>
        </div>
      </section>

      <fieldset className="space-y-1">
        <legend className="text-lg font-medium">Tasks</legend>
        {TASK_TYPES.map((task) => (
          <label key={task} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={values.tasks.includes(task)}
              onChange={(e) => set("tasks", withTask(values.tasks, task, e.target.checked))}
            />
            {TASK_LABELS[task]}
            <span className="text-slate-600">
              ({usage.annotations[task]} stored answers, {usage.startedAssignments[task]} started and {usage.pendingAssignments[task]} unopened assignments)
            </span>
          </label>
        ))}
        <p className="text-sm text-slate-600">A task with stored answers or started assignments cannot be removed; its unopened assignments go with it.</p>
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="text-lg font-medium">Review rating (CRScore Table 7)</legend>
        <label className="block text-sm">
          Likert dimensions, in order, separated by commas
          <input value={dimensions} onChange={(e) => setDimensions(e.target.value)} className={`mt-1 block w-full max-w-xl ${input}`} />
        </label>
        <p className="text-sm text-slate-600">
          Stored scores: {initial.likertDimensions.map((d) => `${d} ${usage.scoresByDimension[d] ?? 0}`).join(", ")}. A dimension with stored scores cannot be removed or renamed.
        </p>
        <LikertScaleInputs min={values.likertMin} max={values.likertMax} onChange={(scale) => setValues((v) => ({ ...v, ...scale }))} />
        {usage.scoredRatings > 0 && <p className="text-sm text-slate-600">{usage.scoredRatings} stored review ratings have scores on this scale, so it cannot change.</p>}
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="text-lg font-medium">Annotators</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={values.hideSystemNames} onChange={(e) => set("hideSystemNames", e.target.checked)} />
          Hide system names: annotators see neither which system wrote a review nor which model generated a claim
        </label>
        <label className="block text-sm">
          Annotators per item
          <input type="number" min={1} max={50} value={values.annotatorsPerItem} onChange={(e) => set("annotatorsPerItem", Number(e.target.value))} className={`ml-1 w-16 ${input}`} />
        </label>
        <p className="text-sm text-slate-600">Applies to future assignment plans only (Generate assignments on the assignments page); existing assignments are unchanged.</p>
      </fieldset>

      <div className="flex items-center gap-3">
        <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-1 text-sm text-white disabled:opacity-50">
          Save settings
        </button>
        <ActionMessage message={message} />
      </div>
    </form>
  );
}
