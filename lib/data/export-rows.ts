/**
 * Reads a study for export page by page (code changes in study order with their
 * pseudo-references, reviews and all annotations), so exports stream in constant memory and
 * never hold a whole study. Straight through pg (rawArrays, pipelinedArrays), one statement per table and page
 * with the page's change ids as one array parameter: Prisma's nested includes (an IN list per
 * relation, its query compiler and result mapping) made exports run at 1-2 MiB/s.
 * Annotations' times come back as ISO 8601 UTC text (`isoTime`), JSON columns parsed. Every
 * statement has a total order on stable keys (ids, external ids), so two exports of the same data
 * are the same bytes whatever order the rows lie in.
 */
import "server-only";
import { setImmediate } from "node:timers/promises";
import { pipelinedArrays, Prisma, rawArrays, rawRows, type PrismaClient } from "@/lib/db/client";
import type { GoldItems } from "@/lib/data/gold";
import type { AssignmentStatus, TaskType } from "@/lib/generated/prisma/enums";
import { TASK_LIST } from "@/lib/tasks";
import { ITEM_TABLES, type TaskDescriptor } from "@/lib/tasks/types";
import type { AnnotatedChange, ExportedAnnotation, ExportedChange, ExportedPseudoReference, ExportedReview, ExportedReviewComment, StudyAnnotator } from "@/lib/export/rows";

/**
 * What a page reads: the whole study (the jsonl and GradedReviews exports), or its answers and the
 * texts of the claims and reviews they answer (the long and wide formats, which write no diff, file,
 * metadata or pull request: about half of a page's bytes).
 */
type Reading = "study" | "answers";

/** Code changes per page: a few thousand reviews and their annotations. */
const PAGE = 500;

/** A change as its page reads it: the export order's key (position, external id, id), and with the study's texts its own and its pull request's. */
type ChangeRow = Pick<AnnotatedChange, "id" | "externalId" | "position"> &
  Partial<Omit<ExportedChange, "pullRequest" | "assignments" | "pseudoReferences" | "reviews">> & {
    prExternalId?: string | null;
    prRepository?: string;
    prTitle?: string;
    prDescription?: string;
    prMetadata?: unknown;
  };

/** The next page of the study's changes after `after` (keyset on the export order: position, external id, id). */
async function changePage(client: PrismaClient, studyId: string, after: ChangeRow | undefined, size: number, reading: Reading): Promise<ChangeRow[]> {
  const next = after ? Prisma.sql`AND c.position >= ${after.position} AND (c.position, c."externalId", c.id) > (${after.position}, ${after.externalId}, ${after.id})` : Prisma.empty;
  const page = (columns: Prisma.Sql) => Prisma.sql`SELECT ${columns} FROM "CodeChange" c WHERE c."studyId" = ${studyId} ${next} ORDER BY c.position, c."externalId", c.id LIMIT ${size}`;
  if (reading === "answers") return (await rawArrays(client, page(Prisma.sql`c.id, c."externalId", c.position`))).map((r): ChangeRow => ({ id: r[0] as string, externalId: r[1] as string, position: r[2] as number }));
  const rows = await rawArrays(
    client,
    Prisma.sql`SELECT c.id, c."externalId", c.position, c."filePath", c.language, c.diff, c."oldFile", c."newFile", c.metadata,
      p."externalId" AS "prExternalId", p.repository AS "prRepository", p.title AS "prTitle", p.description AS "prDescription", p.metadata AS "prMetadata"
    FROM (${page(Prisma.sql`*`)}) c
      LEFT JOIN "PullRequest" p ON p.id = c."pullRequestId"
    ORDER BY c.position, c."externalId", c.id`,
  );
  return rows.map(
    (r): ChangeRow => ({
      id: r[0] as string,
      externalId: r[1] as string,
      position: r[2] as number,
      filePath: r[3] as string,
      language: r[4] as string,
      diff: r[5] as string,
      oldFile: r[6] as string,
      newFile: r[7] as string,
      metadata: r[8],
      prExternalId: r[9] as string | null,
      prRepository: r[10] as string,
      prTitle: r[11] as string,
      prDescription: r[12] as string,
      prMetadata: r[13],
    }),
  );
}

/**
 * A timestamp(3) column (UTC, as Prisma writes them) as the text `Date.toISOString` gives: every
 * export writes times so, and a Date parsed per time and formatted again cost node a fifth of its
 * reading CPU. `column` is this module's constant.
 */
const isoTime = (column: string) => Prisma.raw(`to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** The bookkeeping columns of an annotation (annotator, times, the import that wrote it); the annotator and import run are completed by `asAnnotation`. */
const ANNOTATION_COLUMNS = Prisma.sql`t."annotatorId", ${isoTime('t."createdAt"')} AS "createdAt", ${isoTime('t."updatedAt"')} AS "updatedAt", t."timeSpentMs", t."importedFile", t."importRunId"`;

/** An annotation's row: its table's own fields (`own`, from the first columns), then its bookkeeping (ANNOTATION_COLUMNS) and item from column `at` on. */
function annotationRow<Own extends object>(own: Own, r: readonly unknown[], at: number): Own & AnnotationRow {
  const row = own as Own & AnnotationRow;
  row.annotatorId = r[at] as string;
  row.createdAt = r[at + 1] as string;
  row.updatedAt = r[at + 2] as string;
  row.timeSpentMs = r[at + 3] as number | null;
  row.importedFile = r[at + 4] as string | null;
  row.importRunId = r[at + 5] as string | null;
  row.itemId = r[at + 6] as string;
  return row;
}

interface AnnotationRow {
  annotatorId: string;
  createdAt: string;
  updatedAt: string;
  timeSpentMs: number | null;
  importedFile: string | null;
  importRunId: string | null;
  itemId: string;
}

/** A page's annotators and import runs by id. */
interface Bookkeeping {
  annotators: Map<string, ExportedAnnotation["annotator"]>;
  runs: Map<string, NonNullable<ExportedAnnotation["importRun"]>>;
}

/**
 * The annotators and import runs of a page's annotations, each read once and shared by its
 * annotations, rather than joined onto every annotation row (a name, an e-mail and a run's time
 * parsed per row, and three joins per statement).
 */
async function pageBookkeeping(client: PrismaClient, tables: readonly (readonly AnnotationRow[])[]): Promise<Bookkeeping> {
  const annotatorIds = new Set<string>();
  const runIds = new Set<string>();
  for (const rows of tables) {
    for (const row of rows) {
      annotatorIds.add(row.annotatorId);
      if (row.importRunId !== null) runIds.add(row.importRunId);
    }
  }
  const annotators = await rawRows<ExportedAnnotation["annotator"]>(client, Prisma.sql`SELECT id, name, kind FROM "User" WHERE id = ANY(${[...annotatorIds]}::text[]) ORDER BY id`);
  const runs = await rawRows<{ id: string; createdAt: string; createdBy: string | null }>(
    client,
    Prisma.sql`SELECT run.id, ${isoTime('run."createdAt"')} AS "createdAt", creator.email AS "createdBy" FROM "ImportRun" run LEFT JOIN "User" creator ON creator.id = run."createdById" WHERE run.id = ANY(${[...runIds]}::text[]) ORDER BY run.id`,
  );
  return {
    annotators: new Map(annotators.map((a) => [a.id, a])),
    runs: new Map(runs.map((r) => [r.id, { createdAt: r.createdAt, createdBy: r.createdBy === null ? null : { email: r.createdBy } }])),
  };
}

/**
 * The rows are completed in place (annotator, import run; a page's children) rather than copied
 * by spreading: copies of every row were a third of an export's CPU, most of it collecting them.
 */
function asAnnotation<Row extends AnnotationRow>(row: Row, bookkeeping: Bookkeeping): Row & ExportedAnnotation {
  const annotation = row as Row & ExportedAnnotation;
  annotation.annotator = bookkeeping.annotators.get(row.annotatorId)!;
  annotation.importRun = (row.importRunId !== null && bookkeeping.runs.get(row.importRunId)) || null;
  return annotation;
}

/** A table's annotations completed and grouped by item; those whose annotator is gone since they were read are left out, as the join with the annotator left them out. */
function byItem<Row extends AnnotationRow>(rows: Row[], bookkeeping: Bookkeeping): Map<string, (Row & ExportedAnnotation)[]> {
  return groupBy(
    rows.filter((r) => bookkeeping.annotators.has(r.annotatorId)).map((r) => asAnnotation(r, bookkeeping)),
    (r) => r.itemId,
  );
}

/** Rows grouped by a key, each group in the rows' order. */
function groupBy<Row>(rows: readonly Row[], key: (row: Row) => string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/**
 * `FROM` the rows of `table` (alias `i`, its `columns`) on the changes `codeChangeIds`, looked up change by
 * change through the table's index on its change: as `"codeChangeId" = ANY(ids)` (and as a join),
 * PostgreSQL read the whole table for each page of a study not analyzed yet since its import (a
 * sequential scan, 30 ms a statement: an export right after an import), where this plan does not
 * depend on the statistics. `table` is this module's constant.
 */
const onChanges = (table: string, columns: Prisma.Sql, codeChangeIds: string[]) =>
  Prisma.sql`FROM unnest(${codeChangeIds}::text[]) page(id) CROSS JOIN LATERAL (SELECT ${columns} FROM ${Prisma.raw(`"${table}"`)} i WHERE i."codeChangeId" = page.id OFFSET 0) i`;

/**
 * The ids of the items (`itemTable`: pseudo-references or reviews) of the changes `codeChangeIds`, as an
 * array built by the server: sending the ids as a parameter (5,000 reviews a page, for each of four
 * statements) cost node a fifth of its reading CPU, and as a join PostgreSQL read every annotation
 * of the table for each page (a hash join on a sequential scan), where the array keeps its index scan.
 */
const pageItems = (itemTable: string, codeChangeIds: string[]) => Prisma.sql`ARRAY(SELECT i.id ${onChanges(itemTable, Prisma.sql`i.id`, codeChangeIds)})`;

/**
 * The statement of one task's annotations (its own columns, lib/tasks: `export.annotations`) on the items of the changes `codeChangeIds` (found by `pageItems`), oldest
 * first, without those on the items with a known answer (gold) for its task. Rows of one time (an
 * import's rows share its time) come in id order, which for an import's rows is the order it made
 * them in (lib/import/row-ids.ts), the file's: a re-import of the export makes them so again, and
 * the jsonl round trip gives the same file. A total order on the rows' values, never on where they
 * lie in the table (ctid, which an UPDATE or VACUUM FULL changes): the same data gives the same
 * bytes. The table and columns are the descriptors' constants.
 */
function annotations(task: TaskDescriptor, codeChangeIds: string[], gold: GoldItems): Prisma.Sql {
  const item = Prisma.raw(`t."${task.storage.item.column}"`);
  return Prisma.sql`SELECT ${Prisma.raw(task.export.annotations.columns.join(", "))}, ${ANNOTATION_COLUMNS}, ${item} AS "itemId"
    FROM ${Prisma.raw(`"${task.storage.table}"`)} t
    WHERE ${item} = ANY(${pageItems(ITEM_TABLES[task.itemKind], codeChangeIds)}) AND NOT ${item} = ANY(${[...(gold.get(task.task) ?? [])]}::text[])
    ORDER BY t."createdAt", t.id`;
}

/** The rows of a task's `annotations` statement. */
const annotationRows = (task: TaskDescriptor, rows: unknown[][]): AnnotationRow[] => rows.map((r) => annotationRow(task.export.annotations.row(r), r, task.export.annotations.columns.length));

/** The tasks whose assignment covers a pull request (stored on its first file, lib/tasks/comment-questions.ts): those of review comments. */
const PULL_REQUEST_TASKS = TASK_LIST.filter((t) => t.itemKind === "reviewComment").map((t) => t.task);

type ReferenceRow = ExportedPseudoReference & { codeChangeId: string; addedById: string | null; addedByName: string | null; correctsExternalId: string | null };
type ReviewRow = ExportedReview & { codeChangeId: string };
type CommentRow = ExportedReviewComment & { codeChangeId: string };

/**
 * A page's pseudo-references, reviews and annotations, their statements pipelined on one connection
 * (pipelinedArrays): an export holds one connection of the pool at a time, and annotators' saves on
 * the same web process find one free (sent on the pool together, a page's statements took up to five
 * connections of eight, two of two). One after the other, PostgreSQL waited for node to read each
 * result before it ran the next: pipelined, the jsonl export of the bench study took 1.30 s instead
 * of 1.62 s (medians of 4, load ~2.9 on 2 cores).
 */
async function changeChildren(client: PrismaClient, changes: ChangeRow[], gold: GoldItems, reading: Reading): Promise<AnnotatedChange[]> {
  const study = reading === "study";
  const codeChangeIds = changes.map((c) => c.id);
  // The corrected claim (and a link's claim) is looked up by id per row: as a join, PostgreSQL
  // hashed every pseudo-reference of the database for each page (114 of a page's 130 ms, EXPLAIN ANALYZE).
  const [assignmentRows, referenceRows, reviewRows, linkRows, commentRows, pullRequestAssignmentRows, ...annotationArrays] = await pipelinedArrays(client, [
    Prisma.sql`SELECT i.* ${onChanges("Assignment", Prisma.sql`i."codeChangeId", i."userId", i."taskType", i.status, ${isoTime('i."completedAt"')} AS "completedAt"`, codeChangeIds)} ORDER BY 1, 2, 3`,
    Prisma.sql`SELECT i.id, i."codeChangeId", i."externalId", i.text ${study ? Prisma.sql`, i.kind, i.source, i.position, a.id AS "addedById", a.name AS "addedByName", (SELECT k."externalId" FROM "PseudoReference" k WHERE k.id = i."correctsId") AS "correctsExternalId"` : Prisma.empty}
    ${onChanges("PseudoReference", Prisma.sql`i.id, i."codeChangeId", i."externalId", i.text, i.kind, i.source, i.position, i."addedById", i."correctsId"`, codeChangeIds)}
      ${study ? Prisma.sql`LEFT JOIN "User" a ON a.id = i."addedById"` : Prisma.empty}
    ORDER BY i.position, i."externalId", i.id`,
    Prisma.sql`SELECT i.id, i."codeChangeId", i."externalId", i.system, i.text ${study ? Prisma.sql`, i."isReference", i.position` : Prisma.empty}
    ${onChanges("CandidateReview", Prisma.sql`i.id, i."codeChangeId", i."externalId", i.system, i.text, i."isReference", i.position`, codeChangeIds)} ORDER BY i.position, i."externalId", i.id`,
    // A rating's links (ReviewClaimLink), by the rating's id.
    Prisma.sql`SELECT l."ratingId", l.partial, (SELECT p."externalId" FROM "PseudoReference" p WHERE p.id = l."pseudoReferenceId") AS "externalId"
    FROM "ReviewClaimLink" l JOIN "ReviewRating" t ON t.id = l."ratingId" WHERE t."candidateReviewId" = ANY(${pageItems("CandidateReview", codeChangeIds)})
    ORDER BY l."ratingId", l."pseudoReferenceId"`,
    // Review comments with their anchor and the external id of their thread's first comment (GitHub threads replies under it).
    Prisma.sql`SELECT i.id, i."codeChangeId", i."externalId", i.system, i.body, i.path, i.side, i."startLine", i.line, COALESCE((SELECT r."externalId" FROM "ReviewComment" r WHERE r.id = i."inReplyToId"), i."externalId")
    ${onChanges("ReviewComment", Prisma.sql`i.id, i."codeChangeId", i."externalId", i.system, i.body, i.path, i.side, i."startLine", i.line, i."inReplyToId", i.position`, codeChangeIds)} ORDER BY i.position, i."externalId", i.id`,
    // A pull request's one assignment per annotator lies on its first file (lib/tasks/comment-questions.ts): its other files' comments are that assignment's work too.
    Prisma.sql`SELECT c.id, a."userId", a."taskType", a.status, ${isoTime('a."completedAt"')} AS "completedAt"
    FROM unnest(${codeChangeIds}::text[]) page(id) JOIN "CodeChange" c ON c.id = page.id
      CROSS JOIN LATERAL (SELECT f.id FROM "CodeChange" f WHERE f."pullRequestId" = c."pullRequestId" ORDER BY f.position, f.id LIMIT 1) first
      JOIN "Assignment" a ON a."codeChangeId" = first.id AND a."taskType" = ANY(${PULL_REQUEST_TASKS}::"TaskType"[])
    WHERE c."pullRequestId" IS NOT NULL AND first.id <> c.id
    ORDER BY 1, 2, 3`,
    ...TASK_LIST.map((task) => annotations(task, codeChangeIds, gold)),
  ]);
  const assignments = [...assignmentRows, ...pullRequestAssignmentRows].map((r) => ({ codeChangeId: r[0] as string, annotatorId: r[1] as string, task: r[2] as TaskType, status: r[3] as AssignmentStatus, completedAt: r[4] as string | null }));
  // Completed in place below (judgements; added by, corrected claim).
  const references = referenceRows.map(
    (r) =>
      (study
        ? { id: r[0], codeChangeId: r[1], externalId: r[2], text: r[3], kind: r[4], source: r[5], position: r[6], addedById: r[7], addedByName: r[8], correctsExternalId: r[9] }
        : { id: r[0], codeChangeId: r[1], externalId: r[2], text: r[3] }) as ReferenceRow,
  );
  // Completed in place below (annotations).
  const reviews = reviewRows.map(
    (r) => (study ? { id: r[0], codeChangeId: r[1], externalId: r[2], system: r[3], text: r[4], isReference: r[5], position: r[6] } : { id: r[0], codeChangeId: r[1], externalId: r[2], system: r[3], text: r[4] }) as ReviewRow,
  );
  // Completed in place below (answers).
  const comments = commentRows.map(
    (r) => ({ id: r[0], codeChangeId: r[1], externalId: r[2], system: r[3], body: r[4], path: r[5], side: r[6], startLine: r[7], line: r[8], thread: r[9] }) as CommentRow,
  );
  const links = linkRows.map((r) => ({ ratingId: r[0] as string, partial: r[1] as boolean, externalId: r[2] as string }));
  const rowsOf = TASK_LIST.map((task, i) => annotationRows(task, annotationArrays[i]));
  const bookkeeping = await pageBookkeeping(client, rowsOf);
  const linksOf = groupBy(links, (l) => l.ratingId);
  if (study) {
    for (const reference of references) {
      reference.addedBy = reference.addedById === null ? null : { id: reference.addedById, name: reference.addedByName! };
      reference.corrects = reference.correctsExternalId === null ? null : { externalId: reference.correctsExternalId };
    }
  }
  const itemsOf: Record<TaskDescriptor["itemKind"], { id: string }[]> = { pseudoReference: references, review: reviews, reviewComment: comments };
  // Each item lists its annotations under the task's field, in the tasks' order (TASK_LIST): a review's ratings, grades, then labels.
  TASK_LIST.forEach((task, i) => {
    const annotationsOf = byItem(rowsOf[i], bookkeeping);
    for (const row of rowsOf[i]) if ("links" in row && "id" in row) row.links = (linksOf.get(row.id as string) ?? []).map((l) => ({ partial: l.partial, pseudoReference: { externalId: l.externalId } }));
    for (const item of itemsOf[task.itemKind]) (item as Record<string, unknown>)[task.export.annotations.field] = annotationsOf.get(item.id) ?? [];
  });
  const assignmentsOf = groupBy(assignments, (a) => a.codeChangeId);
  const referencesOf = groupBy(references, (r) => r.codeChangeId);
  const reviewsOf = groupBy(reviews, (r) => r.codeChangeId);
  const commentsOf = groupBy(comments, (c) => c.codeChangeId);
  return changes.map((row) => {
    const change = row as ChangeRow & ExportedChange;
    if (study) change.pullRequest = row.prExternalId === null ? null : { externalId: row.prExternalId!, repository: row.prRepository!, title: row.prTitle!, description: row.prDescription!, metadata: row.prMetadata };
    change.assignments = assignmentsOf.get(row.id) ?? [];
    change.pseudoReferences = referencesOf.get(row.id) ?? [];
    change.reviews = reviewsOf.get(row.id) ?? [];
    change.reviewComments = commentsOf.get(row.id) ?? [];
    return change;
  });
}

/** One page of changes with their children, and the last change when the page is full (the next page starts after it). */
async function readPage(client: PrismaClient, studyId: string, after: ChangeRow | undefined, gold: GoldItems, size: number, reading: Reading): Promise<{ changes: AnnotatedChange[]; last?: ChangeRow }> {
  const page = await changePage(client, studyId, after, size, reading);
  const changes = page.length === 0 ? [] : await changeChildren(client, page, gold, reading);
  return { changes, last: page.length === size ? page[size - 1] : undefined };
}

/** Changes consumed between two turns of the event loop while the next page is read (studyPages). */
const TURN = 10;

/**
 * The study's code changes in order (position, then external id) as `reading` reads them, one page at a time, without the annotations `gold` leaves out.
 * The next page is read while this one is consumed, so the database's work overlaps the encoding in
 * node (still one connection at a time, and at most two pages in memory). The consumer's loop runs
 * on promises alone, so the next page's statements (each group sent when the last answered) only
 * progressed between pages: the event loop is given a turn every few changes.
 */
async function* studyPages(client: PrismaClient, studyId: string, gold: GoldItems, pageSize: number, reading: Reading): AsyncGenerator<AnnotatedChange> {
  let read = readPage(client, studyId, undefined, gold, pageSize, reading);
  for (;;) {
    const { changes, last } = await read;
    if (last) {
      read = readPage(client, studyId, last, gold, pageSize, reading);
      // Handled here so that a failure while the consumer is still busy (or gone) is not an unhandled rejection; the await above rethrows it.
      read.catch(() => undefined);
    }
    for (let i = 0; i < changes.length; i++) {
      yield changes[i];
      if (last && i % TURN === TURN - 1) await setImmediate();
    }
    if (!last) return;
  }
}

/** The study's code changes with their texts and annotations (jsonl and GradedReviews exports). */
export const studyCodeChanges = (client: PrismaClient, studyId: string, gold: GoldItems = new Map(), pageSize = PAGE) => studyPages(client, studyId, gold, pageSize, "study") as AsyncGenerator<ExportedChange>;

/** The study's code changes with their claims' and reviews' texts and annotations, without the changes' own texts (long and wide exports). */
export const studyAnswers = (client: PrismaClient, studyId: string, gold: GoldItems = new Map(), pageSize = PAGE) => studyPages(client, studyId, gold, pageSize, "answers");

/** Everyone who annotated anything in the study, by name. */
export async function studyAnnotators(client: PrismaClient, studyId: string): Promise<StudyAnnotator[]> {
  const inStudy = { codeChange: { studyId } };
  const reviewInStudy = { review: inStudy };
  const where = {
    OR: [
      { claimJudgements: { some: { pseudoReference: inStudy } } },
      { reviewRatings: { some: reviewInStudy } },
      { referenceGrades: { some: reviewInStudy } },
      { commentFilteringLabels: { some: reviewInStudy } },
      { commentAnswers: { some: { reviewComment: { pullRequest: { studyId } } } } },
      { addedReferences: { some: inStudy } },
    ],
  } satisfies Prisma.AccountWhereInput;
  return client.account.findMany({ where, select: { id: true, name: true }, orderBy: [{ name: "asc" }, { id: "asc" }] });
}
