"use client";

/** The cursor past the last claim or review: answer keys change nothing here. */
export function EndOfList({ cardRef, what }: { cardRef: (el: HTMLElement | null) => void; what: string }) {
  return (
    <p ref={cardRef} data-testid="end-of-list" aria-current="true" className="rounded border border-blue-700 bg-blue-50 px-2 py-1 text-sm text-slate-700 ring-2 ring-blue-700">
      End of the {what}: answer keys do nothing here. <kbd>k</kbd> goes back, <kbd>Ctrl+Enter</kbd> submits.
    </p>
  );
}
