/** The import formats by name (no parser code, so client components can list them). */
export const IMPORT_FORMATS = ["jsonl", "crscore-phase1", "crscore-phase2", "gradedreviews", "pull-request"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
/** The formats of code changes with their reviews and annotations (lib/import/parsers.ts); `pull-request` is read by lib/import/pull-request. */
export type BundleFormat = Exclude<ImportFormat, "pull-request">;

export function isImportFormat(value: string): value is ImportFormat {
  return (IMPORT_FORMATS as readonly string[]).includes(value);
}
