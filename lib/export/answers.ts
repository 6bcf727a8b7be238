/**
 * Annotations flattened to answers: one per (item, annotator, question), the unit of the
 * `long` and `wide` exports and of agreement statistics computed outside the product. Items
 * are pseudo-references (claim verification) and reviews (rating, grading, filtering);
 * values are text (claim codes as the CRScore sheets write them: 1, 0, -1, -2, 2).
 */
import type { TaskType } from "@/lib/generated/prisma/enums";
import { TASK_LIST } from "@/lib/tasks";
import type { ExportedValues } from "@/lib/tasks/types";
import { consensusKey, type ExportConsensus } from "./consensus";
import type { ExportedChange } from "./study-rows";

export interface Answer {
  task: TaskType;
  codeChange: string;
  /** External id of the pseudo-reference or review. */
  item: string;
  itemKind: "pseudoReference" | "review";
  /** The review's system (null for pseudo-references). */
  system: string | null;
  question: string;
  annotatorId: string;
  annotator: string;
  value: string;
  createdAt: string;
  updatedAt: string;
  timeSpentMs: number;
  /** The file an import wrote this answer from; "" for the annotator's own saves (issue 9). */
  importedFrom: string;
  /** Who ran that import (the lead's e-mail, or "command line"); "" when not imported. */
  importedBy: string;
  /** The item's consensus value of this question (adjudicated or unanimous); "" when there is none. */
  consensus: string;
}

type ItemFields = Pick<Answer, "task" | "codeChange" | "item" | "itemKind" | "system">;

/** Answers of one annotation: its questions whose value is present. */
function answersOf(item: ItemFields, { annotation, values }: ExportedValues, consensus: Map<string, string> | undefined): Answer[] {
  const shared = {
    ...item,
    annotatorId: annotation.annotator.id,
    annotator: annotation.annotator.name,
    createdAt: annotation.createdAt.toISOString(),
    updatedAt: annotation.updatedAt.toISOString(),
    timeSpentMs: annotation.timeSpentMs,
    importedFrom: annotation.importedFile ?? "",
    importedBy: annotation.importedFile === null ? "" : (annotation.importRun?.createdBy?.email ?? "command line"),
  };
  return values.filter((q): q is [string, string] => q[1] !== null).map(([question, value]) => ({ ...shared, question, value, consensus: consensus?.get(question) ?? "" }));
}

/** Every answer of one code change, in item order (each task's export columns, lib/tasks); Likert questions in the study's dimension order. */
export function changeAnswers(change: ExportedChange, dimensions: readonly string[], consensus: ExportConsensus = new Map()): Answer[] {
  const answers: Answer[] = [];
  const codeChange = change.externalId;
  for (const reference of change.pseudoReferences) {
    for (const task of TASK_LIST) {
      if (task.export.of !== "pseudoReference") continue;
      const item: ItemFields = { task: task.task, codeChange, item: reference.externalId, itemKind: "pseudoReference", system: null };
      const agreed = consensus.get(consensusKey(task.task, reference.id));
      for (const values of task.export.values(reference, dimensions)) answers.push(...answersOf(item, values, agreed));
    }
  }
  for (const review of change.reviews) {
    for (const task of TASK_LIST) {
      if (task.export.of !== "review") continue;
      const item: ItemFields = { task: task.task, codeChange, item: review.externalId, itemKind: "review", system: review.system };
      const agreed = consensus.get(consensusKey(task.task, review.id));
      for (const values of task.export.values(review, dimensions)) answers.push(...answersOf(item, values, agreed));
    }
  }
  return answers;
}
