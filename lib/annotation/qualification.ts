/**
 * Qualification before a study's real items (Potato's consent and training phase): a consent
 * text to accept, the guidelines to read, then a number of gold items answered one at a time with
 * feedback after each (the known answer and the codebook's reason); the share answered right
 * must reach the study's pass mark within its number of attempts. Pure rules; the stored state
 * is the annotator's membership (lib/data/qualification.ts).
 */
import type { AnswerValue } from "@/lib/agreement";
import type { TaskType } from "@/lib/generated/prisma/enums";
import type { CodebookSection } from "@/lib/tasks/types";

export interface QualificationRules {
  qualificationRequired: boolean;
  qualificationConsent: string;
  qualificationGoldItems: number;
  qualificationPassMark: number;
  qualificationMaxAttempts: number;
}

/** One answer of the attempt under way. */
export interface QualificationAnswer {
  task: TaskType;
  itemId: string;
  question: string;
  value: AnswerValue;
  correct: boolean;
}

export interface QualificationProgress {
  consentedAt: Date | null;
  guidelinesReadAt: Date | null;
  qualificationAnswers: readonly QualificationAnswer[];
  qualificationAttempts: number;
  qualifiedAt: Date | null;
  qualificationFailedAt: Date | null;
}

/** Where an annotator stands: what they do next, or the outcome. */
export type QualificationStep =
  | { step: "none" }
  | { step: "consent" }
  | { step: "guidelines" }
  | { step: "question"; index: number }
  | { step: "retry"; score: number; attemptsLeft: number }
  | { step: "passed" }
  | { step: "failed" };

/** The number of gold items an attempt asks: the study's number, at most the gold answers there are. */
export const attemptLength = (rules: Pick<QualificationRules, "qualificationGoldItems">, goldAnswers: number) => Math.min(rules.qualificationGoldItems, goldAnswers);

export function qualificationStep(rules: QualificationRules, progress: QualificationProgress, length: number): QualificationStep {
  if (!rules.qualificationRequired || progress.qualifiedAt) return progress.qualifiedAt ? { step: "passed" } : { step: "none" };
  if (progress.qualificationFailedAt) return { step: "failed" };
  if (rules.qualificationConsent.trim() !== "" && !progress.consentedAt) return { step: "consent" };
  if (!progress.guidelinesReadAt) return { step: "guidelines" };
  const answered = progress.qualificationAnswers.length;
  if (answered < length) return { step: "question", index: answered };
  return { step: "retry", score: attemptScore(progress.qualificationAnswers), attemptsLeft: rules.qualificationMaxAttempts - progress.qualificationAttempts };
}

/** The share of an attempt's answers that were right; 1 for an attempt of no items (nothing to fail). */
export function attemptScore(answers: readonly Pick<QualificationAnswer, "correct">[]): number {
  return answers.length === 0 ? 1 : answers.filter((a) => a.correct).length / answers.length;
}

/** What a finished attempt leads to: passed at the pass mark, failed once no attempt is left, else another attempt. */
export function attemptOutcome(score: number, attemptsMade: number, rules: Pick<QualificationRules, "qualificationPassMark" | "qualificationMaxAttempts">): "passed" | "retry" | "failed" {
  if (score >= rules.qualificationPassMark) return "passed";
  return attemptsMade >= rules.qualificationMaxAttempts ? "failed" : "retry";
}

/** A stored answer compared with the known one, as gold accuracy compares them (lib/analysis/gold-accuracy.ts). */
export const answersMatch = (value: AnswerValue, known: AnswerValue) => value === known;

const plain = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "");

/**
 * The codebook's definition of an answer: the entry whose key or name is the value (a claim code
 * "CORRECT" is the entry "Correct"; a grade 4 the entry "4"), in the section of the question
 * when the codebook has one per question (a Likert dimension's rules of thumb).
 */
export function codebookReason(sections: readonly CodebookSection[], question: string, value: AnswerValue): string {
  const own = sections.filter((s) => plain(s.title).startsWith(plain(question)));
  for (const section of own.length > 0 ? own : sections) {
    const entry = section.entries.find((e) => e.key === String(value) || (e.label !== "" && plain(e.label) === plain(String(value))));
    if (entry) return entry.label ? `${entry.label}: ${entry.description}` : entry.description;
  }
  return "";
}
