"use client";

/**
 * Comment questions (c-CRAB §4.2.1, §4.4.3, §5.2, §5.3): the whole pull request, each review
 * comment in place at its lines, and under the focused comment the study's questions with its
 * answers. Keyboard: j/k (↓/↑) from comment to comment across files, h/l (←/→) from question to
 * question, digits answer the marked question (a binary one 1 yes / 0 no, or y / u; a codebook's
 * options 1…9 and 0; a score its digit), m writes its justification. The matching question asks
 * of a system's comment one step per human comment of the pull request (2 fully, 1 partly, 0 none
 * the same concern), each naming the human comment, which is shown at its lines. The focused comment is kept
 * in this browser, so a reload comes back to it. Who wrote a comment is shown as "Reviewer A/B…"
 * when the study blinds systems (the server sends no system then).
 */
import { createContext, memo, useCallback, useContext, useEffect, useImperativeHandle, useMemo, useRef, useState, type ReactNode } from "react";
import type { DiffMode } from "@/components/diff-view";
import { PullRequestView, stepComment } from "@/components/pull-request/pull-request-view";
import { useLazySources } from "@/components/pull-request/use-sources";
import { type CommentAnswersValue, type CommentQuestion } from "@/lib/annotation/comment-questions";
import { answerOptions, askedComment, askedOf, emptyCommentAnswers, humanCommentIds, matchDegrees, missingOfComment, type AskedComment } from "@/lib/annotation/comment-answers";
import type { DiffSource } from "@/lib/diff";
import type { PullRequestComment } from "@/lib/review-comments/display";
import type { TaskWorkspace, WorkspaceComment } from "@/lib/tasks/types";
import { EntryNote } from "./entry-note";
import type { AnswerStore, TaskHandle } from "./types";

type Part = NonNullable<TaskWorkspace["commentQuestions"]>;

/** Where the annotator was: the focused comment and question, kept per account and assignment in this browser. */
interface Place {
  comment: string;
  question: number;
}

function readPlace(key: string | null): Place | null {
  if (!key) return null;
  try {
    const parsed = JSON.parse(window.localStorage.getItem(key) ?? "null") as Place | null;
    return parsed && typeof parsed.comment === "string" && typeof parsed.question === "number" ? parsed : null;
  } catch {
    return null;
  }
}

function writePlace(key: string | null, place: Place): void {
  if (!key) return;
  try {
    window.localStorage.setItem(key, JSON.stringify(place));
  } catch {
    // storage refused: a reload opens on the first unanswered comment
  }
}

/** The comment as the pull request's view shows it: its system and author when the study shows them, else its reviewer letter. */
const shown = (c: WorkspaceComment): PullRequestComment => ({
  id: c.id,
  codeChangeId: c.codeChangeId,
  path: c.path,
  side: c.side,
  startSide: c.startSide,
  startLine: c.startLine,
  line: c.line,
  inReplyToId: c.inReplyToId,
  body: c.body,
  reviewer: c.system ?? c.reviewer,
  ...(c.author ? { author: c.author } : {}),
});

/** One step of a comment's questions, as h/l walk them and digits answer: a question, or the matching question toward one human comment. */
interface Step {
  question: CommentQuestion;
  human: string | null;
}

/** The human comments of a part (computed once per part). */
const humansByPart = new WeakMap<Part, string[]>();
function humansOf(part: Part): string[] {
  let humans = humansByPart.get(part);
  if (!humans) humansByPart.set(part, (humans = humanCommentIds(part.comments)));
  return humans;
}

/** The comment as the questions asked of it read it. */
const askedOfPart = (part: Part, c: WorkspaceComment): AskedComment => askedComment(c, humansOf(part));

/** The steps of a comment: each question asked of it, the matching question once per human comment. */
function stepsOf(part: Part, c: WorkspaceComment): Step[] {
  const asked = askedOfPart(part, c);
  return part.questions.filter((q) => askedOf(q, asked)).flatMap((q): Step[] => (q.kind === "match" ? (asked.matchTargets ?? []).map((human) => ({ question: q, human })) : [{ question: q, human: null }]));
}

/** A step's answer in a comment's value (undefined: not answered). */
const stepValue = (value: CommentAnswersValue, step: Step) => (step.human === null ? value.answers[step.question.key] : matchDegrees(value.answers[step.question.key])[step.human]);

/** What the focused comment's answers panel reads (changes with the cursor: only that panel reads it). */
interface Answering {
  part: Part;
  store: AnswerStore;
  /** The store's version the panel was rendered with. */
  storeVersion: number;
  readOnly: boolean;
  question: number;
  setQuestion: (index: number) => void;
  answer: (commentId: string, step: Step, value: boolean | string | number) => void;
  note: (commentId: string, question: CommentQuestion, text: string) => void;
  boxes: React.RefObject<Map<string, HTMLTextAreaElement>>;
}

const AnsweringContext = createContext<Answering | null>(null);

/** What the other comments' one-line summaries read: it changes only when an answer does, so j re-renders no summary but the two comments it passes. */
interface Answers {
  part: Part;
  byId: ReadonlyMap<string, WorkspaceComment>;
  values: ReadonlyMap<string, CommentAnswersValue | null>;
}

const AnswersContext = createContext<Answers | null>(null);

/** A human comment as a matching step names it: its place in reading order, where it is and how it starts. */
function humanLabel(part: Part, id: string): { title: string; excerpt: string } {
  const index = part.comments.findIndex((c) => c.id === id);
  const c = part.comments[index];
  const excerpt = c.body.replace(/\s+/g, " ").trim();
  return { title: `Comment ${index + 1} (${c.path}${c.line === null ? "" : `:${c.line}`})`, excerpt: excerpt.length > 90 ? `${excerpt.slice(0, 89)}…` : excerpt };
}

/** A comment's answers in one line, under a comment the cursor is not on. */
function AnswersSummary({ commentId }: { commentId: string }) {
  const { part, byId, values } = useContext(AnswersContext)!;
  const own = byId.get(commentId);
  if (!own) return null;
  const value = values.get(own.id) ?? emptyCommentAnswers();
  const asked = part.questions.filter((q) => askedOf(q, askedOfPart(part, own)));
  const missing = missingOfComment(value, part.questions, askedOfPart(part, own), part);
  const answered = asked.flatMap((q) => {
    if (q.kind === "match") {
      const degrees = Object.values(matchDegrees(value.answers[q.key]));
      return degrees.length === 0 ? [] : [`${q.label}: ${answerOptions(q, part).map((o) => `${o.label.toLowerCase()} ${degrees.filter((d) => d === o.value).length}`).join(", ")}`];
    }
    const option = answerOptions(q, part).find((o) => o.value === value.answers[q.key]);
    return option ? [`${q.label}: ${option.label}`] : [];
  });
  return (
    <p className="mt-1 border-t border-slate-100 pt-0.5 text-xs text-slate-600" data-testid="comment-answers-summary">
      {asked.length === 0 ? "Nothing asked of this comment" : answered.length > 0 ? answered.join(" · ") : "Not answered yet"}
      {missing.length > 0 && answered.length > 0 && <span className="ml-2 text-amber-800">missing: {missing.join(", ")}</span>}
    </p>
  );
}

/** The focused comment's questions with its answers. */
function CommentAnswers({ comment }: { comment: PullRequestComment }) {
  const ctx = useContext(AnsweringContext)!;
  const { byId } = useContext(AnswersContext)!;
  const { part, store } = ctx;
  const own = byId.get(comment.id);
  if (!own) return null;
  const value = store.value<CommentAnswersValue>("commentAnswers", own.id) ?? emptyCommentAnswers();
  const steps = stepsOf(part, own);
  const missing = missingOfComment(value, part.questions, askedOfPart(part, own), part);
  const entry = store.entry("commentAnswers", own.id);
  const body = (
    <div className="mt-2 space-y-1 border-t border-slate-200 pt-1 text-sm" data-testid="comment-answers" onClick={(e) => e.stopPropagation()}>
      {own.test && (
        <details className="rounded bg-slate-50 px-1 text-xs" open>
          <summary className="cursor-pointer">
            Linked test <span className="font-mono">{own.test.path}</span>
          </summary>
          <pre className="overflow-auto whitespace-pre-wrap font-mono" data-testid="linked-test">
            {own.test.text}
          </pre>
        </details>
      )}
      {steps.map((step, i) => {
        const q = step.question;
        const marked = !ctx.readOnly && ctx.question === i;
        const current = stepValue(value, step);
        const noteMissing = q.justification === "required" && current !== undefined && !(value.notes[q.key] ?? "").trim();
        const human = step.human === null ? null : humanLabel(part, step.human);
        const lastOfQuestion = steps[i + 1]?.question !== q;
        return (
          <div
            key={step.human === null ? q.key : `${q.key}:${step.human}`}
            data-testid={step.human === null ? `question-${q.key}` : `match-${step.human}`}
            aria-current={marked ? "true" : undefined}
            className={`rounded p-1 ${marked ? "bg-blue-50 outline outline-2 outline-blue-700" : ""}`}
          >
            {human && step.human === steps.find((s) => s.question === q)?.human && (
              <p className="font-medium" title={q.description}>
                {q.label} (each human comment of the pull request)
              </p>
            )}
            <div className="flex flex-wrap items-center gap-1" role="radiogroup" aria-label={human ? `${q.label} ${human.title} of comment by ${comment.reviewer}` : `${q.label} of comment by ${comment.reviewer}`}>
              {human ? (
                <span className="w-72 text-xs" title={human.excerpt}>
                  <span className="font-medium">{human.title}</span> <span className="text-slate-600">{human.excerpt}</span>
                </span>
              ) : (
                <span className="w-40 font-medium" title={q.description}>
                  {q.label}
                </span>
              )}
              {answerOptions(q, part).map((o) => (
                <button
                  key={String(o.value)}
                  type="button"
                  role="radio"
                  aria-checked={current === o.value}
                  title={o.description || undefined}
                  onClick={() => {
                    ctx.setQuestion(i);
                    ctx.answer(own.id, step, o.value);
                  }}
                  className={`min-h-7 rounded border px-1.5 text-xs ${current === o.value ? "border-slate-800 bg-slate-800 text-white" : "border-slate-500 hover:bg-slate-50"}`}
                >
                  {o.key !== null && <kbd className="mr-1 opacity-70">{o.key}</kbd>}
                  {o.label}
                </button>
              ))}
            </div>
            {q.justification !== "none" && lastOfQuestion && (
              <textarea
                ref={(el) => {
                  const k = `${own.id}:${q.key}`;
                  if (el) ctx.boxes.current.set(k, el);
                  else ctx.boxes.current.delete(k);
                }}
                aria-label={`Justification of ${q.label}${q.justification === "required" ? " (required)" : ""}`}
                placeholder={`m — justification${q.justification === "required" ? " (required)" : " (optional)"}`}
                rows={1}
                value={value.notes[q.key] ?? ""}
                onFocus={() => ctx.setQuestion(i)}
                onChange={(e) => ctx.note(own.id, q, e.target.value)}
                className={`mt-1 w-full rounded border px-2 py-0.5 text-sm ${noteMissing ? "border-amber-600" : "border-slate-500"}`}
              />
            )}
          </div>
        );
      })}
      <p className="text-xs" data-testid="comment-missing">
        {missing.length === 0 ? <span className="text-emerald-800">All answered.</span> : <span className="text-amber-800">Still to answer: {missing.join(", ")}.</span>} <EntryNote entry={entry} />
      </p>
    </div>
  );
  return ctx.readOnly ? (
    <fieldset disabled className="min-w-0">
      {body}
    </fieldset>
  ) : (
    body
  );
}

/** The comments still missing answers, each a link to it (nothing when all are answered); the list is rendered once opened (a page of 200 comments opens with 200 missing). */
const MissingList = memo(function MissingList({ missing, total, onPick }: { missing: { comment: WorkspaceComment; index: number; what: string[] }[]; total: number; onPick: (id: string) => void }) {
  const [open, setOpen] = useState(false);
  if (missing.length === 0) return null;
  return (
    <details className="rounded border border-amber-300 bg-amber-50 px-2 py-1 text-sm text-amber-900" data-testid="missing-answers" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer">
        {missing.length} of {total} comment{total === 1 ? "" : "s"} still need answers before you submit
      </summary>
      {open && (
        <ul className="mt-1 max-h-48 overflow-auto text-xs">
          {missing.map((m) => (
            <li key={m.comment.id}>
              <button type="button" className="text-left underline" onClick={() => onPick(m.comment.id)}>
                Comment {m.index + 1} ({m.comment.path}
                {m.comment.line === null ? "" : `:${m.comment.line}`})
              </button>
              : {m.what.join(", ")}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
});

const answersOf = (part: Part, store: AnswerStore): Answers => ({
  part,
  byId: new Map(part.comments.map((c) => [c.id, c])),
  values: new Map(part.comments.map((c) => [c.id, store.value<CommentAnswersValue>("commentAnswers", c.id)])),
});

const renderAnswers = (comment: PullRequestComment, focused: boolean): ReactNode => (focused ? <CommentAnswers comment={comment} /> : <AnswersSummary commentId={comment.id} />);

export function PullRequestTask({
  part,
  sources,
  loadSource,
  store,
  handle,
  onTarget,
  digitsMoveOn,
  mode,
  onModeChange,
  readOnly = false,
  ready = true,
  placeKey = null,
  blinded,
}: {
  part: Part;
  /** The diffs the page brought (the first files'). */
  sources: readonly DiffSource[];
  /** Loads another file's diff; null: every diff came with the page. */
  loadSource: ((codeChangeId: string) => Promise<DiffSource>) | null;
  store: AnswerStore;
  handle: React.RefObject<TaskHandle | null>;
  onTarget: (key: string | null) => void;
  digitsMoveOn: boolean;
  mode: DiffMode;
  onModeChange: (mode: DiffMode) => void;
  readOnly?: boolean;
  /** The drafts kept in this browser are applied: the cursor can open on the first unanswered comment. */
  ready?: boolean;
  /** Where the focused comment is kept in this browser (null: nowhere). */
  placeKey?: string | null;
  blinded: boolean;
}) {
  const { files, request } = useLazySources(part.files, sources, loadSource);
  const comments = useMemo(() => part.comments.map(shown), [part.comments]);
  const order = part.comments;
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const [question, setQuestion] = useState(0);
  const boxes = useRef(new Map<string, HTMLTextAreaElement>());

  const askedAt = useCallback(
    (id: string | null) => {
      const c = part.comments.find((x) => x.id === id);
      return c ? stepsOf(part, c) : [];
    },
    [part],
  );
  const valueOf = useCallback((id: string) => store.value<CommentAnswersValue>("commentAnswers", id) ?? emptyCommentAnswers(), [store]);
  /** The first question of a comment still without an answer (its first when all are answered). */
  const firstOpen = useCallback(
    (id: string) => {
      const v = valueOf(id);
      const at = askedAt(id).findIndex((step) => stepValue(v, step) === undefined);
      return Math.max(0, at);
    },
    [askedAt, valueOf],
  );
  const focus = useCallback(
    (id: string | null, at?: number) => {
      setFocusedId(id);
      setQuestion(id === null ? 0 : (at ?? firstOpen(id)));
    },
    [firstOpen],
  );

  // Once the drafts are applied (after hydration: this browser's storage is read then), the cursor
  // opens where the annotator was, else on the first comment with something missing.
  const [started, setStarted] = useState(false);
  if (ready && !started && !readOnly) {
    setStarted(true);
    const place = readPlace(placeKey);
    const open = order.find((c) => missingOfComment(valueOf(c.id), part.questions, askedOfPart(part, c), part).length > 0) ?? order[0];
    if (place && order.some((c) => c.id === place.comment)) focus(place.comment, place.question);
    else if (open) focus(open.id);
  }

  useEffect(() => {
    if (focusedId === null || readOnly) return;
    writePlace(placeKey, { comment: focusedId, question });
  }, [focusedId, question, placeKey, readOnly]);
  useEffect(() => {
    onTarget(focusedId === null ? null : `comment:${focusedId}`);
  }, [focusedId, onTarget]);

  const answer = useCallback(
    (id: string, step: Step, value: boolean | string | number) => {
      const v = valueOf(id);
      const key = step.question.key;
      const stored = step.human === null ? value : { ...matchDegrees(v.answers[key]), [step.human]: value as "fully" | "partly" | "none" };
      store.set("commentAnswers", id, { ...v, answers: { ...v.answers, [key]: stored } });
    },
    [store, valueOf],
  );
  const note = useCallback(
    (id: string, q: CommentQuestion, text: string) => {
      const v = valueOf(id);
      const notes = { ...v.notes };
      if (text) notes[q.key] = text;
      else delete notes[q.key];
      store.set("commentAnswers", id, { ...v, notes });
    },
    [store, valueOf],
  );

  /** After an answer: the next question, after the last one the next comment; a required justification not written yet keeps the cursor. */
  const moveOn = (id: string, q: CommentQuestion, index: number) => {
    if (!digitsMoveOn) return;
    if (q.justification === "required" && !(valueOf(id).notes[q.key] ?? "").trim()) return;
    const asked = askedAt(id);
    if (index < asked.length - 1) return setQuestion(index + 1);
    const next = stepComment(comments, id, 1);
    if (next === null) setQuestion(asked.length);
    else focus(next);
  };

  const answerKey = (key: string | boolean): boolean => {
    const step = askedAt(focusedId)[question];
    if (!focusedId || !step) return false;
    const q = step.question;
    const option = typeof key === "boolean" ? (q.kind === "binary" ? answerOptions(q, part).find((o) => o.value === key) : undefined) : answerOptions(q, part).find((o) => o.key === key);
    if (!option) return false;
    answer(focusedId, step, option.value);
    moveOn(focusedId, q, question);
    return true;
  };

  useImperativeHandle(handle, () => ({
    onAction(action) {
      switch (action.type) {
        case "next-sub":
        case "prev-sub": {
          const next = stepComment(comments, focusedId, action.type === "next-sub" ? 1 : -1);
          if (next !== null) focus(next);
          return true;
        }
        case "next-field":
          if (focusedId) setQuestion((i) => Math.min(askedAt(focusedId).length - 1, i + 1));
          return true;
        case "prev-field":
          if (focusedId) setQuestion((i) => Math.max(0, Math.min(i, askedAt(focusedId).length) - 1));
          return true;
        case "digit":
          return answerKey(String(action.value));
        case "necessity":
          return answerKey(action.necessary);
        case "note": {
          const asked = askedAt(focusedId).map((step) => step.question);
          const q = asked[question]?.justification !== "none" ? asked[question] : asked.find((x) => x.justification !== "none");
          const box = q && boxes.current.get(`${focusedId}:${q.key}`);
          if (!box) return false;
          box.focus();
          return true;
        }
        default:
          return false;
      }
    },
    show(missing) {
      if (missing.kind !== "commentAnswers") return;
      const asked = askedAt(missing.targetId);
      const first = missing.what[0]?.replace(/^justification of /, "");
      focus(
        missing.targetId,
        Math.max(
          0,
          asked.findIndex((step) => step.question.key === first && (step.human === null || stepValue(valueOf(missing.targetId), step) === undefined)),
        ),
      );
    },
  }));

  const focusedRef = useRef(focusedId);
  useEffect(() => {
    focusedRef.current = focusedId;
  });
  // Stable, so moving the focus re-renders only the files it leaves and enters.
  const onFocus = useCallback((id: string) => id !== focusedRef.current && focus(id), [focus]);

  // A new value only when what the focused comment's panel shows changed (the question, or the
  // store: an answer, a save's state): a new value makes React search the whole pull request's
  // tree for the panel, at every j press when it was made anew at each render.
  const storeVersion = store.getSnapshot();
  const answering = useMemo<Answering>(() => ({ part, store, storeVersion, readOnly, question, setQuestion, answer, note, boxes }), [part, store, storeVersion, readOnly, question, answer, note]);
  // The answers as the summaries read them: a new object only when one of them changed.
  const [answers, setAnswers] = useState<Answers>(() => answersOf(part, store));
  if (answers.part !== part || order.some((c) => answers.values.get(c.id) !== store.value("commentAnswers", c.id))) setAnswers(answersOf(part, store));
  const missing = useMemo(
    () =>
      order.flatMap((c, i) => {
        const what = missingOfComment(answers.values.get(c.id) ?? emptyCommentAnswers(), part.questions, askedOfPart(part, c), part);
        return what.length > 0 ? [{ comment: c, index: i, what }] : [];
      }),
    [order, answers, part],
  );
  const answered = order.length - missing.length;
  const toolbar = (
    <>
      <span data-testid="answered-count">
        · {answered} of {order.length} answered
      </span>
      {blinded && (
        <span className="rounded bg-slate-100 px-1" data-testid="blinded-note" title="The study hides which system or person wrote each comment">
          reviewers blinded
        </span>
      )}
    </>
  );
  return (
    <AnswersContext.Provider value={answers}>
      <AnsweringContext.Provider value={answering}>
        {!readOnly && <MissingList missing={missing} total={order.length} onPick={focus} />}
        <PullRequestView
          pullRequest={part.pullRequest}
          files={files}
          comments={comments}
          mode={mode}
          onModeChange={onModeChange}
          focusedId={focusedId}
          onFocus={onFocus}
          renderBelow={renderAnswers}
          toolbar={toolbar}
          onNeedSource={request}
        />
      </AnsweringContext.Provider>
    </AnswersContext.Provider>
  );
}

