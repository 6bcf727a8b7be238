/** The import formats and their parsers. */
import { parseCrscorePhase1 } from "./crscore-phase1";
import { parseCrscorePhase2 } from "./crscore-phase2";
import { parseGradedReviews } from "./gradedreviews";
import { parseJsonl } from "./jsonl";
import type { Parser } from "./parser";

export const IMPORT_FORMATS = ["jsonl", "crscore-phase1", "crscore-phase2", "gradedreviews"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const PARSERS: Record<ImportFormat, Parser> = {
  jsonl: parseJsonl,
  "crscore-phase1": parseCrscorePhase1,
  "crscore-phase2": parseCrscorePhase2,
  gradedreviews: parseGradedReviews,
};

export function isImportFormat(value: string): value is ImportFormat {
  return (IMPORT_FORMATS as readonly string[]).includes(value);
}
