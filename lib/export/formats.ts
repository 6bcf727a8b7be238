/** The export formats by name, with their content types, file names and the data each needs (no database code, so client components can use them). */
export const EXPORT_FORMATS = ["jsonl", "long-csv", "long-jsonl", "wide-csv", "wide-jsonl", "gradedreviews", "github-comments", "test-outcomes"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

/**
 * The folder exports, downloaded as a ZIP archive: `parquet`, the long rows as one Parquet table
 * per task; `hf`, those tables under data/ with a dataset card, as a Hugging Face dataset. They
 * hold the long export's rows, so they take its filters and need annotations.
 */
export const DATASET_FORMATS = ["parquet", "hf"] as const;
export type DatasetFormat = (typeof DATASET_FORMATS)[number];

export function isDatasetFormat(value: string): value is DatasetFormat {
  return (DATASET_FORMATS as readonly string[]).includes(value);
}

/** A dataset card's licence: an SPDX identifier (cc-by-4.0, mit, ...) or `other`. */
export const LICENSE_ID = /^[A-Za-z0-9][A-Za-z0-9.\-+]*$/;

/** What a download is: an export's file, or a folder export's archive. */
type Download = ExportFormat | DatasetFormat;

const CONTENT_TYPE: Record<Download, string> = {
  jsonl: "application/jsonl; charset=utf-8",
  "long-csv": "text/csv; charset=utf-8",
  "long-jsonl": "application/jsonl; charset=utf-8",
  "wide-csv": "text/csv; charset=utf-8",
  "wide-jsonl": "application/jsonl; charset=utf-8",
  gradedreviews: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "github-comments": "application/jsonl; charset=utf-8",
  "test-outcomes": "application/jsonl; charset=utf-8",
  parquet: "application/zip",
  hf: "application/zip",
};

/** The data of a study that exports need. */
export type ExportData = "code changes" | "annotations" | "reference grades" | "review comments" | "test outcomes";

/** What a format holds of the study: a study without it is not offered the format, and is refused it. */
export const EXPORT_NEEDS: Record<ExportFormat, ExportData> = {
  jsonl: "code changes",
  "long-csv": "annotations",
  "long-jsonl": "annotations",
  "wide-csv": "annotations",
  "wide-jsonl": "annotations",
  gradedreviews: "reference grades",
  "github-comments": "review comments",
  "test-outcomes": "test outcomes",
};

export function exportContentType(format: Download): string {
  return CONTENT_TYPE[format];
}

/** What sets a download apart from others of its format: gold items included, and the answers kept (annotator also: whose grades the workbook holds). */
export interface ExportVariant {
  includeGold?: boolean;
  status?: string;
  annotator?: string;
  from?: Date;
  to?: Date;
}

const LAYOUT: Record<Download, string> = { jsonl: "", "long-csv": "long", "long-jsonl": "long", "wide-csv": "wide", "wide-jsonl": "wide", gradedreviews: "gradedreviews", "github-comments": "github-comments", "test-outcomes": "test-outcomes", parquet: "parquet", hf: "hf" };
const EXTENSION: Record<Download, string> = { jsonl: "jsonl", "long-csv": "csv", "long-jsonl": "jsonl", "wide-csv": "csv", "wide-jsonl": "jsonl", gradedreviews: "xlsx", "github-comments": "jsonl", "test-outcomes": "jsonl", parquet: "zip", hf: "zip" };

/** A name as one part of a file name: dots (which separate the parts), slashes, quotes, spaces and control characters become dashes. */
const namePart = (text: string) => text.replace(/[\s\p{Cc}./\\:*?"<>|]+/gu, "-").replace(/^-+|-+$/g, "");

/** A time as a part of a file name: the day when it is midnight UTC (a date picked on the page), else to the second. */
function timePart(time: Date): string {
  const iso = time.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : `${iso.slice(0, 19).replaceAll(":", "-")}Z`;
}

/**
 * A download name that tells the variants apart: `demo.jsonl`, `demo.long.csv`,
 * `demo.long.gold.csv`, `demo.wide.submitted.ada.from-2026-11-01.csv`, `demo.gradedreviews.xlsx`, `demo.hf.zip`.
 */
export function exportFileName(studySlug: string, format: Download, variant: ExportVariant = {}): string {
  const parts = [
    studySlug,
    LAYOUT[format],
    variant.includeGold ? "gold" : "",
    variant.status ?? "",
    variant.annotator === undefined ? "" : namePart(variant.annotator),
    variant.from ? `from-${timePart(variant.from)}` : "",
    variant.to ? `to-${timePart(variant.to)}` : "",
    EXTENSION[format],
  ];
  return parts.filter((part) => part !== "").join(".");
}

/** The Content-Disposition of a download: the name as ASCII (others' characters as `_`) and, for the browsers that read it, in UTF-8 (RFC 6266). */
export function attachmentHeader(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  return ascii === fileName ? `attachment; filename="${fileName}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
