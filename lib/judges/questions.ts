/**
 * What a judge rater can answer: every question of every task, each stored as the annotators'
 * answers are (the task's save kind and value, lib/tasks). A judge answers one question per
 * run; its answer is merged into the judge's stored value of the item, so a judge answering
 * two Likert dimensions in two runs holds one rating with both, as an annotator would.
 */
import type { TaskType } from "@/lib/generated/prisma/enums";
import type { StudyScales } from "@/lib/analysis/questions";
import { emptyClaimJudgement, emptyReviewRating, type ClaimJudgementValue, type CommentFilteringLabelValue, type ReferenceGradeValue, type ReviewRatingValue, type SaveKind } from "@/lib/annotation/values";
import { CLAIM_CODE_INFO, COMMENT_FILTER_LABELS, ERROR_TYPE_INFO, LIKERT_RULES, REFERENCE_GRADES } from "@/lib/annotation/codebook";
import { answerOptions, emptyCommentAnswers, type CommentAnswersValue, type CommentQuestion } from "@/lib/annotation/comment-questions";
import { AppError } from "@/lib/errors";

/** One answer the judge may give: the word it writes, and the codebook's name and definition. */
export interface JudgeOption {
  answer: string;
  label: string;
  description: string;
}

/** A judge's answer: one option's word, or for a links question the numbers of the claims addressed. */
export type JudgeAnswerValue = string | number[];

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
  /** The judge's stored value of the item with this answer in it (current: the value stored before, or null). */
  apply(current: unknown, answer: JudgeAnswerValue, reason: string, links?: readonly string[]): unknown;
}

const YES_NO = (yes: string, no: string): JudgeOption[] => [
  { answer: "yes", label: "Yes", description: yes },
  { answer: "no", label: "No", description: no },
];

const range = (min: number, max: number) => Array.from({ length: max - min + 1 }, (_, i) => min + i);

function claimQuestions(): JudgeQuestion[] {
  const claim = (current: unknown): ClaimJudgementValue => ({ ...emptyClaimJudgement(), ...(current as Partial<ClaimJudgementValue> | null) });
  return [
    {
      task: "CLAIM_VERIFICATION",
      key: "code",
      text: "Is the claim about the code change accurate? (CRScore Table 8)",
      kind: "judgement",
      options: CLAIM_CODE_INFO.map((c) => ({ answer: c.code.toLowerCase(), label: c.label, description: c.description })),
      apply: (current, answer, reason) => ({ ...claim(current), code: String(answer).toUpperCase(), note: reason }),
    },
    {
      task: "CLAIM_VERIFICATION",
      key: "error-type",
      text: "If the claim is incorrect, what kind of error does it make? (CRScore Table 12)",
      kind: "judgement",
      options: ERROR_TYPE_INFO.map((t) => ({ answer: t.type.toLowerCase().replace(/_/g, "-"), label: t.label, description: t.description })),
      apply: (current, answer) => ({ ...claim(current), errorType: String(answer).toUpperCase().replace(/-/g, "_") }),
    },
    {
      task: "CLAIM_VERIFICATION",
      key: "necessary",
      text: "Is the claim necessary: should a review of this change mention it?",
      kind: "judgement",
      options: YES_NO("A good review should address it.", "It is not worth a reviewer's mention."),
      apply: (current, answer) => ({ ...claim(current), necessary: answer === "yes" }),
    },
  ];
}

function ratingQuestions(study: StudyScales): JudgeQuestion[] {
  const rating = (current: unknown): ReviewRatingValue => ({ ...emptyReviewRating(), ...(current as Partial<ReviewRatingValue> | null) });
  return [
    ...study.likertDimensions.map(
      (dimension): JudgeQuestion => ({
        task: "REVIEW_RATING",
        key: dimension,
        text: `How would you rate the review's ${dimension} (${study.likertMin} lowest, ${study.likertMax} highest)? (CRScore Table 7)`,
        kind: "rating",
        options: range(study.likertMin, study.likertMax).map((n) => ({ answer: String(n), label: String(n), description: LIKERT_RULES[dimension]?.scores[n] ?? "" })),
        apply: (current, answer) => {
          const value = rating(current);
          return { ...value, scores: { ...value.scores, [dimension]: Number(answer) } };
        },
      }),
    ),
    {
      task: "REVIEW_RATING",
      key: "links",
      text: "Which of the numbered claims and smells does the review address? Answer with the list of their numbers, [] for none.",
      kind: "rating",
      options: [],
      apply: (current, answer, _reason, links = []) => ({ ...rating(current), links: (answer as number[]).map((n) => ({ pseudoReferenceId: links[n - 1], partial: false })) }),
    },
  ];
}

function gradeQuestions(): JudgeQuestion[] {
  return [
    {
      task: "REFERENCE_GRADING",
      key: "grade",
      text: "How well does the generated review match the reference review? (GradedReviews §4.3)",
      kind: "grade",
      options: [...REFERENCE_GRADES].sort((a, b) => a.grade - b.grade).map((g) => ({ answer: String(g.grade), label: g.label, description: g.description })),
      apply: (_current, answer, reason): ReferenceGradeValue => ({ grade: Number(answer), comment: reason }),
    },
  ];
}

function filterQuestions(): JudgeQuestion[] {
  return [
    {
      task: "COMMENT_FILTERING",
      key: "high-quality",
      text: "Is the review comment high quality: does it identify a specific, actionable and objectively verifiable issue? (c-CRAB §4.2.1)",
      kind: "label",
      options: YES_NO(COMMENT_FILTER_LABELS.high.description, COMMENT_FILTER_LABELS.low.description),
      apply: (_current, answer, reason): CommentFilteringLabelValue => ({ highQuality: answer === "yes", justification: reason }),
    },
  ];
}

function commentQuestion(question: CommentQuestion, study: StudyScales): JudgeQuestion {
  const options = answerOptions(question, study);
  const word = (value: unknown) => (typeof value === "boolean" ? (value ? "yes" : "no") : String(value));
  return {
    task: "COMMENT_QUESTIONS",
    key: question.key,
    text: question.description ? `${question.label} ${question.description}` : question.label,
    kind: "commentAnswers",
    options: options.map((o) => ({ answer: word(o.value), label: o.label, description: o.description })),
    withTest: question.kind === "binary" && question.withTest,
    apply: (current, answer, reason) => {
      const value: CommentAnswersValue = { ...emptyCommentAnswers(), ...(current as Partial<CommentAnswersValue> | null) };
      const stored = options.find((o) => word(o.value) === answer)!.value;
      const notes = question.justification === "none" || !reason ? value.notes : { ...value.notes, [question.key]: reason.slice(0, 5000) };
      return { answers: { ...value.answers, [question.key]: stored }, notes };
    },
  };
}

/** Every question a judge can answer on a task of the study. */
export function judgeQuestions(task: TaskType, study: StudyScales): JudgeQuestion[] {
  switch (task) {
    case "CLAIM_VERIFICATION":
      return claimQuestions();
    case "REVIEW_RATING":
      return ratingQuestions(study);
    case "REFERENCE_GRADING":
      return gradeQuestions();
    case "COMMENT_FILTERING":
      return filterQuestions();
    case "COMMENT_QUESTIONS":
      // The matching question is answered per pair of comments, not per comment.
      return study.commentQuestions.filter((q) => q.kind !== "match").map((q) => commentQuestion(q, study));
  }
}

/** The question, or INVALID_INPUT naming the ones the task has. */
export function judgeQuestion(task: TaskType, key: string, study: StudyScales): JudgeQuestion {
  const questions = judgeQuestions(task, study);
  const found = questions.find((q) => q.key === key);
  if (!found) throw new AppError("INVALID_INPUT", { message: `no question "${key}" in task ${task} of this study (questions: ${questions.map((q) => q.key).join(", ")})` });
  return found;
}
