/**
 * The consensus column of the exports: per item and question, the lead's adjudicated
 * value, else the annotators' unanimous value, coded as the annotators' values are (claim codes
 * 1, 0, -1, -2, 2; highQuality 1/0). Blank where the annotators disagree and no lead decided,
 * and on the items whose known answers (gold) the export leaves out.
 */
import type { GoldItems } from "@/lib/data/gold";
import type { TaskType } from "@/lib/generated/prisma/enums";
import type { AnswerValue } from "@/lib/agreement";
import type { Question, StudyScales } from "@/lib/analysis/questions";
import { TASK_LIST } from "@/lib/tasks";
import { consensusOf } from "@/lib/tasks/consensus";
import type { ExportedRating, TaskDescriptor } from "@/lib/tasks/types";
import { pairColumn, pairRatings } from "@/lib/tasks/comment-questions";
import type { AnnotatedChange, AnnotatedPseudoReference, AnnotatedReview, AnnotatedReviewComment } from "./rows";

/** `${task}:${itemId}` → export question → consensus text. */
export type ExportConsensus = Map<string, Map<string, string>>;

/** The consensus of one code change's items (a format's rows are built change by change). */
export type CodeChangeConsensus = (change: AnnotatedChange) => ExportConsensus;

export const consensusKey = (task: TaskType, itemId: string) => `${task}:${itemId}`;

/** One task's consensus of an item: no key string is made for a change without any consensus (most changes of a study annotated once). */
export const taskItemConsensus = (consensus: ExportConsensus, task: TaskType, itemId: string): Map<string, string> | undefined =>
  consensus.size === 0 ? undefined : consensus.get(consensusKey(task, itemId));

/** The lead's adjudicated values of the study: `${task}:${itemId}` → question → value. */
export type Adjudicated = Map<string, Map<string, AnswerValue>>;

/** The values the analyses count (lib/analysis/gather.ts): answered, on the question's scale, and not from a rater left out (an annotator whose work on the change is still a draft, a judge not counted). */
function countedValues(ratings: readonly ExportedRating[], question: Question, leftOut: ReadonlySet<string>): AnswerValue[] {
  const values: AnswerValue[] = [];
  for (const { annotatorId, value } of ratings) if (value !== null && !leftOut.has(annotatorId) && question.scale.includes(value)) values.push(value);
  return values;
}

/** The ratings of the question on the item, whichever kind of item the task rates. */
function itemRatings(task: TaskDescriptor, item: AnnotatedPseudoReference | AnnotatedReview | AnnotatedReviewComment, question: Question, study: StudyScales): ExportedRating[] {
  if (task.export.of === "reviewComment") return task.export.ratings(item as AnnotatedReviewComment, question, study);
  return task.export.of === "pseudoReference" ? task.export.ratings(item as AnnotatedPseudoReference, question) : task.export.ratings(item as AnnotatedReview, question);
}

/** The change's items a task's export reads. */
function changeItems(task: TaskDescriptor, change: AnnotatedChange): readonly (AnnotatedPseudoReference | AnnotatedReview | AnnotatedReviewComment)[] {
  return task.export.of === "pseudoReference" ? change.pseudoReferences : task.export.of === "review" ? change.reviews : change.reviewComments;
}

const NOBODY: ReadonlySet<string> = new Set();

/** The matching question's consensus of a system comment toward each human comment an annotator or the lead gave a degree, under QUESTION:HUMAN_EXTERNAL_ID. */
function pairConsensus(task: TaskDescriptor, comment: AnnotatedReviewComment, question: Question, decided: Map<string, AnswerValue> | undefined, leftOut: ReadonlySet<string>, put: (column: string, text: string) => void): void {
  const ratings = pairRatings(comment, question);
  const prefix = pairColumn(question.key, "");
  const humans = new Set([...ratings.keys(), ...[...(decided?.keys() ?? [])].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length))]);
  for (const human of humans) {
    const column = pairColumn(question.key, human);
    const consensus = consensusOf(countedValues(ratings.get(human) ?? [], question, leftOut), decided?.get(column));
    if (consensus) put(column, task.consensusColumn(column, consensus.value)[1]);
  }
}

/** The raters whose answers on the change for the task no consensus counts: the raters not counted (judges, failed qualification), and the annotators whose work is still a draft. */
function leftOutRaters(change: AnnotatedChange, task: TaskType, uncounted: ReadonlySet<string>): ReadonlySet<string> {
  if (change.assignments.length === 0) return uncounted;
  const drafting = change.assignments.filter((a) => a.task === task && a.status !== "DONE").map((a) => a.annotatorId);
  return drafting.length === 0 ? uncounted : new Set([...uncounted, ...drafting]);
}

/**
 * The consensus of each code change's items, from the annotations its page has read (every
 * annotation of the change's items but those on gold items left out, whose consensus is left out
 * too): the same values as the analyses' consensus (lib/data/adjudication.ts taskConsensus),
 * without reading each annotation a second time. The tasks' questions are made once. `uncounted`:
 * the raters whose answers the consensus leaves out (lib/data/study-access.ts uncountedRaters).
 */
export function codeChangeConsensus(study: StudyScales, adjudicated: Adjudicated, gold: GoldItems, uncounted: ReadonlySet<string> = NOBODY): CodeChangeConsensus {
  const tasks = TASK_LIST.map((task) => ({ task, questions: task.questions(study) }));
  return (change) => {
    const out: ExportConsensus = new Map();
    for (const { task, questions } of tasks) {
      const notCounted = leftOutRaters(change, task.task, uncounted);
      const leftOut = gold.get(task.task);
      for (const item of changeItems(task, change)) {
        if (leftOut?.has(item.id)) continue;
        // The key is made only when the item may have a consensus: one string per item and task was a third of this function's time.
        let key: string | undefined;
        const decided = adjudicated.size === 0 ? undefined : adjudicated.get((key = consensusKey(task.task, item.id)));
        for (const question of questions) {
          if (question.pairs) {
            pairConsensus(task, item as AnnotatedReviewComment, question, decided, notCounted, (column, text) => {
              key ??= consensusKey(task.task, item.id);
              if (!out.has(key)) out.set(key, new Map());
              out.get(key)!.set(column, text);
            });
            continue;
          }
          const ratings = itemRatings(task, item, question, study);
          // Fewer than two annotators and no adjudicated value: no question of the item has a consensus.
          if (ratings.length < 2 && !decided) break;
          const consensus = consensusOf(countedValues(ratings, question, notCounted), decided?.get(question.key));
          if (!consensus) continue;
          const [column, text] = task.consensusColumn(question.key, consensus.value);
          key ??= consensusKey(task.task, item.id);
          if (!out.has(key)) out.set(key, new Map());
          out.get(key)!.set(column, text);
        }
      }
    }
    return out;
  };
}

/** The consensus keys every pseudo-reference, review and review comment of a jsonl export carries: each question's export column. */
export function consensusColumns(study: StudyScales): Record<"pseudoReference" | "review" | "reviewComment", string[]> {
  const columns = (kind: "pseudoReference" | "review" | "reviewComment") => TASK_LIST.filter((t) => t.itemKind === kind).flatMap((t) => t.questions(study).map((q) => t.consensusColumn(q.key, q.scale[0])[0]));
  return { pseudoReference: columns("pseudoReference"), review: columns("review"), reviewComment: columns("reviewComment") };
}

/** One item's consensus under every column (null where there is none), from every task's consensus of it; the matching question's, by human comment, as an object under its key. */
export function itemConsensus(consensus: ExportConsensus, columns: readonly string[], itemId: string): Record<string, string | null | Record<string, string>> {
  const out: Record<string, string | null | Record<string, string>> = {};
  for (const column of columns) out[column] = null;
  for (const task of TASK_LIST) {
    const values = taskItemConsensus(consensus, task.task, itemId);
    if (!values) continue;
    for (const [column, value] of values) {
      if (Object.hasOwn(out, column)) out[column] = value;
      else {
        const at = column.indexOf(":");
        const question = column.slice(0, at);
        if (at > 0 && Object.hasOwn(out, question)) out[question] = { ...((out[question] as Record<string, string> | null) ?? {}), [column.slice(at + 1)]: value };
      }
    }
  }
  return out;
}
