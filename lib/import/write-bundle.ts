/**
 * The one writer of every import format: plans a bundle against the stored rows (plan.ts) and
 * writes it inside the caller's transaction, inserting with createMany in batches (not one
 * query per row) so that a 100,000-review file imports in reasonable time.
 */
import type { Prisma } from "@/lib/db/client";
import { resolveAnnotators } from "./annotators";
import type { StudyBundle } from "./bundle";
import { planBundle, type Plan, type Table } from "./plan";
import { loadSnapshot } from "./snapshot";

type Tx = Prisma.TransactionClient;
type Creates = Plan["creates"];

/** Rows per INSERT: well below PostgreSQL's 65,535 bind parameters for the widest table. */
const BATCH = 2000;

export interface WriteProgress {
  done: number;
  total: number;
}

const INSERT: { [K in keyof Creates]: (tx: Tx, data: Creates[K]) => Promise<unknown> } = {
  pullRequests: (tx, data) => tx.pullRequest.createMany({ data }),
  codeChanges: (tx, data) => tx.codeChange.createMany({ data }),
  pseudoReferences: (tx, data) => tx.pseudoReference.createMany({ data }),
  reviews: (tx, data) => tx.candidateReview.createMany({ data }),
  claimJudgements: (tx, data) => tx.claimJudgement.createMany({ data }),
  reviewRatings: (tx, data) => tx.reviewRating.createMany({ data }),
  reviewClaimLinks: (tx, data) => tx.reviewClaimLink.createMany({ data }),
  referenceGrades: (tx, data) => tx.referenceGrade.createMany({ data }),
  commentFilters: (tx, data) => tx.commentFilterLabel.createMany({ data }),
  annotationHistory: (tx, data) => tx.annotationHistory.createMany({ data }),
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

/** Pseudo-references ordered so that a corrected claim is inserted before its correction. */
function correctionOrder(rows: Creates["pseudoReferences"]): Creates["pseudoReferences"] {
  const pending = new Set(rows.map((r) => r.id as string));
  const ordered: Creates["pseudoReferences"] = [];
  let rest = rows;
  while (rest.length > 0) {
    const ready = rest.filter((r) => !r.correctsId || !pending.has(r.correctsId));
    if (ready.length === 0) throw new Error("pseudo-references correct each other in a cycle");
    for (const r of ready) pending.delete(r.id as string);
    ordered.push(...ready);
    rest = rest.filter((r) => pending.has(r.id as string));
  }
  return ordered;
}

/** Rows a plan writes, for progress. */
export function planSize(plan: Plan): number {
  return INSERT_ORDER.reduce((n, table) => n + plan.creates[table].length, 0) + plan.updates.length;
}

/** Writes a plan: replaced links deleted, rows inserted in batches, then row updates. */
export async function applyPlan(tx: Tx, plan: Plan, onProgress?: (progress: WriteProgress) => void): Promise<void> {
  const total = planSize(plan);
  let done = 0;
  const advance = (n: number) => {
    done += n;
    onProgress?.({ done, total });
  };
  for (let i = 0; i < plan.relinkedRatings.length; i += BATCH) {
    await tx.reviewClaimLink.deleteMany({ where: { ratingId: { in: plan.relinkedRatings.slice(i, i + BATCH) } } });
  }
  for (const table of INSERT_ORDER) {
    const rows = table === "pseudoReferences" ? correctionOrder(plan.creates.pseudoReferences) : plan.creates[table];
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH);
      await (INSERT[table] as (tx: Tx, data: typeof batch) => Promise<unknown>)(tx, batch);
      advance(batch.length);
    }
  }
  for (const update of plan.updates) {
    await UPDATE[update.table](tx, update.id, update.data);
    advance(1);
  }
}

export interface WriteOptions {
  studyId: string;
  update: boolean;
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
  const snapshot = await loadSnapshot(tx, options.studyId, bundle, [...new Set(annotators.userIdOf.values())]);
  const plan = planBundle(bundle, snapshot, { studyId: options.studyId, annotators, update: options.update, now: options.now ?? new Date() });
  const written = plan.conflicts.length === 0;
  if (written) await applyPlan(tx, plan, options.onProgress);
  return { plan, annotators: annotators.names, written };
}
