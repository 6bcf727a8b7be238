/** The study setting of comment questions and the rules of their answers (lib/annotation/comment-questions.ts), and the descriptor's pure parts. */
import { describe, expect, test } from "vitest";
import { CCRAB_CATEGORIES, COMMENT_QUESTION_TEMPLATES, commentQuestionsOf, commentQuestionsSetting, DEFAULT_COMMENT_QUESTIONS, type CommentQuestion } from "@/lib/annotation/comment-questions";
import { answerOptions, answersProblem, askedComment, askedOf, humanCommentIds, missingOfComment, questionScale } from "@/lib/annotation/comment-answers";
import { commentQuestion, commentQuestions, pairItemId, pairOfItem, reviewerLabels } from "@/lib/tasks/comment-questions";

const likert = { likertMin: 1, likertMax: 5 };
const QUESTIONS: CommentQuestion[] = commentQuestionsSetting.parse([
  COMMENT_QUESTION_TEMPLATES["high-quality"],
  COMMENT_QUESTION_TEMPLATES.category,
  COMMENT_QUESTION_TEMPLATES["test-captures"],
  { kind: "likert", key: "relevance", label: "Relevance" },
  { kind: "grade", key: "grade", label: "Grade", justification: "optional" },
]);

describe("the study setting", () => {
  test("null is the template: usefulness, c-CRAB's ten categories and the test question", () => {
    expect(commentQuestionsOf(null).map((q) => q.key)).toEqual(["useful", "category", "test-captures"]);
    expect(DEFAULT_COMMENT_QUESTIONS[1]).toMatchObject({ kind: "choice", options: CCRAB_CATEGORIES });
    expect(CCRAB_CATEGORIES.map((c) => c.label)).toEqual(["Functional correctness", "Testing", "Robustness", "Compatibility", "Documentation", "Design", "Error handling", "Maintainability", "Efficiency", "Security"]);
  });

  test("defaults filled in; bad settings refused naming the field", () => {
    expect(commentQuestionsSetting.parse([{ kind: "binary", key: "useful", label: "Useful" }])).toEqual([{ kind: "binary", key: "useful", label: "Useful", description: "", justification: "none", withTest: false }]);
    const issues = (value: unknown) => commentQuestionsSetting.safeParse(value).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(issues([])).toEqual([": ask at least one question"]);
    expect(issues([{ kind: "binary", key: "Useful", label: "U" }])).toEqual(["0.key: a key is lowercase letters, digits and hyphens, starting with a letter (at most 40)"]);
    expect(issues([COMMENT_QUESTION_TEMPLATES.useful, COMMENT_QUESTION_TEMPLATES.useful])).toEqual([": two questions have the same key"]);
    expect(issues([{ ...COMMENT_QUESTION_TEMPLATES.category, options: [CCRAB_CATEGORIES[0], CCRAB_CATEGORIES[0]] }])).toEqual(["0.options: two options have the same code"]);
    expect(issues([{ ...COMMENT_QUESTION_TEMPLATES.category, options: [CCRAB_CATEGORIES[0]] }])).toEqual(["0.options: a codebook needs at least two options"]);
    expect(() => commentQuestionsOf([{ kind: "scale" }])).toThrow(/the study's comment questions are invalid: 0\.kind/);
  });

  test("each question's scale and level: binary and choice nominal, Likert and grade ordinal", () => {
    expect(QUESTIONS.map((q) => questionScale(q, { likertMin: 0, likertMax: 3 }))).toEqual([["no", "yes"], CCRAB_CATEGORIES.map((c) => c.code), ["no", "yes"], [0, 1, 2, 3], [1, 2, 3, 4, 5]]);
    expect(QUESTIONS.map((q) => commentQuestion(q, likert)).map((q) => [q.key, q.level, q.weights])).toEqual([
      ["high-quality", "nominal", "unweighted"],
      ["category", "nominal", "unweighted"],
      ["test-captures", "nominal", "unweighted"],
      ["relevance", "ordinal", "quadratic"],
      ["grade", "ordinal", "quadratic"],
    ]);
  });
});

describe("answers", () => {
  const problem = (answers: Record<string, unknown>, notes: Record<string, string> = {}, hasTest = false) => answersProblem({ answers, notes } as never, QUESTIONS, { hasTest }, likert);

  test("a draft may leave questions out; what the questions do not take is named", () => {
    expect(problem({})).toBeNull();
    expect(problem({ "high-quality": true, category: "SECURITY", relevance: 5, grade: 1 }, { "high-quality": "x", grade: "" })).toBeNull();
    expect(problem({ "test-captures": false }, {}, true)).toBeNull();
    expect(problem({ useful: true })).toBe('no question "useful" in this study');
    expect(problem({ category: "SPEED" })).toBe('"SPEED" is not an answer to "category" (one of FUNCTIONAL_CORRECTNESS, TESTING, ROBUSTNESS, COMPATIBILITY, DOCUMENTATION, DESIGN, ERROR_HANDLING, MAINTAINABILITY, EFFICIENCY, SECURITY)');
    expect(problem({ "high-quality": 1 })).toBe('1 is not an answer to "high-quality" (true or false)');
    expect(problem({ relevance: 0 })).toBe('0 is not an answer to "relevance" (one of 1, 2, 3, 4, 5)');
    expect(problem({ "test-captures": true })).toBe('"test-captures" is asked only of comments with a linked test');
    expect(problem({}, { relevance: "why" })).toBe('"relevance" takes no justification');
  });

  test("what a comment still lacks: unanswered questions asked of it and required justifications", () => {
    expect(missingOfComment(null, QUESTIONS, { hasTest: false }, likert)).toEqual(["high-quality", "category", "relevance", "grade"]);
    expect(missingOfComment(null, QUESTIONS, { hasTest: true }, likert)).toEqual(["high-quality", "category", "test-captures", "relevance", "grade"]);
    const full = { answers: { "high-quality": false, category: "DESIGN", relevance: 2, grade: 4 }, notes: { "high-quality": "  " } };
    expect(missingOfComment(full, QUESTIONS, { hasTest: false }, likert)).toEqual(["justification of high-quality"]);
    expect(missingOfComment({ ...full, notes: { "high-quality": "praise only" } }, QUESTIONS, { hasTest: false }, likert)).toEqual([]);
  });

  test("the analyses read binary answers as no/yes, codes as text and Likert scores and grades as JSON numbers", () => {
    const [hq, category, , relevance] = QUESTIONS.map((q) => commentQuestion(q, likert));
    expect(commentQuestions.answer(hq)).toEqual({ text: `CASE a."answers" -> 'high-quality' WHEN 'true'::jsonb THEN 'yes' WHEN 'false'::jsonb THEN 'no' END` });
    expect(commentQuestions.answer(category)).toEqual({ text: `a."answers" ->> 'category'` });
    expect(commentQuestions.answer(relevance)).toEqual({ jsonNumber: "answers" });
  });
});

describe("the workspace's keys", () => {
  test("binary 1 yes and 0 no; a codebook's options 1 to 9 and 0 for the tenth; a score or grade its digit", () => {
    expect(answerOptions(COMMENT_QUESTION_TEMPLATES.useful, likert).map((o) => [o.key, o.value])).toEqual([
      ["1", true],
      ["0", false],
    ]);
    const categories = answerOptions(COMMENT_QUESTION_TEMPLATES.category, likert);
    expect(categories.map((o) => o.key)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"]);
    expect(categories.map((o) => o.value)).toEqual(CCRAB_CATEGORIES.map((c) => c.code));
    const eleven = commentQuestionsSetting.parse([{ ...COMMENT_QUESTION_TEMPLATES.category, options: [...CCRAB_CATEGORIES, { code: "OTHER", label: "Other" }] }])[0];
    expect(answerOptions(eleven, likert).at(-1)).toMatchObject({ key: null, value: "OTHER" });
    const score = { kind: "likert", key: "relevance", label: "Relevance", description: "", justification: "none" } as const;
    expect(answerOptions(score, likert).map((o) => [o.key, o.value])).toEqual([1, 2, 3, 4, 5].map((n) => [String(n), n]));
    expect(answerOptions(score, { likertMin: 1, likertMax: 10 }).at(-1)).toMatchObject({ key: "0", value: 10 });
    expect(answerOptions(score, { likertMin: 0, likertMax: 10 }).at(-1)).toMatchObject({ key: null, value: 10 });
    // Every option's value is an answer on the question's scale.
    for (const q of [...QUESTIONS, score]) for (const o of answerOptions(q, likert)) expect(answersProblem({ answers: { [q.key]: o.value }, notes: {} }, [...QUESTIONS, score], { hasTest: true }, likert)).toBeNull();
  });
});

describe("the workspace's reviewers", () => {
  test("reviewer letters per system, shuffled by the seed alone", () => {
    const systems = ["human", "codex", "claude-code", "codex"];
    const labels = reviewerLabels(systems, 7);
    expect([...labels.values()].sort()).toEqual(["Reviewer A", "Reviewer B", "Reviewer C"]);
    expect(reviewerLabels([...systems].reverse(), 7)).toEqual(labels);
    const orders = new Set(Array.from({ length: 12 }, (_, seed) => [...reviewerLabels(systems, seed)].sort().map(([, l]) => l).join()));
    expect(orders.size).toBeGreaterThan(1);
  });
});

describe("the matching question (c-CRAB §5.2)", () => {
  const [matches] = commentQuestionsSetting.parse([COMMENT_QUESTION_TEMPLATES.matches]);
  const comments = [
    { id: "t1", test: null },
    { id: "h1", human: true, test: null },
    { id: "h2", human: true, test: "def test(): ..." },
  ];
  const humans = humanCommentIds(comments);
  const tool = askedComment(comments[0], humans);

  test("asked of a system's comment against each human comment of its pull request; not of a human comment, nor without human comments", () => {
    expect(humans).toEqual(["h1", "h2"]);
    expect(tool).toEqual({ hasTest: false, matchTargets: ["h1", "h2"] });
    expect(askedOf(matches, tool)).toBe(true);
    expect(askedOf(matches, askedComment(comments[1], humans))).toBe(false);
    expect(askedOf(matches, askedComment(comments[0], []))).toBe(false);
    expect(() => commentQuestionsSetting.parse([matches, { ...matches, key: "matches-2" }])).toThrow(/matching question once/);
  });

  test("an ordinal question on none < partly < fully, its items pairs; digits 2 fully, 1 partly, 0 none", () => {
    expect(commentQuestion(matches, likert)).toMatchObject({ level: "ordinal", scale: ["none", "partly", "fully"], weights: "quadratic", pairs: true });
    expect(commentQuestions.answer(commentQuestion(matches, likert))).toEqual({ text: 'a."degree"' });
    expect(answerOptions(matches, likert).map((o) => [o.key, o.value])).toEqual([
      ["2", "fully"],
      ["1", "partly"],
      ["0", "none"],
    ]);
    expect(pairOfItem(pairItemId("t1", "h1"))).toEqual({ commentId: "t1", humanCommentId: "h1" });
    expect(pairOfItem("t1")).toBeNull();
  });

  test("a degree per human comment: missing until each has one; other comments, degrees off the scale and other shapes refused", () => {
    const value = (degrees: unknown) => ({ answers: { matches: degrees }, notes: {} }) as never;
    expect(answersProblem(value({ h1: "fully" }), [matches], tool, likert)).toBeNull();
    expect(missingOfComment(value({ h1: "fully" }), [matches], tool, likert)).toEqual(["matches"]);
    expect(missingOfComment(value({ h1: "fully", h2: "none" }), [matches], tool, likert)).toEqual([]);
    expect(answersProblem(value({ t1: "fully" }), [matches], tool, likert)).toMatch(/"t1", which is not a human comment of this pull request/);
    expect(answersProblem(value({ h1: "maybe" }), [matches], tool, likert)).toMatch(/"maybe" is not a degree of "matches"/);
    expect(answersProblem(value("fully"), [matches], tool, likert)).toMatch(/a degree, none, partly, fully, per human comment/);
    expect(answersProblem(value({ h2: "fully" }), [matches], askedComment(comments[1], humans), likert)).toMatch(/asked only of a system's comment/);
  });
});
