/** Human scores of reviews for one question: each annotator's rating and their mean (the review's human score). */
import { db, type PrismaClient } from "@/lib/db/client";
import type { RatingValue } from "@/lib/agreement";
import { gatherTaskColumns, type StudyForAnalysis, type StudyItem } from "./gather";
import { reviewQuestionTask } from "@/lib/tasks";
import type { Question } from "./questions";
import type { DraftMode } from "./drafts";
import { AppError } from "@/lib/errors";

/** Ratings as numbers: numeric scales as they are, labels by their position (high-quality: 0 no, 1 yes). */
export function numericValue(question: Question, value: RatingValue): number {
  return typeof value === "number" ? value : question.scale.indexOf(value);
}

export interface HumanScores {
  question: Question;
  /** The numeric scale, in order. */
  scale: number[];
  /** Review id → the annotators' numeric ratings. */
  ratings: Map<string, { rater: string; value: number }[]>;
  items: Map<string, StudyItem>;
  /** Draft ratings left out (lib/analysis/drafts.ts). */
  draftsLeftOut: number;
}

export const mean = (values: readonly number[]) => values.reduce((s, v) => s + v, 0) / values.length;

/** Review-level questions of a study: its Likert dimensions, "grade" and "high-quality" (for the tasks it has). */
export function reviewQuestionKeys(study: StudyForAnalysis): string[] {
  return [...study.likertDimensions, "grade", "high-quality"].filter((key) => {
    const task = reviewQuestionTask(key, study);
    return task !== null && study.taskTypes.includes(task);
  });
}

export async function humanScores(study: StudyForAnalysis, key: string, client: PrismaClient = db, drafts: DraftMode = "exclude"): Promise<HumanScores> {
  const task = reviewQuestionTask(key, study);
  if (task === null || !study.taskTypes.includes(task)) throw new AppError("NOT_FOUND", { message: `study ${study.slug} has no human question "${key}"; available: ${reviewQuestionKeys(study).join(", ")}` });
  const data = await gatherTaskColumns(study, task, client, { drafts, only: key });
  const found = data.questions.find((q) => q.question.key === key);
  if (!found) throw new AppError("NOT_FOUND", { message: `no question "${key}" in task ${task}` });
  const scale = found.question.scale.map((v) => numericValue(found.question, v));
  // Entries are grouped by item in study order, each item's by annotator id.
  const ratings = new Map<string, { rater: string; value: number }[]>();
  for (let e = 0; e < found.item.length; e++) {
    const id = data.items[found.item[e]].id;
    const rating = { rater: data.raters[found.rater[e]], value: scale[found.value[e]] };
    if (e > 0 && found.item[e] === found.item[e - 1]) (ratings.get(id) as { rater: string; value: number }[]).push(rating);
    else ratings.set(id, [rating]);
  }
  return { question: found.question, scale, ratings, items: new Map(data.items.map((item) => [item.id, item])), draftsLeftOut: found.drafts };
}
