/**
 * The rules answers to comment questions (./comment-questions) follow: which questions are asked
 * of a comment, each question's scale and the workspace's answer keys, what a comment's answers
 * lack or get wrong. Pure and without zod: the pull-request workspace loads it with its first page.
 */
import type { AnswerValue } from "@/lib/agreement";
import { MATCH_DEGREES, REFERENCE_GRADES, type MatchDegree } from "./codebook";
import type { CommentAnswersValue, CommentQuestion, StoredAnswer } from "./comment-questions";

/** The two answers of a binary question, as agreement, consensus and exports write them. */
export const BINARY_SCALE = ["no", "yes"] as const;

/** The answers of a question in scale order (its Question's `scale`). */
export function questionScale(question: CommentQuestion, likert: { likertMin: number; likertMax: number }): AnswerValue[] {
  switch (question.kind) {
    case "binary":
      return [...BINARY_SCALE];
    case "choice":
      return question.options.map((o) => o.code);
    case "likert":
      return Array.from({ length: likert.likertMax - likert.likertMin + 1 }, (_, i) => likert.likertMin + i);
    case "grade":
      return REFERENCE_GRADES.map((g) => g.grade).sort((a, b) => a - b);
    case "match":
      return [...MATCH_DEGREES];
  }
}

export function emptyCommentAnswers(): CommentAnswersValue {
  return { answers: {}, notes: {} };
}

/**
 * A comment as the questions asked of it depend on it: whether it has a linked test, and the
 * human comments of its pull request it is matched against (none when it is a human comment).
 */
export interface AskedComment {
  hasTest: boolean;
  matchTargets?: readonly string[];
}

/** Whether the question is asked of this comment: the test question of a comment with a test only, the matching question of a system's comment on a pull request with human comments only. */
export const askedOf = (question: CommentQuestion, comment: AskedComment) =>
  question.kind === "match" ? (comment.matchTargets?.length ?? 0) > 0 : question.kind !== "binary" || !question.withTest || comment.hasTest;

/** The ids of the human comments among a pull request's workspace comments (those a system's comment is matched against). */
export const humanCommentIds = (comments: readonly { id: string; human?: boolean }[]): string[] => comments.filter((c) => c.human).map((c) => c.id);

/** A comment of a pull request as askedOf reads it: a system's comment is matched against the pull request's human comments (`humans`, their ids). */
export function askedComment(comment: { human?: boolean; test: unknown }, humans: readonly string[]): AskedComment {
  return { hasTest: comment.test !== null, matchTargets: comment.human ? [] : humans };
}

/** The degrees of a matching answer by human comment id ({} when it holds none). */
export function matchDegrees(answer: StoredAnswer | undefined): Record<string, MatchDegree> {
  return answer !== null && typeof answer === "object" ? answer : {};
}

/** A stored answer's value on the question's scale (a binary's "yes"/"no"), or null when it has none there; a matching answer has a degree per human comment (`matchDegrees`), none of its own. */
export function answerOnScale(question: CommentQuestion, answer: StoredAnswer | undefined, likert: { likertMin: number; likertMax: number }): AnswerValue | null {
  if (answer === undefined || question.kind === "match" || typeof answer === "object") return null;
  if (question.kind === "binary") return typeof answer === "boolean" ? BINARY_SCALE[answer ? 1 : 0] : null;
  return questionScale(question, likert).includes(answer as AnswerValue) ? (answer as AnswerValue) : null;
}

/**
 * What is wrong with a save's answers under the study's questions, or null: an answer to a
 * question the study does not ask (of this comment), off its scale, or a justification to a
 * question that takes none. Unanswered questions are fine (a draft); completeness asks for them.
 */
export function answersProblem(value: CommentAnswersValue, questions: readonly CommentQuestion[], comment: AskedComment, likert: { likertMin: number; likertMax: number }): string | null {
  const byKey = new Map(questions.map((q) => [q.key, q]));
  for (const [key, answer] of Object.entries(value.answers)) {
    const question = byKey.get(key);
    if (!question) return `no question "${key}" in this study`;
    if (!askedOf(question, comment)) return question.kind === "match" ? `"${key}" is asked only of a system's comment on a pull request with human comments` : `"${key}" is asked only of comments with a linked test`;
    if (question.kind === "match") {
      if (typeof answer !== "object") return `${JSON.stringify(answer)} is not an answer to "${key}" (a degree, ${MATCH_DEGREES.join(", ")}, per human comment)`;
      const targets = new Set(comment.matchTargets);
      const stray = Object.keys(answer).find((id) => !targets.has(id));
      if (stray !== undefined) return `"${key}" names ${JSON.stringify(stray)}, which is not a human comment of this pull request`;
      const off = Object.values(answer).find((degree) => !(MATCH_DEGREES as readonly string[]).includes(degree));
      if (off !== undefined) return `${JSON.stringify(off)} is not a degree of "${key}" (one of ${MATCH_DEGREES.join(", ")})`;
      continue;
    }
    if (answerOnScale(question, answer, likert) === null) {
      const scale = questionScale(question, likert);
      return `${JSON.stringify(answer)} is not an answer to "${key}" (${question.kind === "binary" ? "true or false" : `one of ${scale.join(", ")}`})`;
    }
  }
  for (const key of Object.keys(value.notes)) {
    const question = byKey.get(key);
    if (!question) return `no question "${key}" in this study`;
    if (question.justification === "none") return `"${key}" takes no justification`;
  }
  return null;
}

/** What one comment's answers still lack: the keys of questions unanswered, and "justification of KEY" where one is required. */
export function missingOfComment(value: CommentAnswersValue | null, questions: readonly CommentQuestion[], comment: AskedComment, likert: { likertMin: number; likertMax: number }): string[] {
  return questions
    .filter((q) => askedOf(q, comment))
    .flatMap((q) => {
      if (q.kind === "match") {
        const degrees = matchDegrees(value?.answers[q.key]);
        return (comment.matchTargets ?? []).some((id) => degrees[id] === undefined) ? [q.key] : [];
      }
      if (answerOnScale(q, value?.answers[q.key], likert) === null) return [q.key];
      return q.justification === "required" && !(value?.notes[q.key] ?? "").trim() ? [`justification of ${q.key}`] : [];
    });
}

/** One answer of a question as the workspace offers it: the stored value (a matching question's: the degree toward one human comment), its key (a digit; null: click only) and its words. */
export interface AnswerOption {
  value: boolean | string | number;
  key: string | null;
  label: string;
  description: string;
}

/**
 * The answers of a question in the order the workspace shows them, each with the digit that
 * gives it: a binary question 1 yes and 0 no (as comment filtering's 1 high and 0 low quality); a
 * codebook's options 1 to 9 and 0 for the tenth (c-CRAB §5.3's ten categories all have a key);
 * a Likert score or grade its own digit (0 for 10 on a scale up to 10, as likertFromDigit reads it).
 */
export function answerOptions(question: CommentQuestion, likert: { likertMin: number; likertMax: number }): AnswerOption[] {
  switch (question.kind) {
    case "binary":
      return [
        { value: true, key: "1", label: "Yes", description: "" },
        { value: false, key: "0", label: "No", description: "" },
      ];
    case "choice":
      return question.options.map((o, i) => ({ value: o.code, key: i < 9 ? String(i + 1) : i === 9 ? "0" : null, label: o.label, description: o.description }));
    case "likert":
      return questionScale(question, likert).map((v) => {
        const n = v as number;
        return { value: n, key: n >= 0 && n <= 9 ? String(n) : n === 10 && likert.likertMin > 0 ? "0" : null, label: String(n), description: "" };
      });
    case "grade":
      return REFERENCE_GRADES.slice()
        .sort((a, b) => a.grade - b.grade)
        .map((g) => ({ value: g.grade, key: String(g.grade), label: `${g.grade} ${g.label}`, description: g.description }));
    case "match":
      return [
        { value: "fully", key: "2", label: "Fully", description: "It raises the same concern as the human comment." },
        { value: "partly", key: "1", label: "Partly", description: "It raises part of the human comment's concern, or a closely related one." },
        { value: "none", key: "0", label: "None", description: "It raises a different concern." },
      ];
  }
}
