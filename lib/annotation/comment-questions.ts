/**
 * The questions a study asks of each review comment (task comment questions), as the lead
 * configures them (`Study.commentQuestions`, validated here), and the rules their answers follow:
 * - binary, with no, an optional or a required justification: c-CRAB §4.2.1's high or low
 *   quality, §5.2's usefulness, and, asked only of a comment with a linked test, whether the
 *   test captures the comment's concern (§4.4.3);
 * - one choice from a codebook: c-CRAB §5.3's ten categories as the template, editable;
 * - a Likert score on the study's scale (CRScore Table 7) or a 1-5 grade (GradedReviews §4.3);
 * - matching, asked of a system's comment: for each human reviewer's comment of the same pull
 *   request, whether it raises the same concern fully, partly or not at all (c-CRAB §5.2: tools
 *   raise concerns the human reviewers did not). Its answer holds a degree per human comment.
 * An annotator's answers to one comment are one annotation: `answers` (a boolean, a code or a
 * number per question key) and `notes` (the justifications).
 */
import { z } from "zod";
import type { AnswerValue } from "@/lib/agreement";
import { InvariantError } from "@/lib/errors";
import { REFERENCE_GRADES } from "./codebook";

const KEY = /^[a-z][a-z0-9-]{0,39}$/;
const CODE = /^[A-Z][A-Z0-9_]{0,39}$/;

export const questionKey = z.string().regex(KEY, "a key is lowercase letters, digits and hyphens, starting with a letter (at most 40)");
const label = z.string().trim().min(1, "the label is empty").max(200);
const description = z.string().max(2000).default("");
const justification = z.enum(["none", "optional", "required"]).default("none");

export const codebookOption = z.strictObject({
  code: z.string().regex(CODE, "a code is capital letters, digits and underscores, starting with a letter (at most 40)"),
  label,
  description,
});

const binaryQuestion = z.strictObject({
  kind: z.literal("binary"),
  key: questionKey,
  label,
  description,
  justification,
  /** Asked only of comments with a linked test (c-CRAB §4.4.3: does the test capture the comment's concern?). */
  withTest: z.boolean().default(false),
});
const choiceQuestion = z.strictObject({
  kind: z.literal("choice"),
  key: questionKey,
  label,
  description,
  justification,
  options: z
    .array(codebookOption)
    .min(2, "a codebook needs at least two options")
    .max(40)
    .refine((options) => new Set(options.map((o) => o.code)).size === options.length, "two options have the same code"),
});
const likertQuestion = z.strictObject({ kind: z.literal("likert"), key: questionKey, label, description, justification });
const gradeQuestion = z.strictObject({ kind: z.literal("grade"), key: questionKey, label, description, justification });
const matchQuestion = z.strictObject({ kind: z.literal("match"), key: questionKey, label, description, justification });

export const commentQuestion = z.discriminatedUnion("kind", [binaryQuestion, choiceQuestion, likertQuestion, gradeQuestion, matchQuestion]);

/** The study setting: at least one question, keys unique. */
export const commentQuestionsSetting = z
  .array(commentQuestion)
  .min(1, "ask at least one question")
  .max(20)
  .refine((questions) => new Set(questions.map((q) => q.key)).size === questions.length, "two questions have the same key")
  .refine((questions) => questions.filter((q) => q.kind === "match").length <= 1, "ask the matching question once");

export type CommentQuestion = z.output<typeof commentQuestion>;
export type CommentQuestionInput = z.input<typeof commentQuestion>;
export type CodebookOption = z.output<typeof codebookOption>;
export type MatchQuestion = z.output<typeof matchQuestion>;

/** How much of a human comment's concern a system's comment raises, in scale order (ordinal). */
export const MATCH_DEGREES = ["none", "partly", "fully"] as const;
export type MatchDegree = (typeof MATCH_DEGREES)[number];
const matchDegree = z.enum(MATCH_DEGREES);

/** c-CRAB §5.3's ten categories of review comments, the template of a category codebook. */
export const CCRAB_CATEGORIES: readonly CodebookOption[] = [
  { code: "FUNCTIONAL_CORRECTNESS", label: "Functional correctness", description: "Incorrect or unexpected high-level behavior, regressions, semantic mismatches, or functional bugs." },
  { code: "TESTING", label: "Testing", description: "Incorrect, missing, fragile or flaky tests, weak assertions, lack of test coverage, or improvements to tests." },
  { code: "ROBUSTNESS", label: "Robustness", description: "Implementation-level edge cases, such as corner cases in input and control flow." },
  { code: "COMPATIBILITY", label: "Compatibility", description: "Version, software or hardware compatibility." },
  { code: "DOCUMENTATION", label: "Documentation", description: "Correctness, wording, structure or clarity of docs, examples, links or code comments." },
  { code: "DESIGN", label: "Design", description: "Interaction with other parts of the software, such as an API's signature and return values." },
  { code: "ERROR_HANDLING", label: "Error handling", description: "Warning and error messages, or exception behavior." },
  { code: "MAINTAINABILITY", label: "Maintainability", description: "Readability, logging, code smells, complexity, organization, and the repository's coding practices." },
  { code: "EFFICIENCY", label: "Efficiency", description: "Overhead and computational efficiency." },
  { code: "SECURITY", label: "Security", description: "Unsafe behavior, security exposure, or safety issues." },
];

/** The questions a lead can start from, by key. */
export const COMMENT_QUESTION_TEMPLATES = {
  "high-quality": {
    kind: "binary",
    key: "high-quality",
    label: "High quality",
    description: "Yes: it names a specific, actionable and objectively verifiable issue in the patch. No: no concrete action (conversation, acknowledgement, praise, a concern no test can check). c-CRAB §4.2.1.",
    justification: "required",
    withTest: false,
  },
  useful: {
    kind: "binary",
    key: "useful",
    label: "Useful",
    description: "Yes: it points out a valid issue or suggests an improvement to the code. c-CRAB §5.2.",
    justification: "optional",
    withTest: false,
  },
  category: { kind: "choice", key: "category", label: "Category", description: "The kind of concern the comment raises. c-CRAB §5.3.", justification: "none", options: [...CCRAB_CATEGORIES] },
  "test-captures": {
    kind: "binary",
    key: "test-captures",
    label: "Test captures the concern",
    description: "Yes: the linked test faithfully captures the concern the comment expresses. c-CRAB §4.4.3.",
    justification: "optional",
    withTest: true,
  },
  matches: {
    kind: "match",
    key: "matches",
    label: "Same concern as",
    description: "For each human reviewer's comment of the pull request: does this comment raise the same concern fully, partly, or not at all? c-CRAB §5.2.",
    justification: "none",
  },
} as const satisfies Record<string, CommentQuestion>;

/** A study's questions when its lead has not set them: c-CRAB's usefulness, category and test faithfulness. */
export const DEFAULT_COMMENT_QUESTIONS: readonly CommentQuestion[] = [COMMENT_QUESTION_TEMPLATES.useful, COMMENT_QUESTION_TEMPLATES.category, COMMENT_QUESTION_TEMPLATES["test-captures"]];

/** The questions of a study as stored (null: the default); a stored value that no longer parses is an internal error naming why (saves check the setting). */
export function commentQuestionsOf(stored: unknown): CommentQuestion[] {
  if (stored === null || stored === undefined) return [...DEFAULT_COMMENT_QUESTIONS];
  const parsed = commentQuestionsSetting.safeParse(stored);
  if (!parsed.success) throw new InvariantError(`the study's comment questions are invalid: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return parsed.data;
}

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

/** One annotator's answers to one comment: a stored value per question answered (the matching question's a degree per human comment id), and justifications. */
export const commentAnswersValue = z.object({
  answers: z.record(questionKey, z.union([z.boolean(), z.string().regex(CODE, "not a codebook code"), z.number().int(), z.record(z.string().min(1).max(100), matchDegree)])),
  notes: z.record(questionKey, z.string().max(5000, "at most 5000 characters")),
});
export type CommentAnswersValue = z.infer<typeof commentAnswersValue>;
export type StoredAnswer = CommentAnswersValue["answers"][string];

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

/** A study row with its stored comment questions read (`commentQuestionsOf`). */
export function withCommentQuestions<T extends { commentQuestions: unknown }>(row: T): Omit<T, "commentQuestions"> & { commentQuestions: CommentQuestion[] } {
  return { ...row, commentQuestions: commentQuestionsOf(row.commentQuestions) };
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
