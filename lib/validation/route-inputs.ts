/**
 * The inputs of the JSON routes whose schema is theirs alone: the route parses with it and
 * /api/openapi.json describes it (lib/http/openapi.ts). Shared ones live with their domain
 * (the reports' options in report-options.ts, saves in lib/annotation/value-schemas.ts).
 */
import { z } from "zod";
import { DATASET_FORMATS, EXPORT_FORMATS, LICENSE_ID } from "@/lib/export/formats";
import { IMPORT_FORMATS } from "@/lib/import/formats";
import { MAX_TIME_REPORT_MS } from "@/lib/annotation/values";

/** An empty annotator (the page's "consensus" choice) is no annotator. */
const date = z.preprocess((v) => v || undefined, z.coerce.date().optional());

/** GET /api/studies/SLUG/export's query. */
export const exportQuerySchema = z.object({
  format: z.enum([...EXPORT_FORMATS, ...DATASET_FORMATS]),
  /** The hf dataset card's licence. */
  license: z.preprocess((v) => v || undefined, z.string().regex(LICENSE_ID, "an SPDX identifier (cc-by-4.0, mit, ...) or other").default("other")),
  annotator: z.string().optional().transform((name) => name || undefined),
  gold: z.literal("include").optional(),
  status: z.enum(["submitted", "draft", ""]).optional().transform((v) => v || undefined),
  from: date,
  to: date,
});

const flag = z.enum(["true", "false"]).default("false").transform((v) => v === "true");

/** POST /api/studies/SLUG/import's text fields (the files are `files` and `context`). */
export const importFormSchema = z.object({
  format: z.enum(IMPORT_FORMATS),
  annotator: z.string().trim().max(200).optional().transform((v) => v || undefined),
  update: flag,
  dryRun: flag,
  skipInvalidRows: flag,
  primary: flag,
});

const blankIsNone = z
  .string()
  .trim()
  .max(1000)
  .optional()
  .transform((v) => v || undefined);

/** POST /api/studies/SLUG/test-results's text fields (the files are `files`). */
export const testResultsFormSchema = z.object({ system: blankIsNone, pr: blankIsNone });

/** POST /api/annotations/assignments/ID/time: active time since the last report, per target too. */
export const timeReport = z.object({
  deltaMs: z.number().min(0).max(MAX_TIME_REPORT_MS),
  targets: z.record(z.string().max(200), z.number().min(0).max(MAX_TIME_REPORT_MS)).optional(),
});

/** POST /api/annotations/assignments/ID/skip. */
export const skipRequest = z.object({ reason: z.string().trim().min(3, "Give a reason for skipping (at least 3 characters).").max(1000) });
