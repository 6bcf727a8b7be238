/** Human scores of reviews for one question: each annotator's rating and their mean (the review's human score). */
import type { AnswerValue } from "@/lib/agreement";
import type { StudyForAnalysis } from "@/lib/data/studies";
import type { StudyItem, TaskColumns } from "./gather";
import { reviewQuestionTask } from "@/lib/tasks";
import type { TaskType } from "@/lib/generated/prisma/enums";
import type { Question } from "./questions";
import { AppError } from "@/lib/errors";

/** Ratings as numbers: numeric scales as they are, labels by their position (high-quality: 0 no, 1 yes). */
export function numericValue(question: Question, value: AnswerValue): number {
  return typeof value === "number" ? value : question.scale.indexOf(value);
}

/**
 * The annotators' numeric ratings of the rated reviews as columns (no object per rating: a
 * study of 100,000 ratings made them in 10-30 ms, and as much again to collect): rated review k
 * has entries first[k] to first[k + 1] - 1, in each of which annotator raters[rater[e]] gave value[e].
 */
export interface HumanRatings {
  /** Review id → its number k among the rated reviews (only reviews with a rating are listed). */
  review: Map<string, number>;
  first: Int32Array;
  raters: string[];
  rater: Int32Array;
  value: Float64Array;
}

export interface HumanScores {
  question: Question;
  /** The numeric scale, in order. */
  scale: number[];
  ratings: HumanRatings;
  /** The rated items, in study order. */
  items: StudyItem[];
  /** Draft ratings left out (lib/analysis/drafts.ts). */
  draftsLeftOut: number;
}

export const mean = (values: readonly number[]) => values.reduce((s, v) => s + v, 0) / values.length;

/**
 * HumanRatings of entries grouped by review (a review's entries one after the other): entry e
 * is annotator raters[rater[e]]'s value[e] for review ids[item[e]].
 */
export function groupRatings(ids: readonly string[], item: Int32Array, raters: string[], rater: Int32Array, value: Float64Array): HumanRatings {
  const review = new Map<string, number>();
  const first: number[] = [];
  for (let e = 0; e < item.length; e++) {
    if (e > 0 && item[e] === item[e - 1]) continue;
    review.set(ids[item[e]], first.length);
    first.push(e);
  }
  first.push(item.length);
  return { review, first: Int32Array.from(first), raters, rater, value };
}

/** A review's human score: the mean of its ratings (as `mean`, summed in entry order); undefined when it has none. */
export function humanScore(ratings: HumanRatings, reviewId: string): number | undefined {
  const k = ratings.review.get(reviewId);
  if (k === undefined) return undefined;
  let sum = 0;
  for (let e = ratings.first[k]; e < ratings.first[k + 1]; e++) sum += ratings.value[e];
  return sum / (ratings.first[k + 1] - ratings.first[k]);
}

/** Review-level questions of a study: its Likert dimensions, "grade" and "high-quality" (for the tasks it has). */
export function reviewQuestionKeys(study: StudyForAnalysis): string[] {
  return [...study.likertDimensions, "grade", "high-quality"].filter((key) => {
    const task = reviewQuestionTask(key, study);
    return task !== null && study.tasks.includes(task);
  });
}

/** The task of a study's human question `key`; NOT_FOUND when the study has none. */
export function humanQuestion(study: StudyForAnalysis, key: string): TaskType {
  const task = reviewQuestionTask(key, study);
  if (task === null || !study.tasks.includes(task)) throw new AppError("NOT_FOUND", { message: `study ${study.slug} has no human question "${key}"; available: ${reviewQuestionKeys(study).join(", ")}` });
  return task;
}

/** The human scores of question `key` from its task's columns (lib/data/task-answers.ts reads them). */
export function humanScoresOf(data: TaskColumns, key: string): HumanScores {
  const found = data.questions.find((q) => q.question.key === key);
  if (!found) throw new AppError("NOT_FOUND", { message: `no question "${key}" in task ${data.task}` });
  const scale = found.question.scale.map((v) => numericValue(found.question, v));
  // Entries are grouped by item in study order, each item's by annotator id.
  const value = new Float64Array(found.value.length);
  for (let e = 0; e < value.length; e++) value[e] = scale[found.value[e]];
  const ratings = groupRatings(data.items.map((item) => item.id), found.item, data.raters, found.rater, value);
  return { question: found.question, scale, ratings, items: data.items, draftsLeftOut: found.drafts };
}
