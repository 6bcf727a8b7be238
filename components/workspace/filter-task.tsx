"use client";

/**
 * Comment filtering (c-CRAB section 4.2.1): is the review comment a specific, actionable and
 * objectively verifiable issue (high quality) or not, with a short justification.
 */
import { useImperativeHandle, useRef } from "react";
import { COMMENT_FILTER_LABELS } from "@/lib/annotation/codebook";
import type { CommentFilterValue } from "@/lib/annotation/values";
import { ReviewCard } from "./review-card";
import type { TaskProps } from "./types";
import { useCursor } from "./use-cursor";
import { NoteBox } from "./note-box";

type Draft = { highQuality?: boolean; justification: string };

export function FilterTask({ data, store, handle, onTarget, digitsMoveOn }: TaskProps) {
  const reviews = data.filtering!.reviews;
  const { cursor, setCursor, move, register } = useCursor(reviews.length, (i) => onTarget(reviews[i] ? `filter:${reviews[i].id}` : null));
  const boxes = useRef(new Map<string, HTMLTextAreaElement>());
  const value = (id: string): Draft => store.value<CommentFilterValue>("filter", id) ?? { justification: "" };
  const update = (id: string, next: Draft) => store.set("filter", id, next);

  useImperativeHandle(handle, () => ({
    onAction(action) {
      const review = reviews[cursor];
      switch (action.type) {
        case "next-sub":
          move(1);
          return true;
        case "prev-sub":
          move(-1);
          return true;
        case "digit":
          if (!review || (action.value !== 0 && action.value !== 1)) return false;
          update(review.id, { ...value(review.id), highQuality: action.value === 1 });
          if (digitsMoveOn) move(1);
          return true;
        case "note":
          if (!review) return false;
          boxes.current.get(review.id)?.focus();
          return true;
        default:
          return false;
      }
    },
  }));

  return (
    <div className="space-y-3">
      <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs text-slate-600">
        <dt className="font-medium">1 {COMMENT_FILTER_LABELS.high.label}</dt>
        <dd>{COMMENT_FILTER_LABELS.high.description}</dd>
        <dt className="font-medium">0 {COMMENT_FILTER_LABELS.low.label}</dt>
        <dd>{COMMENT_FILTER_LABELS.low.description}</dd>
      </dl>
      <ol className="space-y-2" aria-label="Review comments">
        {reviews.map((review, index) => {
          const v = value(review.id);
          const isCurrent = index === cursor;
          return (
            <ReviewCard
              key={review.id}
              review={review}
              isCurrent={isCurrent}
              cardRef={register(index)}
              onSelect={() => setCursor(index)}
              entry={store.entry("filter", review.id)}
            >
              <div className="mt-1 flex gap-1" role="radiogroup" aria-label={`Quality of ${review.label}`}>
                {([true, false] as const).map((high) => (
                  <button
                    key={String(high)}
                    type="button"
                    role="radio"
                    aria-checked={v.highQuality === high}
                    onClick={() => update(review.id, { ...v, highQuality: high })}
                    className={`rounded border px-2 py-0.5 text-sm ${v.highQuality === high ? "border-slate-800 bg-slate-800 text-white" : "border-slate-500 hover:bg-slate-50"}`}
                  >
                    {high ? "1 High quality" : "0 Low quality"}
                  </button>
                ))}
              </div>
              {(isCurrent || v.justification) && (
                <NoteBox
                  boxes={boxes}
                  id={review.id}
                  label={`Justification for ${review.label}`}
                  placeholder="m — short justification"
                  value={v.justification}
                  onChange={(justification) => update(review.id, { ...v, justification })}
                  className="mt-1"
                />
              )}
            </ReviewCard>
          );
        })}
      </ol>
    </div>
  );
}
