/** The import formats by name (no parser code, so client components can list them). */
export const IMPORT_FORMATS = ["jsonl", "crscore-phase1", "crscore-phase2", "gradedreviews"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export function isImportFormat(value: string): value is ImportFormat {
  return (IMPORT_FORMATS as readonly string[]).includes(value);
}
