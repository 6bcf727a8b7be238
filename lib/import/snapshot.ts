/**
 * The rows a bundle may touch, loaded before planning: the study's pull requests and code
 * changes with the bundle's external ids, all their pseudo-references and reviews, and the
 * annotations of the bundle's annotators on them.
 */
import type { Prisma } from "@/lib/db/client";
import type { ClaimJudgement, CodeChange, CommentFilterLabel, CandidateReview, PseudoReference, PullRequest, ReferenceGrade, ReviewClaimLink, ReviewRating } from "@/lib/generated/prisma/client";
import type { StudyBundle } from "./bundle";
import { separatedChangeId } from "./crscore-sheet";
import { claimMatchKey } from "./text";

/** Rows per `IN (...)` query. */
const CHUNK = 5000;

export type StoredRating = ReviewRating & { links: ReviewClaimLink[] };

export interface Snapshot {
  pullRequests: Map<string, PullRequest>;
  codeChanges: Map<string, CodeChange>;
  /** By childKey(codeChangeId, externalId). */
  pseudoReferences: Map<string, PseudoReference>;
  /** By childKey(codeChangeId, claimMatchKey(text)): claims matched by normalized text. */
  pseudoReferencesByText: Map<string, PseudoReference>;
  reviews: Map<string, CandidateReview>;
  /** External id of every stored pseudo-reference, by id. */
  pseudoReferenceExternalId: Map<string, string>;
  /** By childKey(annotatorId, pseudoReferenceId / candidateReviewId). */
  claimJudgements: Map<string, ClaimJudgement>;
  reviewRatings: Map<string, StoredRating>;
  referenceGrades: Map<string, ReferenceGrade>;
  commentFilters: Map<string, CommentFilterLabel>;
}

/** Key of a row under its parent (ids never contain "|"). */
export function childKey(parentId: string, key: string): string {
  return `${parentId}|${key}`;
}

async function inChunks<T>(values: readonly string[], query: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for (let i = 0; i < values.length; i += CHUNK) rows.push(...(await query(values.slice(i, i + CHUNK))));
  return rows;
}

export async function loadSnapshot(tx: Prisma.TransactionClient, studyId: string, bundle: StudyBundle, annotatorIds: readonly string[]): Promise<Snapshot> {
  const pullRequests = await inChunks(bundle.pullRequests.map((p) => p.externalId), (externalId) => tx.pullRequest.findMany({ where: { studyId, externalId: { in: externalId } } }));
  // A CRScore change may be stored under its CodeReviewer id or as id@index (crscore-sheet.ts).
  const changeKeys = bundle.codeChanges.flatMap((c) => (c.codeReviewer ? [c.externalId, c.codeReviewer.id, separatedChangeId(c.codeReviewer.id, c.codeReviewer.index)] : [c.externalId]));
  const codeChanges = await inChunks([...new Set(changeKeys)], (externalId) => tx.codeChange.findMany({ where: { studyId, externalId: { in: externalId } } }));
  const changeIds = codeChanges.map((c) => c.id);
  const pseudoReferences = await inChunks(changeIds, (ids) => tx.pseudoReference.findMany({ where: { codeChangeId: { in: ids } } }));
  const reviews = await inChunks(changeIds, (ids) => tx.candidateReview.findMany({ where: { codeChangeId: { in: ids } } }));
  const referenceIds = pseudoReferences.map((r) => r.id);
  const reviewIds = reviews.map((r) => r.id);
  const annotatorId = { in: [...annotatorIds] };
  const [claimJudgements, reviewRatings, referenceGrades, commentFilters] = annotatorIds.length === 0
    ? [[], [], [], []]
    : [
        await inChunks(referenceIds, (ids) => tx.claimJudgement.findMany({ where: { annotatorId, pseudoReferenceId: { in: ids } } })),
        await inChunks(reviewIds, (ids) => tx.reviewRating.findMany({ where: { annotatorId, candidateReviewId: { in: ids } }, include: { links: true } })),
        await inChunks(reviewIds, (ids) => tx.referenceGrade.findMany({ where: { annotatorId, candidateReviewId: { in: ids } } })),
        await inChunks(reviewIds, (ids) => tx.commentFilterLabel.findMany({ where: { annotatorId, candidateReviewId: { in: ids } } })),
      ];
  return {
    pullRequests: new Map(pullRequests.map((p) => [p.externalId, p])),
    codeChanges: new Map(codeChanges.map((c) => [c.externalId, c])),
    pseudoReferences: new Map(pseudoReferences.map((r) => [childKey(r.codeChangeId, r.externalId), r])),
    reviews: new Map(reviews.map((r) => [childKey(r.codeChangeId, r.externalId), r])),
    pseudoReferencesByText: new Map(pseudoReferences.map((r) => [childKey(r.codeChangeId, claimMatchKey(r.text)), r])),
    pseudoReferenceExternalId: new Map(pseudoReferences.map((r) => [r.id, r.externalId])),
    claimJudgements: new Map(claimJudgements.map((j) => [childKey(j.annotatorId, j.pseudoReferenceId), j])),
    reviewRatings: new Map(reviewRatings.map((r) => [childKey(r.annotatorId, r.candidateReviewId), r])),
    referenceGrades: new Map(referenceGrades.map((g) => [childKey(g.annotatorId, g.candidateReviewId), g])),
    commentFilters: new Map(commentFilters.map((f) => [childKey(f.annotatorId, f.candidateReviewId), f])),
  };
}
