"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { useRun, type Action } from "@/components/action-run";
import { ActionMessage } from "@/components/action-message";
import type { QualificationFeedback, QualificationQuestion } from "@/lib/data/qualification";

/** One step of the qualification taken by a button: accepting the consent, confirming the guidelines, another attempt. */
export function QualificationStepButton({ slug, step, label, save }: { slug: string; step: "consent" | "guidelines" | "retry"; label: string; save: Action<unknown> }) {
  const { message, pending, run } = useRun();
  return (
    <div className="flex items-center gap-2">
      <button type="button" disabled={pending} onClick={() => run(save, { slug, step }, "Saved.")} className="rounded bg-blue-700 px-3 py-1 text-sm text-white disabled:opacity-50">
        {label}
      </button>
      <ActionMessage message={message} />
    </div>
  );
}

/** A gold item to answer; after the answer, whether it was right, the known answer and why, then the next one. */
export function QualificationAnswerForm({ slug, question, save }: { slug: string; question: QualificationQuestion; save: Action<QualificationFeedback> }) {
  const router = useRouter();
  const [choice, setChoice] = useState<number | null>(null);
  const [feedback, setFeedback] = useState<QualificationFeedback | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const submit = () =>
    start(async () => {
      const result = await save({ slug, index: question.index, choice });
      if (result.ok) setFeedback(result.data);
      else setError(result.error);
    });
  const next = () => {
    setFeedback(null);
    setChoice(null);
    router.refresh();
  };
  return (
    <section aria-label="Gold item" className="space-y-3 rounded border border-slate-200 bg-white p-4">
      <h2 className="text-lg font-medium" data-testid="qualification-progress">
        Item {question.index + 1} of {question.of}
      </h2>
      <p className="font-mono text-xs text-slate-600">{question.item.filePath}</p>
      {question.item.diff !== "" && <pre className="max-h-64 overflow-auto rounded bg-slate-50 p-2 text-xs">{question.item.diff}</pre>}
      <blockquote className="whitespace-pre-wrap border-l-4 border-slate-300 pl-3" data-testid="qualification-item">
        {question.item.text}
      </blockquote>
      <fieldset disabled={pending || feedback !== null} className="space-y-1">
        <legend className="font-medium">{question.question.label}</legend>
        {question.question.options.map((o) => (
          <label key={o.choice} className="mr-4 inline-flex items-center gap-1 text-sm">
            <input type="radio" name="choice" value={o.choice} checked={choice === o.choice} onChange={() => setChoice(o.choice)} />
            {o.label}
          </label>
        ))}
      </fieldset>
      {feedback === null ? (
        <button type="button" disabled={pending || choice === null} onClick={submit} className="rounded bg-blue-700 px-3 py-1 text-sm text-white disabled:opacity-50">
          Answer
        </button>
      ) : (
        <div role="status" data-testid="qualification-feedback" className={`space-y-1 rounded border p-2 text-sm ${feedback.correct ? "border-green-300 bg-green-50" : "border-amber-300 bg-amber-50"}`}>
          <p className="font-medium">{feedback.correct ? "Right." : "Not quite."} The known answer: {feedback.known}.</p>
          {feedback.reason !== "" && <p>Why: {feedback.reason}</p>}
          <button type="button" onClick={next} className="rounded bg-blue-700 px-3 py-1 text-white">
            {feedback.outcome === null ? "Next item" : "See the result"}
          </button>
        </div>
      )}
      {error && <p role="alert" className="text-sm text-red-700">{error}</p>}
    </section>
  );
}

export interface QualificationSettings {
  required: boolean;
  consent: string;
  goldItems: number;
  passMarkPercent: number;
  maxAttempts: number;
}

/** The lead's settings of the study's qualification: whether it is required, the consent text, the gold items asked, the pass mark and the attempts. */
export function QualificationSettingsForm({ slug, initial, goldAnswers, save }: { slug: string; initial: QualificationSettings; goldAnswers: number; save: Action<unknown> }) {
  const { message, pending, run } = useRun();
  const [values, setValues] = useState(initial);
  const number = (key: "goldItems" | "passMarkPercent" | "maxAttempts", label: string, min: number, max: number) => (
    <label className="text-sm">
      {label}
      <input type="number" min={min} max={max} value={values[key]} onChange={(e) => setValues({ ...values, [key]: Number(e.target.value) })} className="ml-1 w-20 rounded border border-slate-300 px-1" />
    </label>
  );
  return (
    <form
      aria-label="Qualification settings"
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        run(save, { slug, ...values }, "Qualification saved.");
      }}
    >
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={values.required} onChange={(e) => setValues({ ...values, required: e.target.checked })} />
        Annotators qualify before their items open
      </label>
      <label className="block text-sm">
        Consent text (Markdown; empty: none asked)
        <textarea value={values.consent} onChange={(e) => setValues({ ...values, consent: e.target.value })} rows={4} className="mt-1 block w-full rounded border border-slate-300 p-1 font-mono text-xs" />
      </label>
      <div className="flex flex-wrap items-end gap-3">
        {number("goldItems", "Gold items asked", 1, 100)}
        {number("passMarkPercent", "Pass mark (% right)", 0, 100)}
        {number("maxAttempts", "Attempts", 1, 20)}
        <button type="submit" disabled={pending} className="rounded bg-blue-700 px-3 py-1 text-sm text-white disabled:opacity-50">
          Save qualification
        </button>
        <ActionMessage message={message} />
      </div>
      <p className="text-xs text-slate-600">
        The gold items asked are the study&apos;s known answers ({goldAnswers} now; mark them on the adjudication page), in the order they were given, each followed by the known answer and
        its reason.
      </p>
    </form>
  );
}
