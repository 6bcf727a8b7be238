/**
 * Plain-data description of a demo study: code changes with their pseudo-references
 * (CRScore section 3.1), candidate reviews, and what each demo annotator has already done.
 * `seedDemo` turns it into database rows.
 */
import type { ClaimCode, ClaimErrorType, PseudoReferenceKind, TaskType } from "@/lib/generated/prisma/client";

export type DemoLanguage = "python" | "java" | "javascript";

/** The two demo annotators (see `DEMO_ANNOTATORS`). */
export type DemoAnnotatorKey = "ann1" | "ann2";

export interface DemoPseudoReference {
  /** Stored as the external id; unique within the change. */
  key: string;
  kind: Exclude<PseudoReferenceKind, "ANNOTATOR_ADDED">;
  /** The LLM or static analyser that produced it, e.g. "gpt-4o", "pylint". */
  source: string;
  text: string;
}

export interface DemoReview {
  /** Generating system, also the review's external id (one review per system and change). */
  system: string;
  text: string;
  /** The human-written ground-truth review. */
  isReference?: boolean;
}

/** Stage 1 (CRScore Table 8) verdict on one claim or implication. */
export interface DemoClaimJudgement {
  code: ClaimCode;
  /** Defaults to true; false flags the claim as unnecessary. */
  necessary?: boolean;
  errorType?: ClaimErrorType;
  note?: string;
}

/** A claim the annotator found missing (CRScore section 4.1), optionally correcting a wrong one. */
export interface DemoAddedClaim {
  key: string;
  text: string;
  /** Key of the incorrect claim this one replaces. */
  corrects?: string;
}

/** Stage 2 (CRScore Table 7): Likert scores and the pseudo-references the review addresses. */
export interface DemoRating {
  conciseness: number;
  comprehensiveness: number;
  relevance: number;
  /** Keys of pseudo-references the review addresses fully. */
  addresses?: string[];
  /** Keys of pseudo-references the review addresses only partially. */
  partially?: string[];
  comment?: string;
}

/** c-CRAB section 4.2.1 label: actionable and objectively verifiable, or not. */
export interface DemoFilterLabel {
  highQuality: boolean;
  justification: string;
}

/**
 * What one annotator has done on one change. A task whose items are all covered is DONE,
 * partly covered IN_PROGRESS, absent PENDING (or SKIPPED when listed in `skipped`).
 */
export interface DemoAnnotatorWork {
  /** CLAIM_VERIFICATION: keyed by pseudo-reference key (claims and implications only). */
  claims?: Record<string, DemoClaimJudgement>;
  addedClaims?: DemoAddedClaim[];
  /** REVIEW_RATING: keyed by review system, every review including the reference. */
  ratings?: Record<string, DemoRating>;
  /** REFERENCE_GRADING (GradedReviews 1-5): keyed by system, non-reference reviews. */
  grades?: Record<string, number>;
  /** COMMENT_FILTERING: keyed by system, non-reference reviews. */
  filters?: Record<string, DemoFilterLabel>;
  /** Tasks the annotator skipped, with the reason given. */
  skipped?: Partial<Record<TaskType, string>>;
}

export interface DemoChange {
  externalId: string;
  filePath: string;
  language: DemoLanguage;
  oldFile: string;
  newFile: string;
  metadata?: Record<string, string>;
  pseudoReferences: DemoPseudoReference[];
  reviews: DemoReview[];
  work: Partial<Record<DemoAnnotatorKey, DemoAnnotatorWork>>;
}

/** A review comment on the demo pull request, at a real line of one of its files (c-CRAB §4.2). */
export interface DemoReviewComment {
  /** Stored as the external id, as GitHub's comment ids. */
  id: number;
  /** The file: one of the pull request's changes. */
  change: DemoChange;
  /** Whole file when absent. */
  side?: "LEFT" | "RIGHT";
  startLine?: number;
  line?: number;
  body: string;
  /** The tool and model, or "human". */
  system: string;
  author: string;
  inReplyTo?: number;
  metadata?: Record<string, string>;
}

export interface DemoPullRequest {
  externalId: string;
  repository: string;
  url: string;
  title: string;
  description: string;
  /** Its files, each modified. */
  changes: DemoChange[];
  comments: DemoReviewComment[];
}

export interface DemoAccount {
  email: string;
  name: string;
}

export interface DemoStudy {
  slug: string;
  name: string;
  description: string;
  guidelines: string;
  tasks: TaskType[];
  annotatorsPerItem: number;
  /** External ids of the changes every annotator labels (inter-annotator reliability). */
  reliabilitySet: string[];
  assignmentSeed: number;
  annotators: Record<DemoAnnotatorKey, DemoAccount>;
  annotatorPassword: string;
  /** Changes that belong to no pull request, in study order (pull request files follow them). */
  changes: DemoChange[];
  pullRequests: DemoPullRequest[];
}
