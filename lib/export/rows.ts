/**
 * A study's code changes as exports read them (lib/data/export-rows.ts) and write them: their
 * pseudo-references and reviews, each with its annotations.
 */
import type { AccountKind, AssignmentStatus, ClaimCode, ClaimErrorType, PseudoReferenceKind, TaskType } from "@/lib/generated/prisma/enums";
import type { StoredAnswer } from "@/lib/annotation/comment-questions";

/** An annotation as exports see it; times as ISO 8601 UTC text, as `Date.toISOString` writes them. */
export interface ExportedAnnotation {
  /** `kind`: a person, or a judge rater (docs/judges.md). */
  annotator: { id: string; name: string; kind: AccountKind };
  createdAt: string;
  updatedAt: string;
  timeSpentMs: number | null;
  /** Set when an import wrote the annotation: the file, and the run's lead. */
  importedFile: string | null;
  importRunId: string | null;
  importRun: { createdAt: string; createdBy: { email: string } | null } | null;
}

/** A pseudo-reference with its annotations, what the answers of the long and wide formats are made of. */
export interface AnnotatedPseudoReference {
  id: string;
  externalId: string;
  text: string;
  judgements: (ExportedAnnotation & { code: ClaimCode | null; necessary: boolean | null; errorType: ClaimErrorType | null; note: string })[];
}

export interface ExportedPseudoReference extends AnnotatedPseudoReference {
  kind: PseudoReferenceKind;
  source: string;
  position: number;
  addedBy: { id: string; name: string } | null;
  corrects: { externalId: string } | null;
}

/** A review with its annotations, what the answers of the long and wide formats are made of. */
export interface AnnotatedReview {
  id: string;
  externalId: string;
  system: string;
  text: string;
  ratings: (ExportedAnnotation & { scores: unknown; comment: string; links: { partial: boolean; pseudoReference: { externalId: string } }[] })[];
  referenceGrades: (ExportedAnnotation & { annotatorId: string; grade: number; comment: string })[];
  commentFilteringLabels: (ExportedAnnotation & { highQuality: boolean; justification: string })[];
}

/** A review comment with its comment answers (comment questions), what the answers of the long and wide formats are made of. */
export interface AnnotatedReviewComment {
  id: string;
  externalId: string;
  system: string;
  body: string;
  commentAnswers: (ExportedAnnotation & { answers: Record<string, StoredAnswer>; notes: Record<string, string> })[];
}

/** A review comment as the exports write it: its anchor and thread beside its answers (docs/pull-request-formats.md). */
export interface ExportedReviewComment extends AnnotatedReviewComment {
  path: string;
  side: "LEFT" | "RIGHT" | null;
  startLine: number | null;
  line: number | null;
  /** External id of the comment its thread starts with (its own when it answers none), as GitHub threads them. */
  thread: string;
}

export interface ExportedReview extends AnnotatedReview {
  isReference: boolean;
  position: number;
}

/** A code change with its items (their texts) and their annotations, without its own texts and pull request (studyAnswers). */
export interface AnnotatedChange {
  id: string;
  externalId: string;
  position: number;
  /** Whose work is submitted (lib/export/answers.ts workStatus). */
  assignments: { annotatorId: string; task: TaskType; status: AssignmentStatus; completedAt: string | null }[];
  pseudoReferences: AnnotatedPseudoReference[];
  reviews: AnnotatedReview[];
  /** The review comments on the change's lines (a pull request's file), with their comment answers. */
  reviewComments: ExportedReviewComment[];
}

export interface ExportedChange extends AnnotatedChange {
  pullRequest: { externalId: string; repository: string; title: string; description: string; metadata: unknown } | null;
  filePath: string;
  language: string;
  diff: string;
  oldFile: string;
  newFile: string;
  metadata: unknown;
  pseudoReferences: ExportedPseudoReference[];
  reviews: ExportedReview[];
}

/** Someone who annotated anything in a study (the wide formats' columns). */
export interface StudyAnnotator {
  id: string;
  name: string;
}
