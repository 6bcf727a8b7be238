/**
 * The one writer of every import format: plans a bundle against the stored rows (lib/import/plan.ts)
 * and writes it inside the caller's transaction, inserting each table with one COPY on the
 * transaction's connection (lib/import/bulk-insert.ts, not one query per row) so that a
 * 100,000-review file imports in seconds. A bundle none of whose rows are stored is written
 * while it is planned (planWhileWriting), so that PostgreSQL, the import's larger part, starts
 * early. After the commit, the tables a large import changed are analyzed (lib/import/analyze.ts).
 */
import "server-only";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setImmediate } from "node:timers/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { Prisma, rawRows, type PrismaClient } from "@/lib/db/client";
import { findOrCreateImportedAnnotator } from "@/lib/data/accounts";
import type { ClaimJudgement, CodeChange, CommentFilteringLabel, Review, PseudoReference, PullRequest, ReferenceGrade, ReviewClaimLink, ReviewRating } from "@/lib/generated/prisma/client";
import type { ResolvedAnnotators } from "@/lib/import/annotators";
import { needsAnalyze } from "@/lib/import/analyze";
import { annotatorKey, bundleAnnotators, type StudyBundle } from "@/lib/import/bundle";
import { type BulkTable, copyStatement, copyText } from "@/lib/import/bulk-insert";
import { separatedChangeId } from "@/lib/import/crscore-sheet";
import { type ImportCounts, planBundle, planSlices, type Plan, type PlanOptions, type Table, TABLES } from "@/lib/import/plan";
import { childKey, nothingStored, type Snapshot, type StoredRating } from "@/lib/import/snapshot";
import { claimMatchKey } from "@/lib/import/text";
import { BULK_TABLES, correctionOrder, type Creates, INSERT_ORDER, joined, planSize, SLICE_CHANGES, tableName, WriteCounter, type WriteProgress } from "@/lib/import/write-bundle";

type Tx = Prisma.TransactionClient;

/** Ids per DELETE … IN (…), below PostgreSQL's bind-parameter limit. */
const DELETE_CHUNK = 5000;

/** Inserts `rows` into the table with one COPY on `connection` (inside its transaction). */
export async function copyRows<Row extends object>(connection: pg.ClientBase, table: BulkTable<Row>, rows: readonly Row[], onRows?: (count: number) => void): Promise<void> {
  if (rows.length === 0) return;
  await pipeline(Readable.from(copyText(table, rows, onRows)), connection.query(copyFrom(copyStatement(table))));
}

/**
 * The account of each annotator in the bundle: the account with the file's account id when this
 * database has one (a JSONL export of this product re-imported), otherwise the imported
 * account of that name.
 */
export async function resolveAnnotators(tx: Prisma.TransactionClient, studyId: string, bundle: StudyBundle): Promise<ResolvedAnnotators> {
  const refs = bundleAnnotators(bundle);
  const ids = refs.map((r) => r.id).filter((id): id is string => id !== null);
  const known = new Set((await tx.account.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((u) => u.id));
  const annotatorIdOf = new Map<string, string>();
  const names: string[] = [];
  for (const ref of refs) {
    const accountId = ref.id !== null && known.has(ref.id) ? ref.id : (await findOrCreateImportedAnnotator(ref.name, tx)).id;
    annotatorIdOf.set(annotatorKey(ref), accountId);
    names.push(ref.name);
  }
  if (annotatorIdOf.size > 0) {
    await tx.studyMember.createMany({ data: [...new Set(annotatorIdOf.values())].map((accountId) => ({ studyId, accountId, role: "ANNOTATOR" as const })), skipDuplicates: true });
  }
  return { annotatorIdOf, names };
}

/** The column naming an annotation's item, and the model's field for it. */
const CLAIM_ITEM = { column: "pseudoReferenceId", field: "pseudoReferenceId" };
const REVIEW_ITEM = { column: "candidateReviewId", field: "reviewId" };

async function rows<Row>(connection: pg.ClientBase, text: string, values: unknown[]): Promise<Row[]> {
  return (await connection.query<Row & pg.QueryResultRow>({ text, values })).rows;
}

export async function loadSnapshot(connection: pg.ClientBase, studyId: string, bundle: StudyBundle, annotatorIds: readonly string[]): Promise<Snapshot> {
  const pullRequests = await rows<PullRequest>(connection, `SELECT * FROM "PullRequest" WHERE "studyId" = $1 AND "externalId" = ANY($2::text[])`, [studyId, bundle.pullRequests.map((p) => p.externalId)]);
  // A CRScore change may be stored under its CodeReviewer id or as id@index (crscore-sheet.ts).
  const changeKeys = bundle.codeChanges.flatMap((c) => (c.codeReviewer ? [c.externalId, c.codeReviewer.id, separatedChangeId(c.codeReviewer.id, c.codeReviewer.index)] : [c.externalId]));
  const codeChanges = await rows<CodeChange>(connection, `SELECT * FROM "CodeChange" WHERE "studyId" = $1 AND "externalId" = ANY($2::text[])`, [studyId, [...new Set(changeKeys)]]);
  const codeChangeIds = codeChanges.map((c) => c.id);
  const pseudoReferences = await rows<PseudoReference>(connection, `SELECT * FROM "PseudoReference" WHERE "codeChangeId" = ANY($1::text[])`, [codeChangeIds]);
  const reviews = await rows<Review>(connection, `SELECT * FROM "CandidateReview" WHERE "codeChangeId" = ANY($1::text[])`, [codeChangeIds]);
  const referenceIds = pseudoReferences.map((r) => r.id);
  const reviewIds = reviews.map((r) => r.id);
  const annotators = [...annotatorIds];
  const annotationsOf = <Row>(table: string, item: { column: string; field: string }, itemIds: string[]) =>
    annotators.length === 0
      ? Promise.resolve([] as Row[])
      : rows<Row>(connection, `SELECT *, "${item.column}" AS "${item.field}" FROM "${table}" WHERE "annotatorId" = ANY($1::text[]) AND "${item.column}" = ANY($2::text[])`, [annotators, itemIds]);
  const claimJudgements = await annotationsOf<ClaimJudgement>("ClaimJudgement", CLAIM_ITEM, referenceIds);
  const ratings = await annotationsOf<ReviewRating>("ReviewRating", REVIEW_ITEM, reviewIds);
  const links = await rows<ReviewClaimLink>(connection, `SELECT * FROM "ReviewClaimLink" WHERE "ratingId" = ANY($1::text[])`, [ratings.map((r) => r.id)]);
  const linksOf = new Map<string, ReviewClaimLink[]>();
  for (const link of links) linksOf.set(link.ratingId, [...(linksOf.get(link.ratingId) ?? []), link]);
  const reviewRatings: StoredRating[] = ratings.map((r) => ({ ...r, links: linksOf.get(r.id) ?? [] }));
  const referenceGrades = await annotationsOf<ReferenceGrade>("ReferenceGrade", REVIEW_ITEM, reviewIds);
  const commentFilteringLabels = await annotationsOf<CommentFilteringLabel>("CommentFilterLabel", REVIEW_ITEM, reviewIds);
  return {
    pullRequests: new Map(pullRequests.map((p) => [p.externalId, p])),
    codeChanges: new Map(codeChanges.map((c) => [c.externalId, c])),
    pseudoReferences: new Map(pseudoReferences.map((r) => [childKey(r.codeChangeId, r.externalId), r])),
    reviews: new Map(reviews.map((r) => [childKey(r.codeChangeId, r.externalId), r])),
    pseudoReferencesByText: new Map(pseudoReferences.map((r) => [childKey(r.codeChangeId, claimMatchKey(r.text)), r])),
    pseudoReferenceExternalId: new Map(pseudoReferences.map((r) => [r.id, r.externalId])),
    claimJudgements: new Map(claimJudgements.map((j) => [childKey(j.annotatorId, j.pseudoReferenceId), j])),
    reviewRatings: new Map(reviewRatings.map((r) => [childKey(r.annotatorId, r.reviewId), r])),
    referenceGrades: new Map(referenceGrades.map((g) => [childKey(g.annotatorId, g.reviewId), g])),
    commentFilteringLabels: new Map(commentFilteringLabels.map((f) => [childKey(f.annotatorId, f.reviewId), f])),
  };
}

const UPDATE: Record<Table, (tx: Tx, id: string, data: Record<string, unknown>) => Promise<unknown>> = {
  pullRequests: (tx, id, data) => tx.pullRequest.update({ where: { id }, data: data as Prisma.PullRequestUncheckedUpdateInput }),
  codeChanges: (tx, id, data) => tx.codeChange.update({ where: { id }, data: data as Prisma.CodeChangeUncheckedUpdateInput }),
  pseudoReferences: (tx, id, data) => tx.pseudoReference.update({ where: { id }, data: data as Prisma.PseudoReferenceUncheckedUpdateInput }),
  reviews: (tx, id, data) => tx.review.update({ where: { id }, data: data as Prisma.ReviewUncheckedUpdateInput }),
  claimJudgements: (tx, id, data) => tx.claimJudgement.update({ where: { id }, data: data as Prisma.ClaimJudgementUncheckedUpdateInput }),
  reviewRatings: (tx, id, data) => tx.reviewRating.update({ where: { id }, data: data as Prisma.ReviewRatingUncheckedUpdateInput }),
  referenceGrades: (tx, id, data) => tx.referenceGrade.update({ where: { id }, data: data as Prisma.ReferenceGradeUncheckedUpdateInput }),
  commentFilteringLabels: (tx, id, data) => tx.commentFilteringLabel.update({ where: { id }, data: data as Prisma.CommentFilteringLabelUncheckedUpdateInput }),
};

/** Inserts the rows by COPY on `connection`, a table at a time, parents before children. */
async function copyCreates(connection: pg.ClientBase, creates: Creates, advance: (rows: number) => void): Promise<void> {
  for (const table of INSERT_ORDER) {
    const rows: object[] = table === "pseudoReferences" ? correctionOrder(creates.pseudoReferences) : creates[table];
    await copyRows(connection, BULK_TABLES[table] as BulkTable<object>, rows, advance);
  }
}

/**
 * Writes a plan: replaced links deleted, rows inserted by COPY on `connection` (the one running
 * `tx`), then row updates.
 */
export async function applyPlan(tx: Tx, connection: pg.ClientBase, plan: Plan, onProgress?: (progress: WriteProgress) => void): Promise<void> {
  const { advance } = new WriteCounter(planSize(plan), onProgress);
  for (let i = 0; i < plan.relinkedRatings.length; i += DELETE_CHUNK) {
    await tx.reviewClaimLink.deleteMany({ where: { ratingId: { in: plan.relinkedRatings.slice(i, i + DELETE_CHUNK) } } });
  }
  await copyCreates(connection, plan.creates, advance);
  for (const update of plan.updates) {
    await UPDATE[update.table](tx, update.id, update.data);
    advance(1);
  }
}

/**
 * Plans and writes a bundle of which nothing is stored yet, so that nothing can conflict or be
 * updated: the rows planned so far are written by COPY while the next slices are planned,
 * instead of PostgreSQL waiting for the whole plan (about a second of CPU for 100,000 reviews).
 * Each COPY takes every row planned by then, so a table's rows keep their plan order and
 * parents are written before their children. Returns the same plan as planBundle.
 */
async function planWhileWriting(connection: pg.ClientBase, bundle: StudyBundle, snapshot: Snapshot, options: PlanOptions, onProgress?: (progress: WriteProgress) => void): Promise<Plan> {
  const slices = planSlices(bundle, snapshot, options, SLICE_CHANGES);
  const counter = new WriteCounter(0, onProgress);
  const pending: Creates[] = [];
  let writing: Promise<void> | null = null;
  let failure = null as { error: unknown } | null;
  const write = async () => {
    try {
      while (pending.length > 0) await copyCreates(connection, joined(pending.splice(0)), counter.advance);
    } catch (error) {
      failure = { error };
    }
    writing = null;
  };
  let plannedRows = 0;
  try {
    let next = slices.next();
    for (let count = 1; !next.done; count++, next = slices.next()) {
      const slice = next.value;
      pending.push(slice);
      plannedRows += INSERT_ORDER.reduce((n, table) => n + slice[table].length, 0);
      // Until the plan is made, the total is estimated from the code changes planned so far.
      counter.total = Math.round((plannedRows * bundle.codeChanges.length) / Math.max(1, Math.min(bundle.codeChanges.length, count * SLICE_CHANGES)));
      writing ??= write();
      await setImmediate();
      if (failure) throw failure.error;
    }
    counter.total = plannedRows;
    await writing;
    if (failure) throw failure.error;
    counter.report();
    return next.value;
  } finally {
    // The connection is the transaction's: never left in the middle of a COPY.
    await writing;
  }
}

export interface WriteOptions {
  studyId: string;
  /** The pg connection running the transaction (lib/db/client.ts transactionConnection), for COPY. */
  connection: pg.ClientBase;
  update: boolean;
  provenance: PlanOptions["provenance"];
  now?: Date;
  onProgress?: (progress: WriteProgress) => void;
}

export interface WriteResult {
  plan: Plan;
  annotators: string[];
  /** False when the plan has conflicts (never with `update`): nothing of it was written. */
  written: boolean;
}

/**
 * Writes one bundle inside the caller's transaction: annotator accounts, then the plan, unless
 * it has conflicts and `update` is off (the caller then refuses the import and rolls back).
 */
export async function writeBundle(tx: Tx, bundle: StudyBundle, options: WriteOptions): Promise<WriteResult> {
  const annotators = await resolveAnnotators(tx, options.studyId, bundle);
  const snapshot = await loadSnapshot(options.connection, options.studyId, bundle, [...new Set(annotators.annotatorIdOf.values())]);
  const planOptions = { studyId: options.studyId, annotators, update: options.update, now: options.now ?? new Date(), provenance: options.provenance };
  if (nothingStored(snapshot)) {
    const plan = await planWhileWriting(options.connection, bundle, snapshot, planOptions, options.onProgress);
    return { plan, annotators: annotators.names, written: true };
  }
  const plan = planBundle(bundle, snapshot, planOptions);
  const written = plan.conflicts.length === 0;
  if (written) await applyPlan(tx, options.connection, plan, options.onProgress);
  return { plan, annotators: annotators.names, written };
}

/** The tables (by name, in the import's order) whose rows the import created or updated, with how many. */
function changedRows(counts: ImportCounts): Map<string, number> {
  const changed = new Map<string, number>();
  for (const table of TABLES) changed.set(tableName(table), counts[table].created + counts[table].updated);
  return changed;
}

/**
 * How long ANALYZE waits for a table's lock: it waits behind a VACUUM or ANALYZE running on the
 * table (autovacuum yields to it within a second, an anti-wraparound vacuum or a lead's VACUUM do not).
 */
const LOCK_TIMEOUT = "2s";

/**
 * Analyzes the tables `counts` changed past autovacuum's threshold, one at a time; returns those
 * analyzed. Run after the commit (ANALYZE takes no lock that blocks reads or writes), so it never
 * throws: a table it cannot analyze (locked past LOCK_TIMEOUT, a database account not allowed to)
 * is left to autovacuum, and the committed import stays as it is.
 */
export async function analyzeChangedTables(client: PrismaClient, counts: ImportCounts): Promise<string[]> {
  const changed = changedRows(counts);
  let sizes: { name: string; rows: number }[];
  try {
    sizes = await rawRows<{ name: string; rows: number }>(
      client,
      Prisma.sql`SELECT c.relname AS name, c.reltuples::float8 AS rows FROM pg_class c WHERE c.relname = ANY(${[...changed.keys()]}::text[]) AND c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace`,
    );
  } catch {
    return [];
  }
  const rowsOf = new Map(sizes.map((t) => [t.name, t.rows]));
  const analyzed: string[] = [];
  for (const [name, count] of changed) {
    if (!rowsOf.has(name) || !needsAnalyze(count, rowsOf.get(name)!)) continue;
    try {
      // `name` is one of the import's tables (write-bundle.ts), quoted as an identifier.
      await client.$transaction([client.$executeRawUnsafe(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`), client.$executeRawUnsafe(`ANALYZE "${name}"`)]);
      analyzed.push(name);
    } catch {
      // Left to autovacuum.
    }
  }
  return analyzed;
}
