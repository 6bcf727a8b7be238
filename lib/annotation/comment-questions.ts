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
 * number per question key) and `notes` (the justifications). The rules their answers follow are
 * in ./comment-answers, which needs no zod (the workspace loads it first).
 */
import { z } from "zod";
import { InvariantError } from "@/lib/errors";
import { MATCH_DEGREES } from "./codebook";

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

export { MATCH_DEGREES, type MatchDegree } from "./codebook";
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

/** One annotator's answers to one comment: a stored value per question answered (the matching question's a degree per human comment id), and justifications. */
export const commentAnswersValue = z.object({
  answers: z.record(questionKey, z.union([z.boolean(), z.string().regex(CODE, "not a codebook code"), z.number().int(), z.record(z.string().min(1).max(100), matchDegree)])),
  notes: z.record(questionKey, z.string().max(5000, "at most 5000 characters")),
});
export type CommentAnswersValue = z.infer<typeof commentAnswersValue>;
export type StoredAnswer = CommentAnswersValue["answers"][string];

/** A study row with its stored comment questions read (`commentQuestionsOf`). */
export function withCommentQuestions<T extends { commentQuestions: unknown }>(row: T): Omit<T, "commentQuestions"> & { commentQuestions: CommentQuestion[] } {
  return { ...row, commentQuestions: commentQuestionsOf(row.commentQuestions) };
}
