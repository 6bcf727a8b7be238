/**
 * What each annotation task type is: one descriptor per task type holds its value
 * schemas, how its annotations are stored, when an item is complete, the questions it
 * feeds to agreement and adjudication, the questions a judge rater answers, and its export
 * columns. The workspace, saves, agreement, adjudication, judge runs and exports go through the
 * descriptors, so they are written once for all tasks.
 * Descriptors are declarations and pure functions; a task's own reads and writes (its part of
 * the workspace, saves not stored in the row, an item's annotations) are in lib/data
 * (`TASK_QUERIES`, lib/data/task-queries.ts).
 */
import type { ZodType } from "zod";
import type { AnnotationKind, AssignmentStatus, TaskType } from "@/lib/generated/prisma/client";
import type { Stage2Reference } from "@/lib/annotation/stage2";
import type { AddedClaimValue, ClaimJudgementValue, CommentFilteringLabelValue, NecessityValue, ReferenceGradeValue, ReviewRatingValue, SaveKind } from "@/lib/annotation/values";
import type { AnswerValue } from "@/lib/agreement";
import type { Question, StudyScales } from "@/lib/analysis/questions";
import type { AnswerOf, MissingAnswer } from "@/lib/annotation/completeness";
import type { AnnotatedPseudoReference, AnnotatedReview, AnnotatedReviewComment, ExportedAnnotation } from "@/lib/export/rows";
import type { DiffSource } from "@/lib/diff";
import type { ShortcutHelp } from "@/lib/annotation/keymap";
import type { CommentAnswersValue, CommentQuestion } from "@/lib/annotation/comment-questions";
import type { CommentAnchor } from "@/lib/review-comments/threads";
import type { FileStatus } from "@/lib/generated/prisma/enums";

export interface Versioned<V> {
  id: string;
  version: number;
  value: V;
}

/** A stored annotation's state as the workspace knows it (none yet: id null, version 0, value null). */
export interface ServerState {
  id: string | null;
  version: number;
  value: unknown;
}

/** One stored annotation as the server reports it. */
export interface StoredEntry {
  kind: SaveKind;
  targetId: string;
  server: ServerState;
}

/** The entry of one item a task asks about, with its stored annotation if there is one. */
export function storedEntry(kind: SaveKind, targetId: string, stored: Versioned<unknown> | undefined): StoredEntry {
  return { kind, targetId, server: stored ?? { id: null, version: 0, value: null } };
}

export interface WorkspaceReview {
  id: string;
  /** "Review A", ... in the annotator's own shuffled order. */
  label: string;
  text: string;
  /** Present only when the study shows system names. */
  system?: string;
  isReference?: boolean;
}

/** A review comment as the workspace shows it (comment questions); its file's text is the `sources` entry keyed by its `codeChangeId`. */
export interface WorkspaceComment extends CommentAnchor {
  id: string;
  externalId: string;
  body: string;
  /** "Reviewer A", ... per system, in the annotator's own shuffled order of the pull request's systems. */
  reviewer: string;
  /** Present only when the study shows system names: the system and the login that posted it. */
  system?: string;
  author?: string;
  inReplyToId: string | null;
  /** True on a human reviewer's comment when the study asks the matching question (a system's comment is then matched against these); absent otherwise. */
  human?: boolean;
  /** The linked test (c-CRAB §4.4.3), when the comment has one. */
  test: { path: string; text: string } | null;
}

/** The part of the workspace each task shows. */
export interface TaskWorkspace {
  claimVerification?: {
    references: { id: string; kind: "CLAIM" | "IMPLICATION"; text: string; source: string }[];
    smells: { id: string; text: string; source: string }[];
    judgements: Record<string, Versioned<ClaimJudgementValue>>;
    added: Versioned<AddedClaimValue>[];
    /** False when the study keeps CRScore's stage order: necessity is then asked in stage 2. */
    askNecessity: boolean;
  };
  reviewRating?: {
    stage2Source: "consolidated" | "own";
    references: Stage2Reference[];
    reviews: WorkspaceReview[];
    ratings: Record<string, Versioned<ReviewRatingValue>>;
    /** With CRScore's stage order: the annotator's necessity of each stage-2 pseudo-reference (absent otherwise). */
    necessity?: Record<string, Versioned<NecessityValue>>;
  };
  referenceGrading?: { reference: { id: string; text: string } | null; reviews: WorkspaceReview[]; grades: Record<string, Versioned<ReferenceGradeValue>> };
  commentFiltering?: { reviews: WorkspaceReview[]; labels: Record<string, Versioned<CommentFilteringLabelValue>> };
  /** Comment questions: the assignment's pull request, its review comments in reading order (j/k), the study's questions and the annotator's own answers. */
  commentQuestions?: {
    pullRequest: { id: string; externalId: string; repository: string; url: string; title: string; description: string; baseSha: string; headSha: string };
    /** The pull request's files in order; a file's diff and contents are the `sources` entry keyed by its code change id. */
    files: { codeChangeId: string; path: string; oldPath: string; status: FileStatus | null; binary: boolean; language: string; diffLines: number }[];
    comments: WorkspaceComment[];
    questions: CommentQuestion[];
    /** The study's Likert scale, which Likert questions use. */
    likertMin: number;
    likertMax: number;
    /** By comment id. */
    answers: Record<string, Versioned<CommentAnswersValue>>;
  };
}

export interface WorkspaceData extends TaskWorkspace {
  assignment: { id: string; task: TaskType; status: AssignmentStatus; skipReason: string | null; timeSpentMs: number; position: number; inReliabilitySet: boolean };
  study: { slug: string; name: string; guidelines: string; likertDimensions: string[]; likertMin: number; likertMax: number; hideSystemNames: boolean };
  item: { id: string; externalId: string; language: string; filePath: string; pullRequest: { externalId: string; title: string; repository: string; description: string } | null; consolidated: boolean };
  sources: DiffSource[];
  /** nextId and nextOpenId skip items that wait (lib/annotation/waiting); `waiting` counts them. */
  queue: { index: number; total: number; done: number; previousId: string | null; nextId: string | null; nextOpenId: string | null; waiting: number };
  /** Stage 2 before the item's stage 1 is finished (or consolidated). */
  blockedBy: { assignmentId: string | null; message: string } | null;
  /** Set when an import wrote some of this annotator's answers here: which file, by whom, when. */
  imported: { file: string; by: string; at: string } | null;
  /** The task's stored answers one by one (lib/annotation/stored-answers), which the workspace's autosave starts from: read here, so the page loads no task descriptor. */
  stored: StoredEntry[];
}

/** One annotation's export columns: (question, value as text or null when absent). */
export interface ExportedValues {
  annotation: ExportedAnnotation;
  values: [string, string | null][];
}

/** An annotator's value of a question on an item, as the analyses read it (`answers.code`); null when not answered. */
export interface ExportedRating {
  annotatorId: string;
  value: AnswerValue | null;
}

/**
 * How the exports read a task's annotations (lib/data/export-rows.ts): the annotation row's own
 * columns (SQL on the row, alias `t`), the annotation's own fields made of their values (the
 * bookkeeping, annotator and times, follows them), and the item's field that lists them.
 */
export interface ExportedColumns<Field extends string> {
  field: Field;
  columns: readonly string[];
  row(values: readonly unknown[]): object;
}

export type TaskExport =
  | { of: "pseudoReference"; annotations: ExportedColumns<"judgements">; values(reference: AnnotatedPseudoReference, dimensions: readonly string[]): ExportedValues[]; ratings(reference: AnnotatedPseudoReference, question: Question): ExportedRating[] }
  | { of: "review"; annotations: ExportedColumns<"ratings" | "referenceGrades" | "commentFilteringLabels">; values(review: AnnotatedReview, dimensions: readonly string[]): ExportedValues[]; ratings(review: AnnotatedReview, question: Question): ExportedRating[] }
  | { of: "reviewComment"; annotations: ExportedColumns<"commentAnswers">; values(comment: AnnotatedReviewComment, study: StudyScales): ExportedValues[]; ratings(comment: AnnotatedReviewComment, question: Question, study: StudyScales): ExportedRating[] };

/** One annotator's annotation of an item as the adjudication view shows it. */
export interface ItemAnnotation {
  annotatorId: string;
  annotator: string;
  /** Value per question key; null when not answered. */
  values: Record<string, AnswerValue | null>;
  /** The annotator's note, comment or justification. */
  note: string;
  /** Other parts of the annotation worth seeing (necessity, error type, linked claims). */
  details: string[];
}

/** One answer a judge rater may give: the word it writes, and the codebook's name and definition. */
export interface JudgeOption {
  answer: string;
  label: string;
  description: string;
}

/** The yes/no answers of a binary question, each with what it means. */
export const yesNo = (yes: string, no: string): JudgeOption[] => [
  { answer: "yes", label: "Yes", description: yes },
  { answer: "no", label: "No", description: no },
];

/** A judge's answer: one option's word, or for a links question the numbers of the claims addressed. */
export type JudgeAnswerValue = string | number[];

/** A question a judge rater answers (docs/judges.md), stored as the annotators' answers are: the task's save kind and value. */
export interface JudgeQuestion {
  task: TaskType;
  key: string;
  /** The question as the prompt asks it. */
  text: string;
  /** The save kind the answer is stored as. */
  kind: SaveKind;
  /** The answers allowed; empty for the links question, whose answer is a list of claim numbers. */
  options: JudgeOption[];
  /** Only comments with a linked test (c-CRAB §4.4.3). */
  withTest?: boolean;
  /** The matching question: its items are pairs of a system comment and a human comment (item id `pairItemId`), its answer stored in the system comment's answers. */
  pairs?: boolean;
  /** The judge's stored value of the item with this answer in it (current: the value stored before, or null); `human`: a pair's human comment. */
  apply(current: unknown, answer: JudgeAnswerValue, reason: string, links?: readonly string[], human?: string): unknown;
}

/** The Prisma models of the annotation tables (the client's property names). */
export type AnnotationModel = "claimJudgement" | "reviewRating" | "referenceGrade" | "commentFilteringLabel" | "commentAnswers";

/** The table of each kind of item. */
export const ITEM_TABLES = { pseudoReference: "PseudoReference", review: "CandidateReview", reviewComment: "ReviewComment" } as const;

export type ItemKind = keyof typeof ITEM_TABLES;

/**
 * SQL: item `i` (an alias of its kind's table) is one of the items an assignment on code change
 * `codeChange` (SQL) covers. Claims and reviews belong to their code change. A review comment
 * belongs to its pull request, whose one assignment per annotator is stored on one of the pull
 * request's code changes (its first file: lib/tasks/comment-questions.ts).
 */
export function itemOfAssignmentSql(kind: ItemKind, i: string, codeChange: string): string {
  return kind === "reviewComment" ? `${i}."pullRequestId" = (SELECT f."pullRequestId" FROM "CodeChange" f WHERE f."id" = ${codeChange})` : `${i}."codeChangeId" = ${codeChange}`;
}

/** The same as a Prisma filter on the item, for an assignment on code change `codeChangeId`. */
export function itemOfAssignmentWhere(kind: ItemKind, codeChangeId: string): Record<string, unknown> {
  return kind === "reviewComment" ? { pullRequest: { codeChanges: { some: { id: codeChangeId } } } } : { codeChangeId };
}

/**
 * Where a task's annotations are stored: one row per annotator and item ("annotatorId" and the
 * item's column unique together), with "version" (lib/annotation/versioning) and "timeSpentMs".
 * lib/data reads and writes the task's annotations from this declaration.
 */
export interface AnnotationStorage {
  /** The Prisma model and its table. */
  model: AnnotationModel;
  table: string;
  /** The annotated item: its column (the storage name, for SQL), its field and its relation (the Prisma names). */
  item: { column: string; field: string; relation: string };
}

/**
 * A value stored as columns of the annotation row itself, so that a save is one statement
 * (lib/data/annotation-statement.ts) and the transaction's create and update are derived too.
 */
export interface RowStorage {
  /** The value's fields in order: each a column of the same name, with its SQL type (the parameter casts). */
  fields: readonly { name: string; type: string }[];
  /** The condition (SQL on the item's row, alias `t`) an item must meet to be annotated so. */
  itemCondition: string;
  /** The refusal (404) when the saved id is not such an item of the code change. */
  notFound: string;
}

/**
 * How the analyses read a question's answer from an annotation row (alias `a`): a text
 * expression (a label, or a number's text as JavaScript writes it), or a JSON object column
 * holding one number per question key (lib/data/answer-code.ts).
 */
export type AnswerColumn = { text: string } | { jsonNumber: string };

/** One save kind of a task: its value's schema, its history kind, and its storage when the value is the annotation row's own columns. */
export interface SaveKindDescriptor {
  schema: ZodType;
  history: AnnotationKind;
  row?: RowStorage;
}

/** One entry of a codebook: the key typed or the code stored, its name and its definition. */
export interface CodebookEntry {
  key: string;
  label: string;
  description: string;
}

/** A part of a task's built-in codebook, titled with its source in the papers. */
export interface CodebookSection {
  title: string;
  entries: CodebookEntry[];
  /** The rule in a sentence, shown before the entries (or alone when there are none). */
  summary?: string;
}

/** What a code change holds, as far as the tasks that apply to it are concerned. */
export interface ItemContents {
  generatedClaims: number;
  reviews: number;
  generatedReviews: number;
  hasReference: boolean;
  /** The review comments of the code change's pull request when it is the pull request's first file (where its assignment is stored), else 0. */
  pullRequestComments: number;
}

export interface TaskDescriptor {
  task: TaskType;
  /** Plain name, e.g. "claim verification". */
  name: string;
  /** The name pages, the workspace and settings messages show, e.g. "Claim verification". */
  label: string;
  /** What one of its stored annotations is called, e.g. "claim judgement". */
  annotationName: string;
  /** The kinds of value the workspace saves for this task. */
  values: Partial<Record<SaveKind, SaveKindDescriptor>>;
  /** Prefix of the per-annotation keys of time reports ("judgement:<id>"). */
  timeKey: string;
  /** What the annotated item is: a claim (pseudo-reference), a candidate review or a review comment. */
  itemKind: ItemKind;
  /** Where the task's annotations are stored. */
  storage: AnnotationStorage;
  /** Whether the task applies to a code change with these contents (e.g. no claim verification without claims). */
  appliesTo(item: ItemContents): boolean;
  /** The questions agreement, adjudication and consensus are computed on. */
  questions(study: StudyScales): Question[];
  /** Every question a judge rater can answer on the task in this study (lib/judges/questions.ts). */
  judgeQuestions(study: StudyScales): JudgeQuestion[];
  /** Where the analyses read a question's answer (lib/analysis/gather.ts). */
  answer(question: Question): AnswerColumn;
  /** The built-in codebook the workspace shows under the study's guidelines, from the papers. */
  codebook(study: StudyScales): CodebookSection[];
  /** The task's own keyboard shortcuts, which the `?` overlay lists between the common ones (`shortcutsOf`). */
  shortcuts: readonly ShortcutHelp[];
  /** The stored annotations of the task's part of the workspace, one per item it asks about, in the workspace's order (lib/annotation/stored-answers.ts). */
  stored(workspace: TaskWorkspace): StoredEntry[];
  /** What the annotator has still to answer in the task's part of the workspace (lib/annotation/completeness.ts). */
  missing(workspace: TaskWorkspace, answer: AnswerOf, dimensions: readonly string[]): MissingAnswer[];
  export: TaskExport;
  /** The export column and text of a consensus value (the same coding as the annotators' values). */
  consensusColumn(question: string, value: AnswerValue): [string, string];
}
