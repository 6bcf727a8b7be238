/**
 * Exporting a study. Every format streams: the study is read page by page (lib/data/exports.ts,
 * lib/data/export-rows.ts) and written as it is read, so large exports never hold the study in memory and a route handler
 * can send the first bytes at once (`exportStream` gives a web ReadableStream for `Response`).
 *
 * - `jsonl`: the import format with all annotations (round trip, Hugging Face `datasets`);
 * - `long-csv`, `long-jsonl`: one row per (item, annotator, question);
 * - `wide-csv`, `wide-jsonl`: one row per (item, question), one column per annotator;
 * - `gradedreviews`: the GradedReviews benchmark workbook;
 * - `github-comments`: the pull requests' review comments in GitHub's REST shape, each human
 *   comment with its tests' outcomes;
 * - `test-outcomes`: the review systems' test outcomes in the outcomes JSONL (./test-outcomes.ts).
 *
 * The jsonl, long and wide exports carry each annotator's values and the consensus (./consensus.ts).
 * CSV cells that a spreadsheet would read as formulas are neutralised (./csv.ts) unless `raw`.
 * A format the study has no data for is refused (./available.ts). The same data gives the same
 * bytes: every statement has a total order (lib/data/export-rows.ts), the workbook a fixed time.
 * Known answers (gold, for attention checks) are left out unless the request includes them: the
 * annotations and consensus of each answered claim or review for that task, not its whole change.
 */
import type { StudyScales } from "@/lib/analysis/questions";
import type { PullRequestView } from "@/lib/data/pull-requests";
import type { CodeChangeConsensus } from "./consensus";
import { consensusColumns } from "./consensus";
import type { ExportFormat } from "./formats";
import { githubCommentsExport, type CommentQuestions } from "./github-comments";
import { gradedReviewsWorkbook, type GradedReviewsLayout } from "./gradedreviews";
import { jsonlExport } from "./jsonl";
import { outcomesByComment, testOutcomesExport, type ExportedTestOutcome } from "./test-outcomes";
import { longCsv, longJsonl } from "./long";
import type { AnswerFilter } from "./answers";
import type { AnnotatedChange, ExportedChange, StudyAnnotator } from "./rows";
import { wideCsv, wideJsonl } from "./wide";

export { noExportData, offeredFormats, type ExportOffer } from "./available";
export { type AnswerFilter, type AnswerStatus } from "./answers";
export { attachmentHeader, EXPORT_FORMATS, EXPORT_NEEDS, exportContentType, exportFileName, isDatasetFormat, isExportFormat, type ExportFormat } from "./formats";

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

/** An export checked and ready to stream: what can be refused (a format without data, an unknown annotator) is refused here, before a response starts. */
export interface PreparedExport {
  request: ExportRequest;
  gradedReviews?: GradedReviewsLayout;
}

/** What an export reads of its study (lib/data/exports.ts), each read when the format needs it. */
export interface ExportSource {
  study: StudyScales;
  /** The code changes with their texts and annotations, in study order. */
  changes: () => AsyncIterable<ExportedChange>;
  /** The code changes' answers and the texts they answer, without the changes' own texts. */
  answers: () => AsyncIterable<AnnotatedChange>;
  consensus: () => Promise<CodeChangeConsensus>;
  annotators: () => Promise<StudyAnnotator[]>;
  /** Whether the study has answers of comment questions (the long and wide CSV formats then add the comments' anchor columns). */
  hasCommentAnswers: () => Promise<boolean>;
  /** Whether a judge rater ran in the study (the long formats then add `raterKind`). */
  hasJudges: () => Promise<boolean>;
  /** Whether the study has review comments (the jsonl format then writes each file's). */
  hasReviewComments: () => Promise<boolean>;
  /** The pull requests with their files and review comments. */
  pullRequests: () => Promise<PullRequestView[]>;
  /** Comment questions' answers and consensus of each review comment. */
  commentQuestions: () => Promise<CommentQuestions>;
  /** The stored test outcomes, by pull request, system and test. */
  testOutcomes: () => Promise<ExportedTestOutcome[]>;
}

/** The export as chunks (text or bytes) in order. */
export async function* writeExport(prepared: PreparedExport, source: ExportSource): AsyncGenerator<string | Uint8Array> {
  const { request } = prepared;
  const dimensions = source.study.likertDimensions;
  switch (request.format) {
    case "jsonl":
      yield* jsonlExport(source.changes(), dimensions, await source.consensus(), consensusColumns(source.study), await source.hasReviewComments());
      return;
    case "long-csv":
      yield* longCsv(source.answers(), source.study, await source.hasCommentAnswers(), await source.hasJudges(), await source.consensus(), request.filter, { raw: request.raw });
      return;
    case "long-jsonl":
      yield* longJsonl(source.answers(), source.study, await source.hasJudges(), await source.consensus(), request.filter);
      return;
    case "wide-csv":
      yield* wideCsv(source.answers(), source.study, await source.hasCommentAnswers(), await source.annotators(), await source.consensus(), request.filter, { raw: request.raw });
      return;
    case "wide-jsonl":
      yield* wideJsonl(source.answers(), source.study, await source.annotators(), await source.consensus(), request.filter);
      return;
    case "gradedreviews":
      yield* gradedReviewsWorkbook(source.changes(), prepared.gradedReviews!);
      return;
    case "github-comments":
      yield* githubCommentsExport(await source.pullRequests(), await source.commentQuestions(), outcomesByComment(await source.testOutcomes()));
      return;
    case "test-outcomes":
      yield* testOutcomesExport(await source.testOutcomes());
      return;
  }
}

/** Chunks as a web stream of bytes, for `new Response(...)` in a route handler. */
export function byteStream(chunks: AsyncGenerator<string | Uint8Array>): ReadableStream<Uint8Array> {
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
