"use client";

/**
 * The tasks that answer each candidate review with one choice and an optional note: reference-based
 * grading (GradedReviews section 4.3) and comment filtering (c-CRAB section 4.2.1). Keyboard: j/k
 * between reviews, a choice's digit picks it (and moves on when the annotator prefers), m the note.
 */
import { type ReactNode, useImperativeHandle, useRef, useState } from "react";
import { firstMissingIndex } from "@/lib/annotation/completeness";
import type { SaveKind } from "@/lib/annotation/values";
import { EndOfList } from "./end-of-list";
import { NoteBox } from "./note-box";
import { ReviewCard } from "./review-card";
import { missingIn, type TaskProps } from "./types";
import { useCursor } from "./use-cursor";

/** A review's answer as the task shows it: the choice (absent until made) and the note. */
export interface ChoiceAnswer<Value> {
  choice?: Value;
  note: string;
}

export interface Choice<Value> {
  value: Value;
  /** The digit key that picks it. */
  digit: number;
  /** On its button. */
  label: string;
  /** Shown next to the buttons once it is chosen. */
  name?: string;
  /** Its button's tooltip. */
  description?: string;
}

interface ReviewChoiceTaskProps<Value, Stored> extends TaskProps {
  kind: Extract<SaveKind, "grade" | "label">;
  reviews: readonly { id: string; label: string; system?: string | null; text: string }[];
  /** The scale's explanation above the reviews. */
  intro: ReactNode;
  listLabel: string;
  choices: readonly Choice<Value>[];
  /** "Grade", "Quality": the radio group of a review is "<choiceLabel> of <review>". */
  choiceLabel: string;
  /** "Comment on", "Justification for": the note box of a review is "<noteLabel> <review>". */
  noteLabel: string;
  notePlaceholder: string;
  /** The stored value (a draft until saved) as the task's answer, and back. */
  toAnswer: (stored: Stored | null) => ChoiceAnswer<Value>;
  toStored: (answer: ChoiceAnswer<Value>) => Stored;
}

export function ReviewChoiceTask<Value, Stored>({ data, store, handle, onTarget, digitsMoveOn, kind, reviews, intro, listLabel, choices, choiceLabel, noteLabel, notePlaceholder, toAnswer, toStored }: ReviewChoiceTaskProps<Value, Stored>) {
  // Opens on the first review without an answer (past the end when all have one).
  const [initial] = useState(() =>
    firstMissingIndex(
      reviews.map((r) => r.id),
      missingIn(data, store),
      kind,
    ),
  );
  const { cursor, atEnd, setCursor, moveOn, step, register } = useCursor(reviews.length, (i) => onTarget(reviews[i] ? `${kind}:${reviews[i].id}` : null), initial);
  const notes = useRef(new Map<string, HTMLTextAreaElement>());
  const answer = (id: string) => toAnswer(store.value<Stored>(kind, id));
  const update = (id: string, next: ChoiceAnswer<Value>) => store.set(kind, id, toStored(next));

  useImperativeHandle(handle, () => ({
    onAction(action) {
      if (step(action)) return true;
      const review = reviews[cursor];
      switch (action.type) {
        case "digit": {
          const choice = choices.find((c) => c.digit === action.value);
          if (!review || !choice) return false;
          update(review.id, { ...answer(review.id), choice: choice.value });
          if (digitsMoveOn) moveOn();
          return true;
        }
        case "note":
          if (!review) return false;
          notes.current.get(review.id)?.focus();
          return true;
        default:
          return false;
      }
    },
    show(missing) {
      const index = reviews.findIndex((r) => r.id === missing.targetId);
      if (index >= 0) setCursor(index);
    },
  }));

  return (
    <div className="space-y-3">
      {intro}
      <ol className="space-y-2" aria-label={listLabel}>
        {reviews.map((review, index) => {
          const a = answer(review.id);
          const isCurrent = index === cursor;
          const chosen = choices.find((c) => c.value === a.choice);
          return (
            <ReviewCard key={review.id} review={review} isCurrent={isCurrent} cardRef={register(index)} onSelect={() => setCursor(index)} entry={store.entry(kind, review.id)}>
              <div className="mt-1 flex flex-wrap items-center gap-1" role="radiogroup" aria-label={`${choiceLabel} of ${review.label}`}>
                {choices.map((c) => (
                  <button
                    key={String(c.value)}
                    type="button"
                    role="radio"
                    aria-checked={c === chosen}
                    title={c.description}
                    onClick={() => update(review.id, { ...a, choice: c.value })}
                    className={`h-8 min-w-8 rounded border px-2 text-sm ${c === chosen ? "border-slate-800 bg-slate-800 text-white" : "border-slate-500 hover:bg-slate-50"}`}
                  >
                    {c.label}
                  </button>
                ))}
                {chosen?.name && <span className="text-xs text-slate-600">{chosen.name}</span>}
              </div>
              {(isCurrent || a.note) && (
                <NoteBox boxes={notes} id={review.id} label={`${noteLabel} ${review.label}`} placeholder={notePlaceholder} value={a.note} onChange={(note) => update(review.id, { ...a, note })} className="mt-1" />
              )}
            </ReviewCard>
          );
        })}
      </ol>
      {atEnd && <EndOfList cardRef={register(reviews.length)} what="reviews" />}
    </div>
  );
}
