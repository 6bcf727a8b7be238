/** The export formats by name, with their content types and file names (no database code, so client components can use them). */
export const EXPORT_FORMATS = ["jsonl", "long-csv", "long-jsonl", "wide-csv", "wide-jsonl", "gradedreviews"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

const CONTENT_TYPE: Record<ExportFormat, string> = {
  jsonl: "application/jsonl; charset=utf-8",
  "long-csv": "text/csv; charset=utf-8",
  "long-jsonl": "application/jsonl; charset=utf-8",
  "wide-csv": "text/csv; charset=utf-8",
  "wide-jsonl": "application/jsonl; charset=utf-8",
  gradedreviews: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

const EXTENSION: Record<ExportFormat, string> = { jsonl: ".jsonl", "long-csv": ".long.csv", "long-jsonl": ".long.jsonl", "wide-csv": ".wide.csv", "wide-jsonl": ".wide.jsonl", gradedreviews: ".xlsx" };

export function exportContentType(format: ExportFormat): string {
  return CONTENT_TYPE[format];
}

/** A download name such as `crscore-python.long.csv`. */
export function exportFileName(studySlug: string, format: ExportFormat): string {
  return `${studySlug}${EXTENSION[format]}`;
}
