/**
 * Quality control on gold items and time (cf. Potato's attention checks and
 * Label Studio's ground-truth accuracy): each annotator's answers to questions with a known
 * answer are scored right or wrong, and finished items that took less active time than the
 * study's minimum are counted as too fast.
 */
import type { Rating, AnswerValue } from "@/lib/agreement";

export interface GoldScore {
  rater: string;
  /** Gold questions the annotator answered. */
  answered: number;
  correct: number;
  /** correct / answered; null before the first gold answer. */
  accuracy: number | null;
  /** The wrong answers: item, question, the annotator's value and the known answer. */
  misses: { item: string; question: string; value: AnswerValue; gold: AnswerValue }[];
}

/** Key of a known answer: item and question. */
export const goldKey = (item: string, question: string) => `${item}\u0000${question}`;

/** Each rater's score on the gold questions (ratings of one or more questions, each with its question key). */
export function goldScores(ratings: readonly (Rating & { question: string })[], gold: ReadonlyMap<string, AnswerValue>): Map<string, GoldScore> {
  const out = new Map<string, GoldScore>();
  for (const r of ratings) {
    const known = gold.get(goldKey(r.item, r.question));
    if (known === undefined) continue;
    const score = out.get(r.rater) ?? { rater: r.rater, answered: 0, correct: 0, accuracy: null, misses: [] };
    score.answered++;
    if (r.value === known) score.correct++;
    else score.misses.push({ item: r.item, question: r.question, value: r.value, gold: known });
    score.accuracy = score.correct / score.answered;
    out.set(r.rater, score);
  }
  return out;
}

/** Below the study's minimum accuracy on gold (only once there is an answer to judge by). */
export const belowAccuracy = (score: Pick<GoldScore, "accuracy"> | undefined, minimum: number): boolean => score?.accuracy != null && score.accuracy < minimum;

export interface PaceSummary {
  /** Finished items. */
  finished: number;
  /** Mean active seconds per finished item; null when none is finished. */
  meanSeconds: number | null;
  /** Finished items that took less than the minimum seconds. */
  tooFast: number;
}

/** Time per finished item in seconds and how many were faster than `minSeconds`. */
export function paceOf(finishedMs: readonly number[], minSeconds: number): PaceSummary {
  const total = finishedMs.reduce((sum, ms) => sum + ms, 0);
  return {
    finished: finishedMs.length,
    meanSeconds: finishedMs.length > 0 ? total / 1000 / finishedMs.length : null,
    tooFast: finishedMs.filter((ms) => ms < minSeconds * 1000).length,
  };
}
