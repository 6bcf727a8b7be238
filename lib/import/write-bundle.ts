/**
 * The one writer of every import format: plans a bundle against the stored rows (plan.ts) and
 * writes it inside the caller's transaction, inserting each table with one COPY on the
 * transaction's connection (bulk-insert.ts, not one query per row) so that a 100,000-review file
 * imports in seconds.
 */
import type pg from "pg";
import type { Prisma } from "@/lib/db/client";
import { resolveAnnotators } from "./annotators";
import type { StudyBundle } from "./bundle";
import { copyRows, type BulkTable } from "./bulk-insert";
import { planBundle, type Plan, type PlanOptions, type Table } from "./plan";
import { loadSnapshot } from "./snapshot";

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
  reviewRatings: { name: "ReviewRating", columns: { id: TEXT, annotatorId: TEXT, candidateReviewId: TEXT, scores: JSONB, comment: TEXT, timeSpentMs: INTEGER, importRunId: TEXT, importedFile: TEXT, createdAt: TIMESTAMP, updatedAt: TIMESTAMP } },
  reviewClaimLinks: { name: "ReviewClaimLink", columns: { ratingId: TEXT, pseudoReferenceId: TEXT, partial: BOOLEAN } },
  referenceGrades: { name: "ReferenceGrade", columns: { id: TEXT, annotatorId: TEXT, candidateReviewId: TEXT, grade: INTEGER, comment: TEXT, timeSpentMs: INTEGER, importRunId: TEXT, importedFile: TEXT, createdAt: TIMESTAMP, updatedAt: TIMESTAMP } },
  commentFilters: {
    name: "CommentFilterLabel",
    columns: { id: TEXT, annotatorId: TEXT, candidateReviewId: TEXT, highQuality: BOOLEAN, justification: TEXT, timeSpentMs: INTEGER, importRunId: TEXT, importedFile: TEXT, createdAt: TIMESTAMP, updatedAt: TIMESTAMP },
  },
  annotationHistory: {
    name: "AnnotationHistory",
    columns: { kind: { enum: "AnnotationKind" }, annotationId: TEXT, userId: TEXT, action: { enum: "HistoryAction" }, baseVersion: INTEGER, oldValue: JSONB, newValue: JSONB, importRunId: TEXT },
  },
};

/** Insertion order: parents before children. */
const INSERT_ORDER: (keyof Creates)[] = ["pullRequests", "codeChanges", "pseudoReferences", "reviews", "claimJudgements", "reviewRatings", "reviewClaimLinks", "referenceGrades", "commentFilters", "annotationHistory"];

const UPDATE: Record<Table, (tx: Tx, id: string, data: Record<string, unknown>) => Promise<unknown>> = {
  pullRequests: (tx, id, data) => tx.pullRequest.update({ where: { id }, data: data as Prisma.PullRequestUncheckedUpdateInput }),
  codeChanges: (tx, id, data) => tx.codeChange.update({ where: { id }, data: data as Prisma.CodeChangeUncheckedUpdateInput }),
  pseudoReferences: (tx, id, data) => tx.pseudoReference.update({ where: { id }, data: data as Prisma.PseudoReferenceUncheckedUpdateInput }),
  reviews: (tx, id, data) => tx.candidateReview.update({ where: { id }, data: data as Prisma.CandidateReviewUncheckedUpdateInput }),
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
      if (depths[k] === ON_CHAIN) throw new Error("pseudo-references correct each other in a cycle");
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

/**
 * Writes a plan: replaced links deleted, rows inserted by COPY on `connection` (the one running
 * `tx`), then row updates; progress at most 200 times.
 */
export async function applyPlan(tx: Tx, connection: pg.ClientBase, plan: Plan, onProgress?: (progress: WriteProgress) => void): Promise<void> {
  const total = planSize(plan);
  const step = Math.max(1, Math.floor(total / 200));
  let done = 0;
  let reported = 0;
  const advance = (n: number) => {
    done += n;
    if (done - reported < step && done < total) return;
    reported = done;
    onProgress?.({ done, total });
  };
  for (let i = 0; i < plan.relinkedRatings.length; i += DELETE_CHUNK) {
    await tx.reviewClaimLink.deleteMany({ where: { ratingId: { in: plan.relinkedRatings.slice(i, i + DELETE_CHUNK) } } });
  }
  for (const table of INSERT_ORDER) {
    const rows: object[] = table === "pseudoReferences" ? correctionOrder(plan.creates.pseudoReferences) : plan.creates[table];
    await copyRows(connection, TABLES[table] as BulkTable<object>, rows, advance);
  }
  for (const update of plan.updates) {
    await UPDATE[update.table](tx, update.id, update.data);
    advance(1);
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
  const plan = planBundle(bundle, snapshot, { studyId: options.studyId, annotators, update: options.update, now: options.now ?? new Date(), provenance: options.provenance });
  const written = plan.conflicts.length === 0;
  if (written) await applyPlan(tx, options.connection, plan, options.onProgress);
  return { plan, annotators: annotators.names, written };
}
