/**
 * The normalized in-memory "study bundle" every import format parses into, and the one
 * writer (write-bundle.ts) stores: code changes with their pseudo-references (CRScore §3.1)
 * and candidate reviews, and annotations by annotators named in the file.
 *
 * External ids are the natural keys. A field that is null (or "") is one the file does not
 * state: it never conflicts with a stored value, and a stored empty value is filled in.
 */
import type { ClaimCode, ClaimErrorType, PseudoReferenceKind, TaskType } from "@/lib/generated/prisma/enums";
import type { SourceLocation } from "./errors";

/** JSON metadata of code changes and pull requests. */
export type JsonObject = { [key: string]: JsonValue };
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** An annotator named in a file; `id` when the file carries an account id of this product (our own JSONL export). */
export interface AnnotatorRef {
  name: string;
  id: string | null;
}

interface AnnotationInput {
  annotator: AnnotatorRef;
  timeSpentMs: number | null;
  createdAt: Date | null;
  updatedAt: Date | null;
  at: SourceLocation;
}

/** Stage 1 (CRScore Table 8): one annotator's verdict on one pseudo-reference. */
export interface ClaimJudgementInput extends AnnotationInput {
  code: ClaimCode | null;
  /** False when the annotator flags the claim as unnecessary (CRScore §4.2, phase-2 `necessary?`). */
  necessary: boolean | null;
  errorType: ClaimErrorType | null;
  note: string | null;
}

/** Stage 2 (CRScore Table 7): Likert scores of a review and the pseudo-references it addresses. */
export interface ReviewRatingInput extends AnnotationInput {
  /** Likert dimension -> score, e.g. { conciseness: 4 }. */
  scores: Record<string, number>;
  comment: string | null;
  /** External ids of pseudo-references of the same code change. */
  addresses: string[];
  partiallyAddresses: string[];
}

/** GradedReviews §4.3: a generated review graded 1-5 against the reference review. */
export interface ReferenceGradeInput extends AnnotationInput {
  grade: number;
  comment: string | null;
}

/** c-CRAB §4.2.1: is the comment actionable and objectively verifiable? */
export interface CommentFilterInput extends AnnotationInput {
  highQuality: boolean;
  justification: string | null;
}

export interface PseudoReferenceInput {
  externalId: string;
  text: string;
  kind: PseudoReferenceKind;
  source: string;
  position: number;
  addedBy: AnnotatorRef | null;
  /** External id of the claim this one corrects (an annotator's corrected version). */
  corrects: string | null;
  /**
   * The file repeats a pseudo-reference owned by another file (the CRScore phase-2 sheets list
   * the stage-1 claims again): it asserts only its text; kind, source and position are used
   * only when the pseudo-reference does not exist yet.
   */
  restated: boolean;
  /** The external id is derived from the text (CRScore sheets): a stored claim whose text matches up to normalization is the same claim. */
  matchByText?: true;
  judgements: ClaimJudgementInput[];
  at: SourceLocation;
}

export interface ReviewInput {
  externalId: string;
  system: string;
  text: string;
  isReference: boolean;
  /** The file holds no text for the review (an empty cell or an Excel error value). */
  textMissing?: true;
  position: number;
  ratings: ReviewRatingInput[];
  grades: ReferenceGradeInput[];
  commentFilters: CommentFilterInput[];
  at: SourceLocation;
}

export interface PullRequestInput {
  externalId: string;
  repository: string | null;
  title: string | null;
  description: string | null;
  metadata: JsonObject;
  at: SourceLocation;
}

export interface CodeChangeInput {
  externalId: string;
  /**
   * CRScore sheets: the CodeReviewer record id and index the change was read from. The id
   * alone does not identify a change; a study may hold it as `id` or `id@index` (crscore-sheet.ts).
   */
  codeReviewer?: { id: string; index: number };
  pullRequest: string | null;
  filePath: string | null;
  language: string;
  diff: string;
  oldFile: string | null;
  newFile: string | null;
  metadata: JsonObject;
  position: number;
  pseudoReferences: PseudoReferenceInput[];
  reviews: ReviewInput[];
  at: SourceLocation;
}

export interface StudyBundle {
  /** Task types the data implies; enabled on the study. */
  tasks: TaskType[];
  pullRequests: PullRequestInput[];
  codeChanges: CodeChangeInput[];
}

/** Pseudo-references, reviews and annotations of a bundle, for progress and summaries. */
export function bundleSize(bundle: StudyBundle): number {
  let size = bundle.pullRequests.length;
  for (const change of bundle.codeChanges) {
    size += 1 + change.pseudoReferences.length + change.reviews.length;
    for (const reference of change.pseudoReferences) size += reference.judgements.length;
    for (const review of change.reviews) size += review.ratings.length + review.grades.length + review.commentFilters.length;
  }
  return size;
}

/** Distinct annotators named anywhere in the bundle, by name. */
export function bundleAnnotators(bundle: StudyBundle): AnnotatorRef[] {
  const byName = new Map<string, AnnotatorRef>();
  const note = (ref: AnnotatorRef | null) => {
    if (ref === null) return;
    const key = annotatorKey(ref);
    if (!byName.has(key)) byName.set(key, ref);
  };
  for (const change of bundle.codeChanges) {
    for (const reference of change.pseudoReferences) {
      note(reference.addedBy);
      reference.judgements.forEach((j) => note(j.annotator));
    }
    for (const review of change.reviews) {
      for (const annotations of [review.ratings, review.grades, review.commentFilters]) annotations.forEach((a) => note(a.annotator));
    }
  }
  return [...byName.values()];
}

/** Identity of an annotator reference within one import. */
export function annotatorKey(ref: AnnotatorRef): string {
  return ref.id ?? `name:${ref.name.trim().toLowerCase()}`;
}
