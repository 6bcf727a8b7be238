/** A judge rater's prompt templates, presets and answers (lib/judges/rater-prompt.ts, rater-presets.ts, questions.ts). */
import { describe, expect, test } from "vitest";
import { judgeQuestion, judgeQuestions } from "@/lib/judges/questions";
import { majorityAnswer, parseRaterAnswer, raterMessages, renderTemplate, templateProblem, templateValues, TEMPLATE_VARIABLES, type JudgeItem } from "@/lib/judges/rater-prompt";
import { defaultPreset, presetsFor, RATER_PRESETS } from "@/lib/judges/rater-presets";
import { DEFAULT_COMMENT_QUESTIONS } from "@/lib/annotation/comment-questions";
import { JudgeParseError } from "@/lib/judges";
import type { TaskType } from "@/lib/generated/prisma/enums";

const study = { likertDimensions: ["relevance", "conciseness"], likertMin: 0, likertMax: 4, commentQuestions: [...DEFAULT_COMMENT_QUESTIONS] };
const item: JudgeItem = { id: "i", codeChangeId: "c", diff: "@@ -1 +1 @@\n-a\n+b", oldFile: "a\n", newFile: "b\n", text: "Rename a to b.", reference: "Use b.", claims: [{ id: "p1", text: "a becomes b" }, { id: "p2", text: "no tests" }], test: null };
const TASKS: TaskType[] = ["CLAIM_VERIFICATION", "REVIEW_RATING", "REFERENCE_GRADING", "COMMENT_FILTERING", "COMMENT_QUESTIONS"];

describe("templates", () => {
  test("every variable is filled; a name that is no variable is left as written", () => {
    const q = judgeQuestion("REVIEW_RATING", "relevance", study);
    const text = renderTemplate("{{question}}|{{ scale }}|{{item}}|{{reference}}|{{old_file}}|{{new_file}}|{{nope}}", templateValues(q, item));
    expect(text).toBe("How would you rate the review's relevance (0 lowest, 4 highest)? (CRScore Table 7)|0, 1, 2, 3, 4|Rename a to b.|Use b.|a\n|b\n|{{nope}}");
    expect(templateValues(judgeQuestion("REVIEW_RATING", "links", study), item).claims).toBe("1. a becomes b\n2. no tests");
  });

  test("a template's problems: empty, or naming what is not a variable", () => {
    expect(templateProblem(" ")).toBe("the prompt is empty");
    expect(templateProblem("{{diff}} {{review}}")).toMatch(/^the prompt names \{\{review\}\}, which is not a variable/);
    expect(templateProblem(TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(" "))).toBeNull();
  });

  test("every preset is a valid template, and every question has presets, the one made for it first", () => {
    for (const preset of RATER_PRESETS) expect(templateProblem(preset.text), preset.name).toBeNull();
    for (const task of TASKS) for (const q of judgeQuestions(task, study)) expect(presetsFor(q).length).toBeGreaterThanOrEqual(2);
    expect(defaultPreset(judgeQuestion("REFERENCE_GRADING", "grade", study)).name).toBe("gradedreviews");
    expect(defaultPreset(judgeQuestion("REVIEW_RATING", "conciseness", study)).name).toBe("crscore-laaj");
    expect(defaultPreset(judgeQuestion("REVIEW_RATING", "links", study)).name).toBe("product");
    expect(defaultPreset(judgeQuestion("COMMENT_FILTERING", "high-quality", study)).name).toBe("ccrab-filter");
    expect(defaultPreset(judgeQuestion("COMMENT_QUESTIONS", "category", study)).name).toBe("product");
    const [message] = raterMessages(defaultPreset(judgeQuestion("COMMENT_QUESTIONS", "category", study)).text, judgeQuestion("COMMENT_QUESTIONS", "category", study), item);
    expect(message.content).toContain("- SECURITY: Security. Unsafe behavior");
  });

  test("an unknown question is refused naming the task's questions", () => {
    expect(() => judgeQuestion("REVIEW_RATING", "clarity", study)).toThrow('no question "clarity" in task REVIEW_RATING of this study (questions: relevance, conciseness, links)');
  });
});

describe("answers", () => {
  const yesNo = judgeQuestion("COMMENT_FILTERING", "high-quality", study);
  test("a JSON answer (in fences, with prose) or a bare one, matched by its word or label", () => {
    expect(parseRaterAnswer('Sure.\n```json\n{"answer": "Yes", "reason": "a bug"}\n```', yesNo)).toEqual({ answer: "yes", reason: "a bug" });
    expect(parseRaterAnswer(" no ", yesNo)).toEqual({ answer: "no", reason: "" });
    expect(parseRaterAnswer('{"answer": 3}', judgeQuestion("REFERENCE_GRADING", "grade", study))).toEqual({ answer: "3", reason: "" });
    expect(parseRaterAnswer('{"answer": "Over-generalization"}', judgeQuestion("CLAIM_VERIFICATION", "error-type", study)).answer).toBe("over-generalization");
  });

  test("anything else is refused with the raw answer", () => {
    expect(() => parseRaterAnswer("probably yes", yesNo)).toThrow(JudgeParseError);
    expect(() => parseRaterAnswer('{"answer": "5"}', judgeQuestion("REVIEW_RATING", "relevance", study))).toThrow(/expected one of 0, 1, 2, 3, 4, got/);
    const links = judgeQuestion("REVIEW_RATING", "links", study);
    expect(parseRaterAnswer('{"answer": [2, 1, 2]}', links, 2).answer).toEqual([1, 2]);
    expect(parseRaterAnswer("[]", links, 2).answer).toEqual([]);
    expect(() => parseRaterAnswer('{"answer": [3]}', links, 2)).toThrow(/claim numbers from 1 to 2/);
  });

  test("the trials' most frequent answer, a tie to the first given", () => {
    expect(majorityAnswer([{ answer: "2", reason: "a" }, { answer: "3", reason: "b" }, { answer: "3", reason: "c" }])).toEqual({ answer: "3", reason: "b" });
    expect(majorityAnswer([{ answer: "2", reason: "a" }, { answer: "3", reason: "b" }])).toEqual({ answer: "2", reason: "a" });
  });

  test("an answer merges into the stored value of its save kind", () => {
    const code = judgeQuestion("CLAIM_VERIFICATION", "code", study).apply({ code: null, necessary: false, errorType: null, note: "" }, "incorrect", "wrong line");
    expect(code).toEqual({ code: "INCORRECT", necessary: false, errorType: null, note: "wrong line" });
    const rating = judgeQuestion("REVIEW_RATING", "links", study).apply({ scores: { relevance: 3 }, links: [], comment: "" }, [2], "", ["p1", "p2"]);
    expect(rating).toEqual({ scores: { relevance: 3 }, links: [{ pseudoReferenceId: "p2", partial: false }], comment: "" });
    const useful = judgeQuestion("COMMENT_QUESTIONS", "useful", study).apply({ answers: { category: "SECURITY" }, notes: {} }, "no", "praise only");
    expect(useful).toEqual({ answers: { category: "SECURITY", useful: false }, notes: { useful: "praise only" } });
    // category takes no justification: the reason is not kept as a note.
    expect(judgeQuestion("COMMENT_QUESTIONS", "category", study).apply(null, "TESTING", "tests")).toEqual({ answers: { category: "TESTING" }, notes: {} });
  });
});
