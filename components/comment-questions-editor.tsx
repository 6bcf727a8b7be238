"use client";

import { useState } from "react";
import { useRun, type Action } from "@/components/action-run";
import { ActionMessage } from "@/components/action-message";
import { FIELD_INPUT } from "@/components/study-fields";
import { questionHeld, type CommentQuestionUsage } from "@/lib/annotation/comment-question-changes";
import { CCRAB_CATEGORIES, COMMENT_QUESTION_TEMPLATES, type CodebookOption, type CommentQuestion } from "@/lib/annotation/comment-questions";

const input = FIELD_INPUT;
type Kind = CommentQuestion["kind"];

/** The templates the editor offers, with the paper section each comes from. */
const TEMPLATES: { key: keyof typeof COMMENT_QUESTION_TEMPLATES; label: string }[] = [
  { key: "high-quality", label: "High quality (c-CRAB §4.2.1)" },
  { key: "useful", label: "Useful (c-CRAB §5.2)" },
  { key: "category", label: "Category: c-CRAB's ten (§5.3)" },
  { key: "test-captures", label: "Linked test captures the concern (c-CRAB §4.4.3)" },
];
const KINDS: { kind: Kind; label: string }[] = [
  { kind: "binary", label: "Yes or no" },
  { kind: "choice", label: "One choice from a codebook" },
  { kind: "likert", label: "Likert score (the study's scale)" },
  { kind: "grade", label: "Grade 1-5" },
];

/** A fresh question of a kind, its key unused among `taken`. */
function blankQuestion(kind: Kind, taken: readonly string[]): CommentQuestion {
  let n = taken.length + 1;
  while (taken.includes(`question-${n}`)) n++;
  const base = { key: `question-${n}`, label: "New question", description: "", justification: "none" as const };
  if (kind === "binary") return { ...base, kind, withTest: false };
  if (kind === "choice")
    return {
      ...base,
      kind,
      options: [
        { code: "A", label: "A", description: "" },
        { code: "B", label: "B", description: "" },
      ],
    };
  return { ...base, kind };
}

function cloneTemplate(key: keyof typeof COMMENT_QUESTION_TEMPLATES): CommentQuestion {
  return JSON.parse(JSON.stringify(COMMENT_QUESTION_TEMPLATES[key])) as CommentQuestion;
}

/**
 * Edits a study's comment questions: add one from c-CRAB's templates or a blank one of a kind,
 * edit its key, prompt, instructions, justification rule and codebook, remove it. With `usage`
 * each question and option shows the stored answers and lead decisions that hold it (the server
 * refuses removing those).
 */
export function CommentQuestionsEditor({ value, onChange, usage }: { value: CommentQuestion[]; onChange: (questions: CommentQuestion[]) => void; usage?: CommentQuestionUsage }) {
  const [template, setTemplate] = useState<string>(TEMPLATES[0].key);
  const [kind, setKind] = useState<Kind>("binary");
  const keys = value.map((q) => q.key);
  const update = (i: number, q: CommentQuestion) => onChange(value.map((old, j) => (j === i ? q : old)));
  const setOptions = (i: number, q: Extract<CommentQuestion, { kind: "choice" }>, options: CodebookOption[]) => update(i, { ...q, options });

  return (
    <div className="space-y-3" data-testid="comment-questions-editor">
      <ol className="space-y-3">
        {value.map((q, i) => {
          const held = usage ? questionHeld(usage, q.key) : "";
          return (
            <li key={i} data-testid="comment-question" data-key={q.key} className="space-y-2 rounded border border-slate-300 bg-white p-3">
              <div className="flex flex-wrap items-center gap-3 text-sm">
                <span className="font-medium">{KINDS.find((k) => k.kind === q.kind)?.label}</span>
                {usage && <span className="text-slate-600">{held || "no stored answers"}</span>}
                <button type="button" onClick={() => onChange(value.filter((_, j) => j !== i))} className="ml-auto rounded border border-slate-500 px-2 py-0.5 text-xs hover:bg-slate-50" aria-label={`Remove the question ${q.key}`}>
                  Remove
                </button>
              </div>
              <div className="grid gap-2 md:grid-cols-[12rem_1fr]">
                <label className="text-sm">
                  Key
                  <input value={q.key} onChange={(e) => update(i, { ...q, key: e.target.value })} className={`mt-1 block w-full font-mono text-xs ${input}`} aria-label={`Key of question ${i + 1}`} />
                </label>
                <label className="text-sm">
                  Prompt
                  <input value={q.label} onChange={(e) => update(i, { ...q, label: e.target.value })} maxLength={200} className={`mt-1 block w-full ${input}`} aria-label={`Prompt of question ${i + 1}`} />
                </label>
              </div>
              <label className="block text-sm">
                Instructions for annotators
                <textarea value={q.description} onChange={(e) => update(i, { ...q, description: e.target.value })} rows={2} maxLength={2000} className={`mt-1 block w-full text-sm ${input}`} aria-label={`Instructions of question ${i + 1}`} />
              </label>
              <div className="flex flex-wrap items-center gap-4 text-sm">
                <label>
                  Justification
                  <select
                    value={q.justification}
                    onChange={(e) => update(i, { ...q, justification: e.target.value as CommentQuestion["justification"] })}
                    className={`ml-1 ${input}`}
                    aria-label={`Justification of question ${i + 1}`}
                  >
                    <option value="none">none</option>
                    <option value="optional">optional</option>
                    <option value="required">required</option>
                  </select>
                </label>
                {q.kind === "binary" && (
                  <label className="flex items-center gap-1">
                    <input type="checkbox" checked={q.withTest} onChange={(e) => update(i, { ...q, withTest: e.target.checked })} />
                    Asked only of comments with a linked test
                  </label>
                )}
              </div>
              {q.kind === "choice" && (
                <fieldset className="space-y-1">
                  <legend className="text-sm font-medium">Codebook</legend>
                  {q.options.map((o, k) => {
                    const chosen = usage ? questionHeld(usage, q.key, o.code) : "";
                    return (
                      <div key={k} data-testid="codebook-option" data-code={o.code} className="grid items-center gap-2 md:grid-cols-[12rem_12rem_1fr_auto]">
                        <input
                          value={o.code}
                          onChange={(e) => setOptions(i, q, q.options.map((x, m) => (m === k ? { ...x, code: e.target.value } : x)))}
                          className={`font-mono text-xs ${input}`}
                          aria-label={`Code of option ${k + 1} of ${q.key}`}
                        />
                        <input value={o.label} onChange={(e) => setOptions(i, q, q.options.map((x, m) => (m === k ? { ...x, label: e.target.value } : x)))} className={`text-sm ${input}`} aria-label={`Label of option ${k + 1} of ${q.key}`} />
                        <input
                          value={o.description}
                          onChange={(e) => setOptions(i, q, q.options.map((x, m) => (m === k ? { ...x, description: e.target.value } : x)))}
                          className={`text-sm ${input}`}
                          aria-label={`Description of option ${k + 1} of ${q.key}`}
                        />
                        <span className="flex items-center gap-2 text-xs text-slate-600">
                          {chosen}
                          <button type="button" onClick={() => setOptions(i, q, q.options.filter((_, m) => m !== k))} className="rounded border border-slate-500 px-2 py-0.5 hover:bg-slate-50" aria-label={`Remove the option ${o.code} of ${q.key}`}>
                            Remove
                          </button>
                        </span>
                      </div>
                    );
                  })}
                  <div className="flex gap-2">
                    <button type="button" onClick={() => setOptions(i, q, [...q.options, { code: `OPTION_${q.options.length + 1}`, label: `Option ${q.options.length + 1}`, description: "" }])} className="rounded border border-slate-500 px-2 py-0.5 text-xs hover:bg-slate-50">
                      Add an option
                    </button>
                    <button
                      type="button"
                      onClick={() => setOptions(i, q, [...q.options, ...CCRAB_CATEGORIES.filter((c) => !q.options.some((o) => o.code === c.code))])}
                      className="rounded border border-slate-500 px-2 py-0.5 text-xs hover:bg-slate-50"
                    >
                      Add c-CRAB&apos;s ten categories
                    </button>
                  </div>
                </fieldset>
              )}
            </li>
          );
        })}
      </ol>
      {value.length === 0 && <p className="text-sm text-amber-800">No question: add at least one.</p>}
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <label>
          Template
          <select value={template} onChange={(e) => setTemplate(e.target.value)} className={`ml-1 ${input}`}>
            {TEMPLATES.map((t) => (
              <option key={t.key} value={t.key} disabled={keys.includes(t.key)}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          disabled={keys.includes(template)}
          onClick={() => onChange([...value, cloneTemplate(template as keyof typeof COMMENT_QUESTION_TEMPLATES)])}
          className="rounded border border-slate-500 px-2 py-1 hover:bg-slate-50 disabled:opacity-50"
        >
          Add from template
        </button>
        <label className="ml-4">
          Kind
          <select value={kind} onChange={(e) => setKind(e.target.value as Kind)} className={`ml-1 ${input}`}>
            {KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => onChange([...value, blankQuestion(kind, keys)])} className="rounded border border-slate-500 px-2 py-1 hover:bg-slate-50">
          Add a blank question
        </button>
      </div>
    </div>
  );
}

/** The settings page's form of the comment questions: the editor and its own save, refusals shown as the server words them. */
export function CommentQuestionsForm({ slug, initial, usage, save }: { slug: string; initial: CommentQuestion[]; usage: CommentQuestionUsage; save: Action<{ notes: string[] }> }) {
  const { message, pending, run } = useRun();
  const [questions, setQuestions] = useState(initial);
  return (
    <form
      aria-label="Comment questions"
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        run(save, { slug, questions }, (r) => ["Comment questions saved.", ...r.notes].join("\n"));
      }}
    >
      <CommentQuestionsEditor value={questions} onChange={setQuestions} usage={usage} />
      <div className="flex items-center gap-3">
        <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-1 text-sm text-white disabled:opacity-50">
          Save questions
        </button>
        <ActionMessage message={message} />
      </div>
    </form>
  );
}
