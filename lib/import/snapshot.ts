/**
 * The rows a bundle may touch, loaded before planning (lib/data/import-writer.ts loadSnapshot): the study's pull requests and code
 * changes with the bundle's external ids, all their pseudo-references and reviews, and the
 * annotations of the bundle's annotators on them. Read on the connection of the import's
 * transaction (lib/db/client.ts transactionConnection) straight through pg, one statement per
 * table with the keys as one array parameter: through Prisma the reads of a 100,000-review
 * re-import took about 20 s of CPU (its query compiler and result mapping), most of the import.
 * Rows come back as Prisma's model types: a column the schema maps (@map) is selected under its
 * field's name too (REVIEW_ITEM), and timestamps are read as UTC as Prisma reads them (the pool's type parser, lib/db/connection.ts).
 */
import type { ClaimJudgement, CodeChange, CommentFilteringLabel, Review, PseudoReference, PullRequest, ReferenceGrade, ReviewClaimLink, ReviewRating } from "@/lib/generated/prisma/client";

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
  commentFilteringLabels: Map<string, CommentFilteringLabel>;
}

/** Key of a row under its parent (ids never contain "|"). */
export function childKey(parentId: string, key: string): string {
  return `${parentId}|${key}`;
}

/** No row of the bundle is stored: every other stored row the bundle could touch hangs off a stored pull request or code change. */
export function nothingStored(snapshot: Snapshot): boolean {
  return snapshot.pullRequests.size === 0 && snapshot.codeChanges.size === 0;
}
