/**
 * Exporting a study (issue 4). Every format streams: the study is read page by page and
 * written as it is read, so large exports never hold the study in memory and a route handler
 * can send the first bytes at once (`exportStream` gives a web ReadableStream for `Response`).
 *
 * - `jsonl`: the import format with all annotations (round trip, Hugging Face `datasets`);
 * - `long-csv`, `long-jsonl`: one row per (item, annotator, question);
 * - `wide-csv`, `wide-jsonl`: one row per (item, question), one column per annotator;
 * - `gradedreviews`: the GradedReviews benchmark workbook.
 */
import { db, type PrismaClient } from "@/lib/db/client";
import type { ExportFormat } from "./formats";
import { gradedReviewsLayout, gradedReviewsWorkbook } from "./gradedreviews";
import { jsonlExport } from "./jsonl";
import { longCsv, longJsonl } from "./long";
import { studyAnnotators, studyChanges } from "./study-rows";
import { wideCsv, wideJsonl } from "./wide";

export { EXPORT_FORMATS, exportContentType, exportFileName, isExportFormat, type ExportFormat } from "./formats";

export interface ExportRequest {
  studyId: string;
  format: ExportFormat;
  /** gradedreviews: whose grades fill the Grade columns when several annotators graded. */
  annotator?: string;
}

/**
 * The export as chunks (text or bytes) in order. Problems found before the first chunk (an
 * ambiguous grader) are thrown when the first chunk is requested, so a route can still answer
 * with an error status.
 */
export async function* streamExport(request: ExportRequest, client: PrismaClient = db): AsyncGenerator<string | Uint8Array> {
  const study = await client.study.findUniqueOrThrow({ where: { id: request.studyId }, select: { likertDimensions: true } });
  const dimensions = study.likertDimensions;
  const changes = studyChanges(client, request.studyId);
  switch (request.format) {
    case "jsonl":
      yield* jsonlExport(changes, dimensions);
      return;
    case "long-csv":
      yield* longCsv(changes, dimensions);
      return;
    case "long-jsonl":
      yield* longJsonl(changes, dimensions);
      return;
    case "wide-csv":
      yield* wideCsv(changes, dimensions, await studyAnnotators(client, request.studyId));
      return;
    case "wide-jsonl":
      yield* wideJsonl(changes, dimensions, await studyAnnotators(client, request.studyId));
      return;
    case "gradedreviews":
      yield* gradedReviewsWorkbook(changes, await gradedReviewsLayout(client, request.studyId, request.annotator));
      return;
  }
}

/** The export as a web stream of bytes, for `new Response(exportStream(...))` in a route handler. */
export function exportStream(request: ExportRequest, client: PrismaClient = db): ReadableStream<Uint8Array> {
  const chunks = streamExport(request, client);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(typeof next.value === "string" ? encoder.encode(next.value) : next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
