/**
 * What the workspace and the server share about annotation values without their schemas
 * (./value-schemas): the kinds, the empty values, and comparing two values. Loaded by the
 * workspace's first page, so it imports no zod.
 */
import type { ClaimJudgementValue, ReviewRatingValue, SaveKind } from "./value-schemas";

export type { AddedClaimValue, AnnotationValue, ClaimJudgementValue, CommentFilteringLabelValue, NecessityValue, ReferenceGradeValue, ReviewRatingValue, SaveKind, SaveRequest } from "./value-schemas";

/** The key of one annotation in a workspace: its kind and target. */
export const entryKey = (kind: SaveKind, targetId: string) => `${kind}:${targetId}`;

/** Every kind, in the order the workspace lists its entries. */
export const ANNOTATION_KINDS: readonly SaveKind[] = ["judgement", "addedClaim", "necessity", "rating", "grade", "label", "commentAnswers"];

export const NEW_CLAIM_PREFIX = "new:";

/** Longest stretch of active time one report may add (the workspace reports every ~15 s). */
export const MAX_TIME_REPORT_MS = 5 * 60_000;

export function emptyClaimJudgement(): ClaimJudgementValue {
  return { code: null, necessary: null, errorType: null, note: "" };
}

export function emptyReviewRating(): ReviewRatingValue {
  return { scores: {}, links: [], comment: "" };
}

/** Canonical form: object keys sorted, links sorted by id, so equal values compare equal. */
export function canonicalize(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(canonicalize);
    if (items.every((item) => typeof item === "object" && item !== null && "pseudoReferenceId" in item)) {
      return (items as { pseudoReferenceId: string }[]).slice().sort((a, b) => (a.pseudoReferenceId < b.pseudoReferenceId ? -1 : a.pseudoReferenceId > b.pseudoReferenceId ? 1 : 0));
    }
    return items;
  }
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = canonicalize(v);
    }
    return out;
  }
  return value;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonicalize(a)) === JSON.stringify(canonicalize(b));
}
