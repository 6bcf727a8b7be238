/**
 * Exporting a study. Every format streams: the study is read page by page and
 * written as it is read, so large exports never hold the study in memory and a route handler
 * can send the first bytes at once (`exportStream` gives a web ReadableStream for `Response`).
 *
 * - `jsonl`: the import format with all annotations (round trip, Hugging Face `datasets`);
 * - `long-csv`, `long-jsonl`: one row per (item, annotator, question);
 * - `wide-csv`, `wide-jsonl`: one row per (item, question), one column per annotator;
 * - `gradedreviews`: the GradedReviews benchmark workbook;
 * - `github-comments`: the pull requests' review comments in GitHub's REST shape.
 *
 * The jsonl, long and wide exports carry each annotator's values and the consensus (./consensus.ts).
 * CSV cells that a spreadsheet would read as formulas are neutralised (./csv.ts) unless `raw`.
 * A format the study has no data for is refused (./available.ts). The same data gives the same
 * bytes: every statement has a total order (./study-rows.ts), the workbook a fixed time.
 * Known answers (gold, for attention checks) are left out unless the request includes them: the
 * annotations and consensus of each answered claim or review for that task, not its whole change.
 */
import { db, type PrismaClient } from "@/lib/db/client";
import { goldItems, type GoldItems } from "@/lib/data/gold";
import { studyPullRequests } from "@/lib/data/pull-requests";
import { requireStudy } from "@/lib/data/studies";
import { requireExportData } from "./available";
import { adjudicatedValues, changeConsensus, consensusColumns, consensusGrades, type ChangeConsensus } from "./consensus";
import type { ExportFormat } from "./formats";
import { githubCommentsExport } from "./github-comments";
import { gradedReviewsLayout, gradedReviewsWorkbook, type GradedReviewsLayout } from "./gradedreviews";
import { jsonlExport } from "./jsonl";
import { longCsv, longJsonl } from "./long";
import type { AnswerFilter } from "./answers";
import { studyAnnotators, studyAnswers, studyChanges } from "./study-rows";
import { wideCsv, wideJsonl } from "./wide";

export { exportOffer, type ExportOffer } from "./available";
export { type AnswerFilter, type AnswerStatus } from "./answers";
export { attachmentHeader, EXPORT_FORMATS, EXPORT_NEEDS, exportContentType, exportFileName, isExportFormat, type ExportFormat } from "./formats";

export interface ExportRequest {
  studyId: string;
  format: ExportFormat;
  /** gradedreviews: the annotator whose grades fill the Grade columns instead of the consensus. */
  annotator?: string;
  /** Annotations of items with a known answer (gold, lib/data/gold) too; by default they are left out. */
  includeGold?: boolean;
  /** long and wide formats: only the answers of this status, annotator (id or name) and saving dates. */
  filter?: AnswerFilter;
  /** CSV formats: texts as they are, not neutralised against formulas (for scripts: the command line's `--raw`). */
  raw?: boolean;
}

/** An export checked and ready to stream: what can be refused (a format without data, an unknown grader) is refused here, before a response starts. */
export interface PreparedExport {
  request: ExportRequest;
  gradedReviews?: GradedReviewsLayout;
}

export async function prepareExport(request: ExportRequest, client: PrismaClient = db): Promise<PreparedExport> {
  await requireExportData(client, request.studyId, request.format);
  if (request.format !== "gradedreviews") return { request };
  return { request, gradedReviews: await gradedReviewsLayout(client, request.studyId, async () => consensusGrades(client, request.studyId, await leftOutGold(request, client)), request.annotator) };
}

/** The known answers (gold) an export leaves out: none when it includes gold. */
const leftOutGold = (request: ExportRequest, client: PrismaClient): Promise<GoldItems> => (request.includeGold ? Promise.resolve(new Map()) : goldItems(client, request.studyId));

/** The export as chunks (text or bytes) in order. */
export async function* streamExport(input: ExportRequest | PreparedExport, client: PrismaClient = db): AsyncGenerator<string | Uint8Array> {
  const prepared = "request" in input ? input : await prepareExport(input, client);
  const { request } = prepared;
  const study = await requireStudy({ id: request.studyId }, client);
  const dimensions = study.likertDimensions;
  const gold = await leftOutGold(request, client);
  const changes = () => studyChanges(client, request.studyId, gold);
  // The long and wide formats write no diff, file or pull request: their pages are read without (studyAnswers).
  const answers = () => studyAnswers(client, request.studyId, gold);
  const consensus = async (): Promise<ChangeConsensus> => changeConsensus(study, await adjudicatedValues(client, request.studyId), gold);
  switch (request.format) {
    case "jsonl":
      yield* jsonlExport(changes(), dimensions, await consensus(), consensusColumns(study));
      return;
    case "long-csv":
      yield* longCsv(answers(), dimensions, await consensus(), request.filter, { raw: request.raw });
      return;
    case "long-jsonl":
      yield* longJsonl(answers(), dimensions, await consensus(), request.filter);
      return;
    case "wide-csv":
      yield* wideCsv(answers(), dimensions, await studyAnnotators(client, request.studyId), await consensus(), request.filter, { raw: request.raw });
      return;
    case "wide-jsonl":
      yield* wideJsonl(answers(), dimensions, await studyAnnotators(client, request.studyId), await consensus(), request.filter);
      return;
    case "gradedreviews":
      yield* gradedReviewsWorkbook(changes(), prepared.gradedReviews!);
      return;
    case "github-comments":
      // No question is asked of review comments yet: each comment's `questions` is empty.
      yield* githubCommentsExport(await studyPullRequests(request.studyId, client));
      return;
  }
}

/** The export as a web stream of bytes, for `new Response(exportStream(...))` in a route handler. */
export function exportStream(request: ExportRequest | PreparedExport, client: PrismaClient = db): ReadableStream<Uint8Array> {
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
