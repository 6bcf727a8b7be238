/**
 * What the one writer of every import format (lib/data/import-writer.ts) writes of a plan: the
 * tables and columns of each table's COPY (bulk-insert.ts), parents before children, corrected
 * claims before their corrections, and the progress it reports.
 */
import type { BulkTable } from "./bulk-insert";
import type { Plan, Table } from "./plan";
import { AppError } from "@/lib/errors";

export type Creates = Plan["creates"];

export interface WriteProgress {
  done: number;
  total: number;
}

const TEXT = "text" as const;
const INTEGER = "integer" as const;
const BOOLEAN = "boolean" as const;
const JSONB = "jsonb" as const;
const TIMESTAMP = "timestamp(3)" as const;

/** The columns the planner fills for each table it inserts into. */
export const BULK_TABLES: { [K in keyof Creates]: BulkTable<Creates[K][number]> } = {
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
  commentFilteringLabels: {
    name: "CommentFilterLabel",
    columns: { id: TEXT, annotatorId: TEXT, reviewId: TEXT, highQuality: BOOLEAN, justification: TEXT, timeSpentMs: INTEGER, importRunId: TEXT, importedFile: TEXT, createdAt: TIMESTAMP, updatedAt: TIMESTAMP },
    mapped: { reviewId: "candidateReviewId" },
  },
  annotationHistory: {
    name: "AnnotationHistory",
    columns: { kind: { enum: "AnnotationKind" }, annotationId: TEXT, accountId: TEXT, action: { enum: "HistoryAction" }, baseVersion: INTEGER, oldValue: JSONB, newValue: JSONB, importRunId: TEXT },
    mapped: { accountId: "userId" },
  },
};

/** The database table an import's rows of `table` are written to. */
export const tableName = (table: Table) => BULK_TABLES[table].name;

/** Insertion order: parents before children. */
export const INSERT_ORDER: (keyof Creates)[] = ["pullRequests", "codeChanges", "pseudoReferences", "reviews", "claimJudgements", "reviewRatings", "reviewClaimLinks", "referenceGrades", "commentFilteringLabels", "annotationHistory"];

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
export class WriteCounter {
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

/** Code changes planned between two turns of the event loop, in which the COPY of earlier rows goes on. */
export const SLICE_CHANGES = 100;

/** The rows of several slices, in order. */
export function joined(slices: Creates[]): Creates {
  return Object.fromEntries(INSERT_ORDER.map((table) => [table, slices.flatMap((slice): object[] => slice[table])])) as unknown as Creates;
}
