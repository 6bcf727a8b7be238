import type { ImportError, SourceLocation } from "@/lib/import/errors";

/** Where an import error is: file, line or row, field. */
export function errorPlace(error: SourceLocation & { field?: string }): string {
  return `${error.file}${error.line !== undefined ? `:${error.line}` : ""}${error.row !== undefined ? ` row ${error.row}` : ""}${error.field ? ` [${error.field}]` : ""}`;
}

/** A refused import: how many errors (nothing was written) and each with its place. */
export function ImportRefusal({ errors, totalErrors }: { errors: readonly ImportError[]; totalErrors: number }) {
  return (
    <section aria-label="Import refused" className="rounded border border-red-200 bg-red-50 p-4 text-sm">
      <h2 className="font-medium text-red-800">
        Refused: {totalErrors} error{totalErrors === 1 ? "" : "s"}, nothing was written
        {totalErrors > errors.length ? ` (the first ${errors.length} are listed)` : ""}
      </h2>
      <ul className="mt-2 list-disc pl-5" data-testid="import-errors">
        {errors.map((error, i) => (
          <li key={i}>
            <span className="font-mono">{errorPlace(error)}</span> {error.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A titled list of notes (what was read past, warnings); nothing when there are none. */
export function NoteList({ title, notes, testId }: { title: string; notes: readonly string[]; testId: string }) {
  if (notes.length === 0) return null;
  return (
    <div className="mt-2" data-testid={testId}>
      <h3 className="font-medium">
        {title} ({notes.length})
      </h3>
      <ul className="list-disc pl-5">
        {notes.map((note, i) => (
          <li key={i}>{note}</li>
        ))}
      </ul>
    </div>
  );
}
