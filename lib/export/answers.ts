/**
 * Annotations flattened to answers: one per (item, annotator, question), the unit of the
 * `long` and `wide` exports and of agreement statistics computed outside the product. Items
 * are pseudo-references (claim verification), reviews (rating, grading, filtering) and review
 * comments (comment questions, with their anchor and thread); values are text (claim codes as
 * the CRScore sheets write them: 1, 0, -1, -2, 2).
 */
import type { StudyScales } from "@/lib/analysis/questions";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { TASK_LIST } from "@/lib/tasks";
import type { ExportedValues } from "@/lib/tasks/types";
import { taskItemConsensus, type ExportConsensus } from "./consensus";
import type { AnnotatedChange } from "./rows";

export interface Answer {
  task: TaskType;
  codeChange: string;
  /** External id of the pseudo-reference or review. */
  item: string;
  /** The claim's or review's text. */
  itemText: string;
  itemKind: "pseudoReference" | "review" | "reviewComment";
  /** The review's system (null for pseudo-references). */
  system: string | null;
  question: string;
  annotatorId: string;
  annotator: string;
  /** "judge" for a judge rater's answer (named judge:NAME, docs/judges.md), "person" otherwise. */
  raterKind: RaterKind;
  value: string;
  createdAt: string;
  updatedAt: string;
  timeSpentMs: number | null;
  /** The file an import wrote this answer from; "" for the annotator's own saves. */
  importedFrom: string;
  /** Who ran that import (the lead's e-mail, or "command line"); "" when not imported. */
  importedBy: string;
  /** The item's consensus value of this question (adjudicated or unanimous); "" when there is none. */
  consensus: string;
  /** "draft" while the annotator's assignment of this item and task is not submitted; "submitted" otherwise (imported work too; lib/analysis/drafts.ts). */
  status: AnswerStatus;
  /** When the work was submitted (its assignment finished, or the import ran); null for drafts and when unknown. */
  submittedAt: string | null;
  /** The import run that wrote this answer; null for the annotator's own saves. */
  importRun: string | null;
  /** A review comment's anchor and thread (ExportedReviewComment); null for other items. */
  path: string | null;
  side: string | null;
  startLine: number | null;
  line: number | null;
  thread: string | null;
}

/** The columns only a study with answers of comment questions has (a study without keeps its bytes). */
export const COMMENT_COLUMNS = ["path", "side", "startLine", "line", "thread"] as const satisfies readonly (keyof Answer)[];

export type AnswerStatus = "submitted" | "draft";

export type RaterKind = "person" | "judge";

/** Which answers an export keeps (long and wide formats): by status, annotator (id or name) and last-saved date. */
export interface AnswerFilter {
  status?: AnswerStatus;
  annotator?: string;
  /** Saved (updatedAt) at or after. */
  from?: Date;
  /** Saved before. */
  to?: Date;
}

export function keepAnswer(answer: Answer, filter: AnswerFilter): boolean {
  if (filter.status && answer.status !== filter.status) return false;
  if (filter.annotator && answer.annotatorId !== filter.annotator && answer.annotator !== filter.annotator) return false;
  if (filter.from && answer.updatedAt < filter.from.toISOString()) return false;
  if (filter.to && answer.updatedAt >= filter.to.toISOString()) return false;
  return true;
}

/** An annotation's status and submission time from its assignment (none: imported or moved work, submitted). */
export function workStatus(assignment: { status: string; completedAt: string | null } | undefined, importedAt: string | null): Pick<Answer, "status" | "submittedAt"> {
  if (assignment && assignment.status !== "DONE") return { status: "draft", submittedAt: null };
  return { status: "submitted", submittedAt: assignment?.completedAt ?? importedAt };
}

type ItemFields = Pick<Answer, "task" | "codeChange" | "item" | "itemText" | "itemKind" | "system" | "path" | "side" | "startLine" | "line" | "thread">;
type Assignments = Map<string, { status: string; completedAt: string | null }>;

/** Answers of one annotation (its questions whose value is present) that `filter` keeps, onto `out`; each built once, field by field (no spread per answer). */
function answersOf(item: ItemFields, { annotation, values }: ExportedValues, consensus: Map<string, string> | undefined, assignments: Assignments, filter: AnswerFilter, out: Answer[]): void {
  const { status, submittedAt } = workStatus(assignments.get(`${annotation.annotator.id}|${item.task}`), annotation.importRun?.createdAt ?? null);
  const importedBy = annotation.importedFile === null ? "" : (annotation.importRun?.createdBy?.email ?? "command line");
  for (const [question, value] of values) {
    if (value === null) continue;
    const answer: Answer = {
      task: item.task,
      codeChange: item.codeChange,
      item: item.item,
      itemText: item.itemText,
      itemKind: item.itemKind,
      system: item.system,
      question,
      annotatorId: annotation.annotator.id,
      annotator: annotation.annotator.name,
      raterKind: annotation.annotator.kind === "JUDGE" ? "judge" : "person",
      value,
      createdAt: annotation.createdAt,
      updatedAt: annotation.updatedAt,
      timeSpentMs: annotation.timeSpentMs,
      importedFrom: annotation.importedFile ?? "",
      importedBy,
      consensus: consensus?.get(question) ?? "",
      status,
      submittedAt,
      importRun: annotation.importRunId,
      path: item.path,
      side: item.side,
      startLine: item.startLine,
      line: item.line,
      thread: item.thread,
    };
    if (keepAnswer(answer, filter)) out.push(answer);
  }
}

const NO_ANCHOR = { path: null, side: null, startLine: null, line: null, thread: null } as const;

/** Every answer of one code change, in item order (each task's export columns, lib/tasks); Likert questions in the study's dimension order. */
export function changeAnswers(change: AnnotatedChange, study: StudyScales, consensus: ExportConsensus = new Map(), filter: AnswerFilter = {}): Answer[] {
  const dimensions = study.likertDimensions;
  const answers: Answer[] = [];
  const assignments: Assignments = new Map(change.assignments.map((a) => [`${a.annotatorId}|${a.task}`, a]));
  const codeChange = change.externalId;
  for (const reference of change.pseudoReferences) {
    for (const task of TASK_LIST) {
      if (task.export.of !== "pseudoReference") continue;
      const item: ItemFields = { task: task.task, codeChange, item: reference.externalId, itemText: reference.text, itemKind: "pseudoReference", system: null, ...NO_ANCHOR };
      const agreed = taskItemConsensus(consensus, task.task, reference.id);
      for (const values of task.export.values(reference, dimensions)) answersOf(item, values, agreed, assignments, filter, answers);
    }
  }
  for (const review of change.reviews) {
    for (const task of TASK_LIST) {
      if (task.export.of !== "review") continue;
      const item: ItemFields = { task: task.task, codeChange, item: review.externalId, itemText: review.text, itemKind: "review", system: review.system, ...NO_ANCHOR };
      const agreed = taskItemConsensus(consensus, task.task, review.id);
      for (const values of task.export.values(review, dimensions)) answersOf(item, values, agreed, assignments, filter, answers);
    }
  }
  for (const comment of change.reviewComments) {
    for (const task of TASK_LIST) {
      if (task.export.of !== "reviewComment") continue;
      const item: ItemFields = { task: task.task, codeChange, item: comment.externalId, itemText: comment.body, itemKind: "reviewComment", system: comment.system, path: comment.path, side: comment.side, startLine: comment.startLine, line: comment.line, thread: comment.thread };
      const agreed = taskItemConsensus(consensus, task.task, comment.id);
      for (const values of task.export.values(comment, study)) answersOf(item, values, agreed, assignments, filter, answers);
    }
  }
  return answers;
}
