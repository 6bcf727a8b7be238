/**
 * The reads of a study's exports: which formats it has data for, what an export is checked
 * against before it starts, and its rows, page by page (lib/data/export-rows.ts), handed to the
 * formats of lib/export as they are read.
 */
import "server-only";
import { db, type PrismaClient } from "@/lib/db/client";
import type { AnswerValue } from "@/lib/agreement";
import { taskConsensus } from "@/lib/data/consensus";
import { studyAnnotators, studyAnswers, studyCodeChanges } from "@/lib/data/export-rows";
import { goldItems, type GoldItems } from "@/lib/data/gold";
import { uncountedRaters } from "@/lib/data/study-access";
import { studyPullRequests } from "@/lib/data/pull-requests";
import { requireStudy } from "@/lib/data/studies";
import { agreementReport } from "@/lib/data/reports";
import type { LedStudy } from "@/lib/data/study-access";
import { TASK_LABELS } from "@/lib/annotation/task-labels";
import { datasetCard } from "@/lib/export/dataset-card";
import { parquetTablesOfLong, type ParquetTable } from "@/lib/export/parquet";
import type { ExportFile } from "@/lib/export/zip";
import { byteStream, type ExportOffer, type ExportRequest, noExportData, offeredFormats, type PreparedExport, writeExport } from "@/lib/export";
import { type Adjudicated, codeChangeConsensus, consensusKey } from "@/lib/export/consensus";
import type { DatasetFormat, ExportData, ExportFormat } from "@/lib/export/formats";
import { gradedReviewsLayout } from "@/lib/export/gradedreviews";
import { commentQuestionsForExport, type CommentQuestions } from "@/lib/export/github-comments";
import type { ExportedTestOutcome } from "@/lib/export/test-outcomes";
import { answersValue, pairColumn, pairOfItem } from "@/lib/tasks/comment-questions";
import type { StudyForAnalysis } from "@/lib/data/studies";

/** The annotators who graded reviews of the study, by name (the page's picker of annotators with grades). */
function studyAnnotatorsWithGrades(client: PrismaClient, studyId: string): Promise<{ id: string; name: string }[]> {
  return client.account.findMany({ where: { referenceGrades: { some: { review: { codeChange: { studyId } } } } }, select: { id: true, name: true }, orderBy: [{ name: "asc" }, { id: "asc" }] });
}

/** Whether any annotation of the study's claims, reviews or review comments exists (one row looked up per table at most). */
async function hasAnnotations(client: PrismaClient, studyId: string): Promise<boolean> {
  const inStudy = { codeChange: { studyId } };
  const found = [
    () => client.claimJudgement.findFirst({ where: { pseudoReference: inStudy }, select: { id: true } }),
    () => client.reviewRating.findFirst({ where: { review: inStudy }, select: { id: true } }),
    () => client.referenceGrade.findFirst({ where: { review: inStudy }, select: { id: true } }),
    () => client.commentFilteringLabel.findFirst({ where: { review: inStudy }, select: { id: true } }),
    () => client.commentAnswers.findFirst({ where: { reviewComment: { pullRequest: { studyId } } }, select: { id: true } }),
  ];
  for (const find of found) if (await find()) return true;
  return false;
}

/** The formats the study has data for, one statement at a time (an export takes one connection of the pool). */
export async function exportOffer(studyId: string, client: PrismaClient = db): Promise<ExportOffer> {
  const changes = (await client.codeChange.findFirst({ where: { studyId }, select: { id: true } })) !== null;
  const annotations = changes && (await hasAnnotations(client, studyId));
  const graders = annotations ? (await studyAnnotatorsWithGrades(client, studyId)).map((g) => g.name) : [];
  const comments = changes && (await client.reviewComment.findFirst({ where: { pullRequest: { studyId } }, select: { id: true } })) !== null;
  const outcomes = comments && (await client.testOutcome.findFirst({ where: { pullRequest: { studyId } }, select: { id: true } })) !== null;
  const has: Record<ExportData, boolean> = { "code changes": changes, annotations, "reference grades": graders.length > 0, "review comments": comments, "test outcomes": outcomes };
  const gold = (await client.consensus.findFirst({ where: { studyId, gold: true }, select: { id: true } })) !== null;
  return { formats: offeredFormats(has), gold, graders };
}

/** Refuses (409) a format the study has no data for. */
export async function requireExportData(client: PrismaClient, studyId: string, format: ExportFormat): Promise<void> {
  if (!(await exportOffer(studyId, client)).formats.includes(format)) throw noExportData(format);
}

/** The lead's adjudicated values of the study, read once per export: a study's adjudicated values are few (a lead decides them one by one). */
export async function adjudicatedValues(client: PrismaClient, studyId: string): Promise<Adjudicated> {
  const rows = await client.consensus.findMany({ where: { studyId }, select: { task: true, itemId: true, question: true, value: true }, orderBy: [{ task: "asc" }, { itemId: "asc" }, { question: "asc" }] });
  const out: Adjudicated = new Map();
  // A decision on a pair of the matching question is its system comment's, under the column QUESTION:HUMAN_EXTERNAL_ID (lib/tasks/comment-questions.ts).
  const humans = rows.flatMap((r) => pairOfItem(r.itemId)?.humanCommentId ?? []);
  const externalIds = new Map(humans.length === 0 ? [] : (await client.reviewComment.findMany({ where: { id: { in: humans } }, select: { id: true, externalId: true } })).map((h) => [h.id, h.externalId]));
  for (const row of rows) {
    const pair = pairOfItem(row.itemId);
    const key = consensusKey(row.task, pair?.commentId ?? row.itemId);
    if (!out.has(key)) out.set(key, new Map());
    out.get(key)!.set(pair ? pairColumn(row.question, externalIds.get(pair.humanCommentId) ?? pair.humanCommentId) : row.question, row.value as AnswerValue);
  }
  return out;
}

/** The consensus grade of each generated review (GradedReviews workbook): review id → grade. */
export async function consensusGrades(client: PrismaClient, studyId: string, gold: GoldItems = new Map()): Promise<Map<string, number>> {
  const grades = new Map<string, number>();
  for (const [reviewId, questions] of await taskConsensus(client, await requireStudy({ id: studyId }, client), "REFERENCE_GRADING")) {
    if (gold.get("REFERENCE_GRADING")?.has(reviewId)) continue;
    const grade = questions.get("grade");
    if (grade) grades.set(reviewId, Number(grade.value));
  }
  return grades;
}

/** The systems of the study's generated reviews in review order (their first position, then name). */
async function studySystems(client: PrismaClient, studyId: string): Promise<string[]> {
  const systems = await client.review.groupBy({ by: ["system"], where: { codeChange: { studyId }, isReference: false }, _min: { position: true } });
  systems.sort((a, b) => (a._min.position ?? 0) - (b._min.position ?? 0) || a.system.localeCompare(b.system));
  return systems.map((s) => s.system);
}

/** The known answers (gold) an export leaves out: none when it includes gold. */
const leftOutGold = (request: ExportRequest, client: PrismaClient): Promise<GoldItems> => (request.includeGold ? Promise.resolve(new Map()) : goldItems(client, request.studyId));

/** An export checked: a format without data, an unknown annotator are refused here, before a response starts. */
export async function prepareExport(request: ExportRequest, client: PrismaClient = db): Promise<PreparedExport> {
  await requireExportData(client, request.studyId, request.format);
  if (request.format !== "gradedreviews") return { request };
  const consensus = async () => consensusGrades(client, request.studyId, await leftOutGold(request, client));
  return { request, gradedReviews: await gradedReviewsLayout(await studySystems(client, request.studyId), await studyAnnotatorsWithGrades(client, request.studyId), consensus, request.annotator) };
}

/** The export as chunks (text or bytes) in order. */
export async function* streamExport(input: ExportRequest | PreparedExport, client: PrismaClient = db): AsyncGenerator<string | Uint8Array> {
  const prepared = "request" in input ? input : await prepareExport(input, client);
  const { studyId } = prepared.request;
  const study = await requireStudy({ id: studyId }, client);
  const gold = await leftOutGold(prepared.request, client);
  yield* writeExport(prepared, {
    study,
    changes: () => studyCodeChanges(client, studyId, gold),
    // The long and wide formats write no diff, file or pull request: their pages are read without (studyAnswers).
    answers: () => studyAnswers(client, studyId, gold),
    consensus: async () => codeChangeConsensus(study, await adjudicatedValues(client, studyId), gold, await uncountedRaters(studyId, client)),
    annotators: () => studyAnnotators(client, studyId),
    hasCommentAnswers: async () => (await client.commentAnswers.findFirst({ where: { reviewComment: { pullRequest: { studyId } } }, select: { id: true } })) !== null,
    hasJudges: async () => (await client.judgeRun.findFirst({ where: { studyId }, select: { id: true } })) !== null,
    hasReviewComments: async () => (await client.reviewComment.findFirst({ where: { pullRequest: { studyId } }, select: { id: true } })) !== null,
    pullRequests: () => studyPullRequests(studyId, client),
    commentQuestions: () => studyCommentQuestions(client, study, gold),
    testOutcomes: () => studyTestOutcomes(client, studyId),
  });
}

/** The study's test outcomes by pull request, system and test, with the id of each one's human comment. */
async function studyTestOutcomes(client: PrismaClient, studyId: string): Promise<ExportedTestOutcome[]> {
  const rows = await client.testOutcome.findMany({
    where: { pullRequest: { studyId } },
    orderBy: [{ pullRequest: { externalId: "asc" } }, { system: "asc" }, { testId: "asc" }],
    select: { system: true, testId: true, status: true, durationSeconds: true, message: true, reviewCommentId: true, pullRequest: { select: { externalId: true } }, reviewComment: { select: { externalId: true } } },
  });
  return rows.map((r) => ({ pullRequest: r.pullRequest.externalId, system: r.system, testId: r.testId, status: r.status, comment: r.reviewComment?.externalId ?? null, commentId: r.reviewCommentId, durationSeconds: r.durationSeconds, message: r.message }));
}

/** Each review comment's answers and consensus of comment questions, one statement at a time (an export takes one connection). */
async function studyCommentQuestions(client: PrismaClient, study: StudyForAnalysis, gold: GoldItems): Promise<CommentQuestions> {
  if (!study.tasks.includes("COMMENT_QUESTIONS")) return new Map();
  const comments = await client.reviewComment.findMany({ where: { pullRequest: { studyId: study.id } }, select: { id: true, testText: true } });
  const rows = await client.commentAnswers.findMany({
    where: { reviewComment: { pullRequest: { studyId: study.id } } },
    orderBy: [{ reviewCommentId: "asc" }, { annotatorId: "asc" }],
    select: { reviewCommentId: true, annotatorId: true, answers: true, notes: true, annotator: { select: { name: true } }, reviewComment: { select: { pullRequestId: true } } },
  });
  // A pull request's assignment is on its first file: open ones make their annotator's answers drafts.
  const open = await client.assignment.findMany({ where: { studyId: study.id, task: "COMMENT_QUESTIONS", status: { not: "DONE" } }, select: { annotatorId: true, codeChange: { select: { pullRequestId: true } } } });
  const drafting = new Set(open.map((a) => `${a.annotatorId}:${a.codeChange.pullRequestId}`));
  const stored = rows.map((r) => ({ ...answersValue(r), commentId: r.reviewCommentId, annotatorId: r.annotatorId, annotator: r.annotator.name, status: drafting.has(`${r.annotatorId}:${r.reviewComment.pullRequestId}`) ? ("draft" as const) : ("submitted" as const) }));
  const consensus = await taskConsensus(client, study, "COMMENT_QUESTIONS");
  const withTest = comments.map((c) => ({ id: c.id, hasTest: c.testText !== null }));
  return commentQuestionsForExport(withTest, study.commentQuestions, study, stored, consensus, gold.get("COMMENT_QUESTIONS"));
}

/** The export as a web stream of bytes, for `new Response(exportStream(...))` in a route handler. */
export function exportStream(request: ExportRequest | PreparedExport, client: PrismaClient = db): ReadableStream<Uint8Array> {
  return byteStream(streamExport(request, client));
}

/**
 * A folder export's files from the long rows of `prepared` (a `long-jsonl` export, with its
 * filters): `parquet`, one table per task; `hf`, the tables under data/ and the dataset card
 * (README.md) with the study's agreement figures.
 */
export async function datasetFiles(format: DatasetFormat, study: LedStudy, prepared: PreparedExport, license: string, client: PrismaClient = db): Promise<{ files: ExportFile[]; tables: ParquetTable[] }> {
  const tables = await parquetTablesOfLong(streamExport(prepared, client));
  const folder = format === "hf" ? "data/" : "";
  const files = tables.map((table) => ({ path: `${folder}${table.file}`, bytes: new Uint8Array(table.buffer) }));
  if (format === "parquet") return { files, tables };
  const { includeGold = false } = prepared.request;
  const agreement = await agreementReport(study.id, { includeGold }, client);
  const card = datasetCard({ study, tasks: study.tasks.map((task) => ({ task, label: TASK_LABELS[task] })), tables, agreement, license, includeGold, exportedAt: new Date() });
  return { files: [...files, { path: "README.md", bytes: new TextEncoder().encode(card) }], tables };
}
