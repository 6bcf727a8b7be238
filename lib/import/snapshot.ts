/**
 * The rows a bundle may touch, loaded before planning: the study's pull requests and code
 * changes with the bundle's external ids, all their pseudo-references and reviews, and the
 * annotations of the bundle's annotators on them. Read on the connection of the import's
 * transaction (lib/db/client.ts transactionConnection) straight through pg, one statement per
 * table with the keys as one array parameter: through Prisma the reads of a 100,000-review
 * re-import took about 20 s of CPU (its query compiler and result mapping), most of the import.
 * Rows come back as Prisma's model types: a column the schema maps (@map) is selected under its
 * field's name too (REVIEW_ITEM), and timestamps are read as UTC as Prisma reads them (the pool's type parser, lib/db/connection.ts).
 */
import type pg from "pg";
import type { ClaimJudgement, CodeChange, CommentFilterLabel, Review, PseudoReference, PullRequest, ReferenceGrade, ReviewClaimLink, ReviewRating } from "@/lib/generated/prisma/client";
import type { StudyBundle } from "./bundle";
import { separatedChangeId } from "./crscore-sheet";
import { claimMatchKey } from "./text";

export type StoredRating = ReviewRating & { links: ReviewClaimLink[] };

export interface Snapshot {
  pullRequests: Map<string, PullRequest>;
  codeChanges: Map<string, CodeChange>;
  /** By childKey(codeChangeId, externalId). */
  pseudoReferences: Map<string, PseudoReference>;
  /** By childKey(codeChangeId, claimMatchKey(text)): claims matched by normalized text. */
  pseudoReferencesByText: Map<string, PseudoReference>;
  reviews: Map<string, Review>;
  /** External id of every stored pseudo-reference, by id. */
  pseudoReferenceExternalId: Map<string, string>;
  /** By childKey(annotatorId, pseudoReferenceId / reviewId). */
  claimJudgements: Map<string, ClaimJudgement>;
  reviewRatings: Map<string, StoredRating>;
  referenceGrades: Map<string, ReferenceGrade>;
  commentFilters: Map<string, CommentFilterLabel>;
}

/** Key of a row under its parent (ids never contain "|"). */
export function childKey(parentId: string, key: string): string {
  return `${parentId}|${key}`;
}

/** No row of the bundle is stored: every other stored row the bundle could touch hangs off a stored pull request or code change. */
export function nothingStored(snapshot: Snapshot): boolean {
  return snapshot.pullRequests.size === 0 && snapshot.codeChanges.size === 0;
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
  const changeIds = codeChanges.map((c) => c.id);
  const pseudoReferences = await rows<PseudoReference>(connection, `SELECT * FROM "PseudoReference" WHERE "codeChangeId" = ANY($1::text[])`, [changeIds]);
  const reviews = await rows<Review>(connection, `SELECT * FROM "CandidateReview" WHERE "codeChangeId" = ANY($1::text[])`, [changeIds]);
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
  const commentFilters = await annotationsOf<CommentFilterLabel>("CommentFilterLabel", REVIEW_ITEM, reviewIds);
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
    commentFilters: new Map(commentFilters.map((f) => [childKey(f.annotatorId, f.reviewId), f])),
  };
}
