/**
 * The one writer of every import format: plans a bundle against the stored rows (plan.ts) and
 * writes it inside the caller's transaction, inserting each table with one COPY on the
 * transaction's connection (bulk-insert.ts, not one query per row) so that a 100,000-review file
 * imports in seconds. A bundle none of whose rows are stored is written while it is planned
 * (planWhileWriting), so that PostgreSQL, the import's larger part, starts early.
 */
import { setImmediate } from "node:timers/promises";
import type pg from "pg";
import type { Prisma } from "@/lib/db/client";
import { resolveAnnotators } from "./annotators";
import type { StudyBundle } from "./bundle";
import { copyRows, type BulkTable } from "./bulk-insert";
import { planBundle, planSlices, type Plan, type PlanOptions, type Table } from "./plan";
import { loadSnapshot, nothingStored, type Snapshot } from "./snapshot";
import { AppError } from "@/lib/errors";

type Tx = Prisma.TransactionClient;
type Creates = Plan["creates"];

export interface WriteProgress {
  done: number;
  total: number;
}

/** Ids per DELETE … IN (…), below PostgreSQL's bind-parameter limit. */
const DELETE_CHUNK = 5000;

const TEXT = "text" as const;
const INTEGER = "integer" as const;
const BOOLEAN = "boolean" as const;
const JSONB = "jsonb" as const;
const TIMESTAMP = "timestamp(3)" as const;

/** The columns the planner fills for each table it inserts into. */
const TABLES: { [K in keyof Creates]: BulkTable<Creates[K][number]> } = {
  pullRequests: { name: "PullRequest", columns: { id: TEXT, studyId: TEXT, externalId: TEXT, repository: TEXT, title: TEXT, description: TEXT, metadata: JSONB } },
  codeChanges: {
    name: "CodeChange",
    columns: { id: TEXT, studyId: TEXT, externalId: TEXT, pullRequestId: TEXT, filePath: TEXT, language: TEXT, diff: TEXT, oldFile: TEXT, newFile: TEXT, metadata: JSONB, position: INTEGER, updatedAt: TIMESTAMP },
  },
  pseudoReferences: {
    name: "PseudoReference",
    columns: { id: TEXT, codeChangeId: TEXT, externalId: TEXT, text: TEXT, kind: { enum: "PseudoReferenceKind" }, source: TEXT, position: INTEGER, addedById: TEXT, correctsId: TEXT, updatedAt: TIMESTAMP },
  },
  reviews: { name: "CandidateReview", columns: { id: TEXT, codeChangeId: TEXT, externalId: TEXT, system: TEXT, text: TEXT, isReference: BOOLEAN, textMissing: BOOLEAN, position: INTEGER } },
  claimJudgements: {
    name: "ClaimJudgement",
    columns: { id: TEXT, annotatorId: TEXT, pseudoReferenceId: TEXT, code: { enum: "ClaimCode" }, necessary: BOOLEAN, errorType: { enum: "ClaimErrorType" }, note: TEXT, timeSpentMs: INTEGER, importRunId: TEXT, importedFile: TEXT, createdAt: TIMESTAMP, updatedAt: TIMESTAMP },
  },
  reviewRatings: {
    name: "ReviewRating",
    columns: { id: TEXT, annotatorId: TEXT, reviewId: TEXT, scores: JSONB, comment: TEXT, timeSpentMs: INTEGER, importRunId: TEXT, importedFile: TEXT, createdAt: TIMESTAMP, updatedAt: TIMESTAMP },
    mapped: { reviewId: "candidateReviewId" },
  },
  reviewClaimLinks: { name: "ReviewClaimLink", columns: { ratingId: TEXT, pseudoReferenceId: TEXT, partial: BOOLEAN } },
  referenceGrades: {
    name: "ReferenceGrade",
    columns: { id: TEXT, annotatorId: TEXT, reviewId: TEXT, grade: INTEGER, comment: TEXT, timeSpentMs: INTEGER, importRunId: TEXT, importedFile: TEXT, createdAt: TIMESTAMP, updatedAt: TIMESTAMP },
    mapped: { reviewId: "candidateReviewId" },
  },
  commentFilters: {
    name: "CommentFilterLabel",
    columns: { id: TEXT, annotatorId: TEXT, reviewId: TEXT, highQuality: BOOLEAN, justification: TEXT, timeSpentMs: INTEGER, importRunId: TEXT, importedFile: TEXT, createdAt: TIMESTAMP, updatedAt: TIMESTAMP },
    mapped: { reviewId: "candidateReviewId" },
  },
  annotationHistory: {
    name: "AnnotationHistory",
    columns: { kind: { enum: "AnnotationKind" }, annotationId: TEXT, userId: TEXT, action: { enum: "HistoryAction" }, baseVersion: INTEGER, oldValue: JSONB, newValue: JSONB, importRunId: TEXT },
  },
};

/** The database table an import's rows of `table` are written to. */
export const tableName = (table: Table) => TABLES[table].name;

/** Insertion order: parents before children. */
const INSERT_ORDER: (keyof Creates)[] = ["pullRequests", "codeChanges", "pseudoReferences", "reviews", "claimJudgements", "reviewRatings", "reviewClaimLinks", "referenceGrades", "commentFilters", "annotationHistory"];

const UPDATE: Record<Table, (tx: Tx, id: string, data: Record<string, unknown>) => Promise<unknown>> = {
  pullRequests: (tx, id, data) => tx.pullRequest.update({ where: { id }, data: data as Prisma.PullRequestUncheckedUpdateInput }),
  codeChanges: (tx, id, data) => tx.codeChange.update({ where: { id }, data: data as Prisma.CodeChangeUncheckedUpdateInput }),
  pseudoReferences: (tx, id, data) => tx.pseudoReference.update({ where: { id }, data: data as Prisma.PseudoReferenceUncheckedUpdateInput }),
  reviews: (tx, id, data) => tx.review.update({ where: { id }, data: data as Prisma.ReviewUncheckedUpdateInput }),
  claimJudgements: (tx, id, data) => tx.claimJudgement.update({ where: { id }, data: data as Prisma.ClaimJudgementUncheckedUpdateInput }),
  reviewRatings: (tx, id, data) => tx.reviewRating.update({ where: { id }, data: data as Prisma.ReviewRatingUncheckedUpdateInput }),
  referenceGrades: (tx, id, data) => tx.referenceGrade.update({ where: { id }, data: data as Prisma.ReferenceGradeUncheckedUpdateInput }),
  commentFilters: (tx, id, data) => tx.commentFilterLabel.update({ where: { id }, data: data as Prisma.CommentFilterLabelUncheckedUpdateInput }),
};

/**
 * How many corrections deep each pseudo-reference is among `rows`: 0 when it corrects none of
 * them, else one more than the one it corrects. Linear: each chain is walked once.
 */
function correctionDepths(rows: Creates["pseudoReferences"]): number[] {
  const indexOf = new Map(rows.map((r, i) => [r.id as string, i]));
  const UNKNOWN = -1;
  const ON_CHAIN = -2;
  const depths = rows.map(() => UNKNOWN);
  for (let i = 0; i < rows.length; i++) {
    const chain: number[] = [];
    let k: number | undefined = i;
    while (k !== undefined && depths[k] < 0) {
      if (depths[k] === ON_CHAIN) throw new AppError("INVALID_INPUT", { message: "pseudo-references correct each other in a cycle" });
      depths[k] = ON_CHAIN;
      chain.push(k);
      const corrected: string | null | undefined = rows[k].correctsId;
      k = corrected ? indexOf.get(corrected) : undefined;
    }
    let depth = k === undefined ? -1 : depths[k];
    for (let c = chain.length - 1; c >= 0; c--) depths[chain[c]] = ++depth;
  }
  return depths;
}

/** Pseudo-references ordered so that a corrected claim is inserted before its correction: by correction depth, in plan order within a depth. */
export function correctionOrder(rows: Creates["pseudoReferences"]): Creates["pseudoReferences"] {
  const depths = correctionDepths(rows);
  const byDepth: Creates["pseudoReferences"][] = [];
  rows.forEach((row, i) => (byDepth[depths[i]] ??= []).push(row));
  return byDepth.flat();
}

/** Rows a plan writes, for progress. */
export function planSize(plan: Plan): number {
  return INSERT_ORDER.reduce((n, table) => n + plan.creates[table].length, 0) + plan.updates.length;
}

/** Counts the rows written and tells `onProgress` at most about 200 times; the total may be re-estimated while rows are still being planned. */
class WriteCounter {
  private done = 0;
  private reported = 0;

  constructor(
    public total: number,
    private readonly onProgress?: (progress: WriteProgress) => void,
  ) {}

  readonly advance = (rows: number): void => {
    this.done += rows;
    if (this.done - this.reported >= Math.max(1, Math.floor(this.total / 200)) || this.done >= this.total) this.report();
  };

  /** Tells the count now, unless it was told already. */
  report(): void {
    if (this.reported === this.done) return;
    this.reported = this.done;
    this.onProgress?.({ done: this.done, total: this.total });
  }
}

/** Inserts the rows by COPY on `connection`, a table at a time, parents before children. */
async function copyCreates(connection: pg.ClientBase, creates: Creates, advance: (rows: number) => void): Promise<void> {
  for (const table of INSERT_ORDER) {
    const rows: object[] = table === "pseudoReferences" ? correctionOrder(creates.pseudoReferences) : creates[table];
    await copyRows(connection, TABLES[table] as BulkTable<object>, rows, advance);
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

/** Code changes planned between two turns of the event loop, in which the COPY of earlier rows goes on. */
const SLICE_CHANGES = 100;

/** The rows of several slices, in order. */
function joined(slices: Creates[]): Creates {
  return Object.fromEntries(INSERT_ORDER.map((table) => [table, slices.flatMap((slice): object[] => slice[table])])) as unknown as Creates;
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
  const snapshot = await loadSnapshot(options.connection, options.studyId, bundle, [...new Set(annotators.userIdOf.values())]);
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
