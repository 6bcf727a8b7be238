"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { type Action } from "@/components/action-run";
import { ActionMessage } from "@/components/action-message";
import { CommentQuestionsEditor } from "@/components/comment-questions-editor";
import { TASK_LABELS } from "@/lib/annotation/task-labels";
import { FIELD_INPUT, LikertScaleInputs, TASK_TYPES, withTask } from "@/components/study-fields";
import { DEFAULT_COMMENT_QUESTIONS, type CommentQuestion } from "@/lib/annotation/comment-questions";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { commaList } from "@/lib/validation/list";
import { suggestSlug } from "@/lib/validation/study-fields";

const input = FIELD_INPUT;

/** Name, slug (suggested from the name until the lead edits it), task types, Likert dimensions and scale, annotators per item. */
export function NewStudyForm({ create }: { create: Action<{ slug: string; name: string }> }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  const [tasks, setTasks] = useState<TaskType[]>([]);
  const [dimensions, setDimensions] = useState("conciseness, comprehensiveness, relevance");
  const [scale, setScale] = useState({ likertMin: 1, likertMax: 5 });
  const [annotatorsPerItem, setAnnotatorsPerItem] = useState(2);
  const [questions, setQuestions] = useState<CommentQuestion[]>([...DEFAULT_COMMENT_QUESTIONS]);
  const asksComments = tasks.includes("COMMENT_QUESTIONS");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();
  return (
    <form
      aria-label="New study"
      className="max-w-2xl space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const result = await create({ name, slug, tasks, likertDimensions: commaList(dimensions), ...scale, annotatorsPerItem, ...(asksComments ? { commentQuestions: questions } : {}) });
          if (!result.ok) return setMessage({ ok: false, text: result.error });
          setMessage({ ok: true, text: `Study “${result.data.name}” created.` });
          router.push(`/studies/${result.data.slug}`);
        });
      }}
    >
      <label className="block text-sm font-medium">
        Name
        <input
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            if (!slugEdited) setSlug(suggestSlug(e.target.value));
          }}
          required
          maxLength={200}
          className={`mt-1 block w-full font-normal ${input}`}
        />
      </label>
      <label className="block text-sm font-medium">
        Slug
        <input
          value={slug}
          onChange={(e) => {
            setSlug(e.target.value);
            setSlugEdited(true);
          }}
          required
          maxLength={100}
          aria-describedby="slug-help"
          className={`mt-1 block w-full font-mono font-normal ${input}`}
        />
        <span id="slug-help" className="block text-xs font-normal text-slate-600">
          Lowercase letters, digits and dashes; the study&apos;s address is /studies/{slug || "…"}.
        </span>
      </label>

      <fieldset className="space-y-1">
        <legend className="text-lg font-medium">Tasks</legend>
        {TASK_TYPES.map((task) => (
          <label key={task} className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={tasks.includes(task)} onChange={(e) => setTasks(withTask(tasks, task, e.target.checked))} />
            {TASK_LABELS[task]}
          </label>
        ))}
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="text-lg font-medium">Review rating (CRScore Table 7)</legend>
        <label className="block text-sm">
          Likert dimensions, in order, separated by commas
          <input value={dimensions} onChange={(e) => setDimensions(e.target.value)} className={`mt-1 block w-full ${input}`} />
        </label>
        <LikertScaleInputs min={scale.likertMin} max={scale.likertMax} onChange={setScale} />
      </fieldset>

      {asksComments && (
        <fieldset className="space-y-2">
          <legend className="text-lg font-medium">Comment questions</legend>
          <p className="text-sm text-slate-600">What annotators answer about each review comment of the study&apos;s pull requests, starting from c-CRAB&apos;s usefulness, category and linked-test questions.</p>
          <CommentQuestionsEditor value={questions} onChange={setQuestions} />
        </fieldset>
      )}

      <label className="block text-sm">
        Annotators per item
        <input type="number" min={1} max={50} value={annotatorsPerItem} onChange={(e) => setAnnotatorsPerItem(Number(e.target.value))} className={`ml-1 w-16 ${input}`} />
      </label>

      <div className="flex items-center gap-3">
        <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-1 text-sm text-white disabled:opacity-50">
          Create study
        </button>
        <ActionMessage message={message} />
      </div>
    </form>
  );
}
