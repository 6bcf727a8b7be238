"use client";

import type { ReactNode } from "react";
import type { Entry } from "./autosave";
import { EntryNote } from "./entry-note";

/**
 * One candidate review in a task's list: highlighted when it is the keyboard cursor's, with
 * its label, system (when the study shows it), save state and text; the task adds its inputs.
 */
export function ReviewCard({
  review,
  isCurrent,
  cardRef,
  onSelect,
  entry,
  header,
  children,
}: {
  review: { label: string; system?: string | null; text: string };
  isCurrent: boolean;
  cardRef: (el: HTMLElement | null) => void;
  onSelect: () => void;
  entry: Entry | undefined;
  /** Extra header content before the save state (badges, a score summary). */
  header?: ReactNode;
  children: ReactNode;
}) {
  return (
    <li
      ref={cardRef}
      data-testid="review"
      aria-current={isCurrent ? "true" : undefined}
      onClick={onSelect}
      className={`rounded border bg-white p-2 ${isCurrent ? "border-blue-700 ring-2 ring-blue-700" : "border-slate-200"}`}
    >
      <div className="flex items-baseline gap-2">
        <h3 className="font-medium">{review.label}</h3>
        {review.system && <span className="text-xs text-slate-500">{review.system}</span>}
        {header}
        <EntryNote entry={entry} />
      </div>
      <p className="mt-1 whitespace-pre-wrap text-sm">{review.text}</p>
      {children}
    </li>
  );
}
