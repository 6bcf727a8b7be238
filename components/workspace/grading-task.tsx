"use client";

/**
 * Reference-based grading (GradedReviews section 4.3): each generated review is graded 1-5
 * against the human reference review, with the five criteria next to the scale.
 */
import { useImperativeHandle, useRef } from "react";
import { REFERENCE_GRADES } from "@/lib/annotation/codebook";
import type { ReferenceGradeValue } from "@/lib/annotation/values";
import { ReviewCard } from "./review-card";
import type { TaskProps } from "./types";
import { useCursor } from "./use-cursor";
import { NoteBox } from "./note-box";

type Draft = { grade?: number; comment: string };

export function GradingTask({ data, store, handle, onTarget, digitsMoveOn }: TaskProps) {
  const grading = data.grading!;
  const reviews = grading.reviews;
  const { cursor, setCursor, move, register } = useCursor(reviews.length, (i) => onTarget(reviews[i] ? `grade:${reviews[i].id}` : null));
  const comments = useRef(new Map<string, HTMLTextAreaElement>());
  const value = (id: string): Draft => store.value<ReferenceGradeValue>("grade", id) ?? { comment: "" };
  const update = (id: string, next: Draft) => store.set("grade", id, next);

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
          if (!review || action.value < 1 || action.value > 5) return false;
          update(review.id, { ...value(review.id), grade: action.value });
          if (digitsMoveOn) move(1);
          return true;
        case "note":
          if (!review) return false;
          comments.current.get(review.id)?.focus();
          return true;
        default:
          return false;
      }
    },
  }));

  return (
    <div className="space-y-3">
      <section aria-label="Reference review" className="sticky top-0 z-10 rounded border border-amber-300 bg-amber-50 p-2">
        <h3 className="text-sm font-medium">Reference review (written by a human reviewer)</h3>
        <p className="mt-1 whitespace-pre-wrap text-sm">{grading.reference?.text ?? "This change has no reference review."}</p>
      </section>
      <table className="w-full text-xs text-slate-600" aria-label="Grading criteria">
        <tbody>
          {REFERENCE_GRADES.map((g) => (
            <tr key={g.grade}>
              <td className="w-24 font-medium">
                {g.grade} {g.label}
              </td>
              <td>{g.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ol className="space-y-2" aria-label="Generated reviews">
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
              entry={store.entry("grade", review.id)}
            >
              <div className="mt-1 flex flex-wrap items-center gap-1" role="radiogroup" aria-label={`Grade of ${review.label}`}>
                {[1, 2, 3, 4, 5].map((g) => (
                  <button
                    key={g}
                    type="button"
                    role="radio"
                    aria-checked={v.grade === g}
                    title={REFERENCE_GRADES.find((c) => c.grade === g)?.description}
                    onClick={() => update(review.id, { ...v, grade: g })}
                    className={`h-8 w-8 rounded border text-sm ${v.grade === g ? "border-slate-800 bg-slate-800 text-white" : "border-slate-500 hover:bg-slate-50"}`}
                  >
                    {g}
                  </button>
                ))}
                {v.grade !== undefined && <span className="text-xs text-slate-600">{REFERENCE_GRADES.find((c) => c.grade === v.grade)?.label}</span>}
              </div>
              {(isCurrent || v.comment) && (
                <NoteBox
                  boxes={comments}
                  id={review.id}
                  label={`Comment on ${review.label}`}
                  placeholder="m — comment (optional)"
                  value={v.comment}
                  onChange={(comment) => update(review.id, { ...v, comment })}
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
