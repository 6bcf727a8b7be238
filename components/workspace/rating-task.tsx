"use client";

/**
 * Stage 2, review rating (CRScore Table 7): for each candidate review (shuffled per annotator,
 * system names hidden when the study says so) tick the pseudo-references it addresses fully or
 * partially, then score each Likert dimension with the rules of thumb next to the scale.
 * Keyboard: j/k between reviews, h/l between the fields of a review (pseudo-references, then
 * the dimensions), x / p to tick, digits to score the marked dimension (none on a pseudo-reference row). With CRScore's stage order the set is the
 * consolidated one and the annotator first judges whether each pseudo-reference (claim or smell)
 * is necessary for a review to mention (Appendix, phase 2): y (necessary) or u (not necessary)
 * answers the marked one from anywhere in the item and marks the next.
 */
import { useImperativeHandle, useRef, useState } from "react";
import { firstMissingIndex } from "@/lib/annotation/completeness";
import { LIKERT_RULES } from "@/lib/annotation/codebook";
import { likertFromDigit } from "@/lib/annotation/keymap";
import { emptyReviewRating, type NecessityValue, type ReviewRatingValue } from "@/lib/annotation/values";
import { EntryNote } from "./entry-note";
import { ReviewCard } from "./review-card";
import { EndOfList } from "./end-of-list";
import { missingIn, type TaskProps } from "./types";
import { useCursor } from "./use-cursor";
import { NoteBox } from "./note-box";

const ORIGIN_LABEL = { claim: "claim", smell: "smell", added: "added by annotator", replaced: "corrected" } as const;

export function RatingTask({ data, store, handle, onTarget, digitsMoveOn }: TaskProps) {
  const rating = data.reviewRating!;
  const { reviews, references } = rating;
  const dims = data.study.likertDimensions;
  const { likertMin, likertMax } = data.study;
  const scale = Array.from({ length: likertMax - likertMin + 1 }, (_, i) => likertMin + i);
  // Opens on the first unanswered question: the first necessity without an answer is marked,
  // and the cursor is on the first review without every score, at its first missing dimension
  // (or its pseudo-references when it has no score yet); past the end when all are scored.
  const [start] = useState(() => {
    const missing = missingIn(data, store);
    const review = firstMissingIndex(
      reviews.map((r) => r.id),
      missing,
      "rating",
    );
    const dim = missing.find((m) => m.kind === "rating" && m.targetId === reviews[review]?.id && m.what.length < dims.length)?.what[0];
    return {
      review,
      field: dim === undefined ? 0 : references.length + dims.indexOf(dim),
      necessity: firstMissingIndex(
        references.map((r) => r.id),
        missing,
        "necessity",
      ),
    };
  });
  const { cursor, atEnd, setCursor, register } = useCursor(reviews.length, (i) => onTarget(reviews[i] ? `rating:${reviews[i].id}` : null), start.review);
  const fieldCount = references.length + dims.length;
  const [field, setField] = useState(start.field);
  // The pseudo-reference whose necessity y / u answers.
  const [necessityAt, setNecessityAt] = useState(start.necessity);
  const necessityRows = useRef(new Map<number, HTMLElement>());
  const comments = useRef(new Map<string, HTMLTextAreaElement>());

  // Links to pseudo-references no longer in the stage-2 set (e.g. dropped by a later
  // consolidation) are left out, so the next save does not send them.
  const inSet = new Set(references.map((r) => r.id));
  const value = (id: string): ReviewRatingValue => {
    const v = store.value<ReviewRatingValue>("rating", id) ?? emptyReviewRating();
    return v.links.every((l) => inSet.has(l.pseudoReferenceId)) ? v : { ...v, links: v.links.filter((l) => inSet.has(l.pseudoReferenceId)) };
  };
  const update = (id: string, next: ReviewRatingValue) => store.set("rating", id, next);
  const necessity = (refId: string) => store.value<NecessityValue>("necessity", refId)?.necessary ?? null;
  const setNecessity = (refId: string, necessary: boolean) => store.set("necessity", refId, { necessary });
  const setScore = (id: string, dim: string, score: number) => {
    const v = value(id);
    update(id, { ...v, scores: { ...v.scores, [dim]: score } });
  };
  const toggleLink = (id: string, refId: string, partial: boolean) => {
    const v = value(id);
    const existing = v.links.find((l) => l.pseudoReferenceId === refId);
    const others = v.links.filter((l) => l.pseudoReferenceId !== refId);
    update(id, { ...v, links: existing && existing.partial === partial ? others : [...others, { pseudoReferenceId: refId, partial }] });
  };
  const goto = (index: number) => {
    setCursor(index);
    setField(0);
  };
  /** Moves to a field of the current review; on a pseudo-reference row, its necessity is marked too. */
  const moveField = (next: number) => {
    setField(next);
    if (next < references.length) setNecessityAt(next);
  };
  const markNecessity = (index: number) => {
    setNecessityAt(index);
    necessityRows.current.get(index)?.scrollIntoView({ block: "nearest" });
  };

  useImperativeHandle(handle, () => ({
    onAction(action) {
      const review = reviews[cursor];
      switch (action.type) {
        case "next-sub":
          if (cursor < reviews.length - 1) goto(cursor + 1);
          return true;
        case "prev-sub":
          if (cursor > 0) goto(cursor - 1);
          return true;
        case "next-field":
          if (review) moveField(Math.min(fieldCount - 1, field + 1));
          return true;
        case "prev-field":
          if (review) moveField(Math.max(0, field - 1));
          return true;
        case "necessity": {
          const ref = references[necessityAt];
          if (!rating.necessity || !ref) return false;
          setNecessity(ref.id, action.necessary);
          // Moving on to the next pseudo-reference; past the last one the keys do nothing.
          if (digitsMoveOn) markNecessity(necessityAt + 1);
          return true;
        }
        case "toggle-address":
        case "toggle-partial":
          if (!review || field >= references.length) return false;
          toggleLink(review.id, references[field].id, action.type === "toggle-partial");
          return true;
        case "digit": {
          const score = likertFromDigit(action.value, likertMin, likertMax);
          // A digit scores the marked dimension only: on a pseudo-reference row it answers nothing.
          const d = field - references.length;
          if (!review || score === null || d < 0) return false;
          setScore(review.id, dims[d], score);
          // Moving on: the next dimension, after the last one the next review.
          if (!digitsMoveOn) setField(references.length + d);
          else if (d < dims.length - 1) setField(references.length + d + 1);
          else goto(cursor + 1);
          return true;
        }
        case "note":
          if (!review) return false;
          comments.current.get(review.id)?.focus();
          return true;
        default:
          return false;
      }
    },
    show(missing) {
      if (missing.kind === "necessity") {
        const r = references.findIndex((ref) => ref.id === missing.targetId);
        if (r >= 0) markNecessity(r);
        return;
      }
      const index = reviews.findIndex((r) => r.id === missing.targetId);
      if (missing.kind !== "rating" || index < 0) return;
      goto(index);
      setField(references.length + Math.max(0, dims.indexOf(missing.what[0])));
    },
  }));

  return (
    <div className="space-y-3">
      <section aria-label="Pseudo-references" className="rounded border border-slate-200 bg-white p-2 text-sm">
        <h3 className="font-medium">
          Pseudo-references{" "}
          <span className="text-xs font-normal text-slate-500">
            ({rating.stage2Source === "consolidated" ? "consolidated by a lead" : "from your own stage 1"}; incorrect, unverifiable, incomplete{rating.necessity ? "" : " and unnecessary"} claims removed, corrections and added claims included)
          </span>
        </h3>
        {references.length === 0 && <p className="text-slate-500">No pseudo-references remain for this change.</p>}
        {rating.necessity && references.length > 0 && (
          <>
            <p className="text-xs text-slate-600">
              Is each pseudo-reference necessary for a review of this change to mention? <kbd>y</kbd> necessary, <kbd>u</kbd> not necessary answers the marked one, from anywhere in the item.
            </p>
            <ol className="mt-1 space-y-1" aria-label="Necessity">
              {references.map((ref, r) => {
                const necessary = necessity(ref.id);
                const marked = r === necessityAt;
                return (
                  <li
                    key={ref.id}
                    ref={(el) => {
                      if (el) necessityRows.current.set(r, el);
                      else necessityRows.current.delete(r);
                    }}
                    data-testid="necessity"
                    aria-current={marked ? "true" : undefined}
                    onClick={() => setNecessityAt(r)}
                    className={`flex flex-wrap items-center gap-2 rounded px-1 ${marked ? "bg-blue-50 outline outline-2 outline-blue-700" : ""}`}
                  >
                    <span className="w-6 text-right tabular-nums text-slate-500">{r + 1}.</span>
                    <span className="min-w-0 flex-1">
                      {ref.text} <span className="text-xs text-slate-500">({ORIGIN_LABEL[ref.origin]})</span>
                    </span>
                    <span role="radiogroup" aria-label={`Necessity of pseudo-reference ${r + 1}`} className="flex gap-1">
                      {([true, false] as const).map((choice) => (
                        <button
                          key={String(choice)}
                          type="button"
                          role="radio"
                          aria-checked={necessary === choice}
                          onClick={() => setNecessity(ref.id, choice)}
                          className={`min-h-6 rounded border px-1.5 py-0.5 text-xs ${necessary === choice ? "border-slate-800 bg-slate-800 text-white" : "border-slate-500 hover:bg-slate-50"}`}
                        >
                          {choice ? "necessary" : "not necessary"}
                        </button>
                      ))}
                    </span>
                    {marked && (
                      <span className="text-xs text-slate-500">
                        <kbd>y</kbd> / <kbd>u</kbd>
                      </span>
                    )}
                    <EntryNote entry={store.entry("necessity", ref.id)} />
                  </li>
                );
              })}
            </ol>
          </>
        )}
      </section>
      <ol className="space-y-2" aria-label="Reviews">
        {reviews.map((review, index) => {
          const v = value(review.id);
          const isCurrent = index === cursor;
          const entry = store.entry("rating", review.id);
          // Which pseudo-references the review addresses, by their number in the list above.
          const linked = references.flatMap((ref, r) => {
            const link = v.links.find((l) => l.pseudoReferenceId === ref.id);
            return link ? [{ label: `${r + 1}${link.partial ? " partly" : ""}`, text: ref.text }] : [];
          });
          return (
            <ReviewCard
              key={review.id}
              review={review}
              isCurrent={isCurrent}
              cardRef={register(index)}
              onSelect={() => !isCurrent && goto(index)}
              entry={entry}
              header={
                <>
                  {review.isReference && <span className="rounded bg-amber-100 px-1 text-xs text-amber-800">human reference</span>}
                  <span className="ml-auto text-xs text-slate-500">
                    {dims.map((d) => `${d.slice(0, 4)} ${v.scores[d] ?? "–"}`).join(" · ")} ·{" "}
                    <span data-testid="linked" title={linked.map((l) => `${l.label}: ${l.text}`).join("\n")}>
                      {linked.length ? `linked ${linked.map((l) => l.label).join(", ")}` : "none linked"}
                    </span>
                  </span>
                </>
              }
            >
              {isCurrent && (
                <div className="mt-2 space-y-2">
                  {/* Not a DataTable: a grid of the workspace's controls, the keyboard's cursor moving from row to row. */}
                  <table className="w-full text-sm" aria-label="Addressed pseudo-references">
                    <tbody>
                      {references.map((ref, r) => {
                        const link = v.links.find((l) => l.pseudoReferenceId === ref.id);
                        const active = field === r;
                        return (
                          <tr key={ref.id} data-testid="link-row" aria-current={active ? "true" : undefined} className={active ? "bg-blue-50 outline outline-2 outline-blue-700" : ""}>
                            <td className="w-6 align-top text-right tabular-nums text-slate-500">{r + 1}.</td>
                            <td className="px-2 align-top">
                              {ref.text} <span className="text-xs text-slate-500">({ORIGIN_LABEL[ref.origin]})</span>
                            </td>
                            <td className="w-40 whitespace-nowrap align-top">
                              <label className="mr-2 text-xs">
                                <input type="checkbox" checked={!!link && !link.partial} onChange={() => toggleLink(review.id, ref.id, false)} aria-label={`Addresses pseudo-reference ${r + 1}`} /> addresses
                              </label>
                              <label className="text-xs">
                                <input type="checkbox" checked={!!link && link.partial} onChange={() => toggleLink(review.id, ref.id, true)} aria-label={`Partially addresses pseudo-reference ${r + 1}`} /> partly
                              </label>
                            </td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                  {dims.map((dim, d) => {
                    const active = field === references.length + d;
                    const rules = LIKERT_RULES[dim];
                    return (
                      <div key={dim} data-testid={`scale-${dim}`} aria-current={active ? "true" : undefined} className={`rounded p-1 ${active ? "bg-blue-50 outline outline-2 outline-blue-700" : ""}`}>
                        <div className="flex flex-wrap items-center gap-1" role="radiogroup" aria-label={`${dim} of ${review.label}`}>
                          <span className="w-40 text-sm font-medium capitalize">{dim}</span>
                          {scale.map((s) => (
                            <button
                              key={s}
                              type="button"
                              role="radio"
                              aria-checked={v.scores[dim] === s}
                              title={rules?.scores[s]}
                              onClick={(e) => {
                                e.stopPropagation();
                                setScore(review.id, dim, s);
                                setField(references.length + d);
                              }}
                              className={`h-8 w-8 rounded border text-sm ${v.scores[dim] === s ? "border-slate-800 bg-slate-800 text-white" : "border-slate-500 hover:bg-slate-50"}`}
                            >
                              {s}
                            </button>
                          ))}
                        </div>
                        {rules && (
                          <p className="mt-0.5 text-xs text-slate-600">
                            {v.scores[dim] !== undefined && rules.scores[v.scores[dim]] ? <strong>{rules.scores[v.scores[dim]]} </strong> : null}
                            <span className="text-slate-500">{Object.keys(rules.scores).length ? Object.entries(rules.scores).map(([k, t]) => `${k}: ${t}`).join(" ") : rules.summary}</span>
                          </p>
                        )}
                      </div>
                    );
                  })}
                  <NoteBox
                    boxes={comments}
                    id={review.id}
                    label={`Comment on ${review.label}`}
                    placeholder="m — comment (optional)"
                    value={v.comment}
                    onChange={(comment) => update(review.id, { ...v, comment })}
                  />
                </div>
              )}
            </ReviewCard>
          );
        })}
      </ol>
      {atEnd && <EndOfList cardRef={register(reviews.length)} what="reviews" />}
    </div>
  );
}
