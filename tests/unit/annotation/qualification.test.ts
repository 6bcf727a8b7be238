import { describe, expect, test } from "vitest";
import { attemptLength, attemptOutcome, attemptScore, codebookReason, qualificationStep, type QualificationProgress, type QualificationRules } from "@/lib/annotation/qualification";
import { TASKS } from "@/lib/tasks";

const rules: QualificationRules = { qualificationRequired: true, qualificationConsent: "I agree.", qualificationGoldItems: 3, qualificationPassMark: 0.6, qualificationMaxAttempts: 2 };
const start: QualificationProgress = { consentedAt: null, guidelinesReadAt: null, qualificationAnswers: [], qualificationAttempts: 0, qualifiedAt: null, qualificationFailedAt: null };
const answer = (correct: boolean) => ({ task: "REFERENCE_GRADING" as const, itemId: "r", question: "grade", value: 3, correct });
const at = new Date(0);

describe("the steps of a qualification", () => {
  test("consent, then guidelines, then each gold item in turn, then the attempt's result", () => {
    expect(qualificationStep(rules, start, 3)).toEqual({ step: "consent" });
    expect(qualificationStep(rules, { ...start, consentedAt: at }, 3)).toEqual({ step: "guidelines" });
    const reading = { ...start, consentedAt: at, guidelinesReadAt: at };
    expect(qualificationStep(rules, reading, 3)).toEqual({ step: "question", index: 0 });
    expect(qualificationStep(rules, { ...reading, qualificationAnswers: [answer(true), answer(false)] }, 3)).toEqual({ step: "question", index: 2 });
    expect(qualificationStep(rules, { ...reading, qualificationAnswers: [answer(true), answer(false), answer(false)], qualificationAttempts: 1 }, 3)).toEqual({ step: "retry", score: 1 / 3, attemptsLeft: 1 });
  });
  test("no consent text asks none; a study not requiring it asks nothing; passed and failed are final", () => {
    expect(qualificationStep({ ...rules, qualificationConsent: "  " }, start, 3)).toEqual({ step: "guidelines" });
    expect(qualificationStep({ ...rules, qualificationRequired: false }, start, 3)).toEqual({ step: "none" });
    expect(qualificationStep(rules, { ...start, qualifiedAt: at }, 3)).toEqual({ step: "passed" });
    expect(qualificationStep(rules, { ...start, qualificationFailedAt: at }, 3)).toEqual({ step: "failed" });
  });
  test("an attempt asks the study's number of gold items, at most those there are", () => {
    expect(attemptLength(rules, 10)).toBe(3);
    expect(attemptLength(rules, 2)).toBe(2);
  });
});

describe("scoring an attempt", () => {
  test("the share right against the pass mark, failed once no attempt is left", () => {
    expect(attemptScore([answer(true), answer(false), answer(true)])).toBeCloseTo(2 / 3);
    expect(attemptOutcome(2 / 3, 1, rules)).toBe("passed");
    expect(attemptOutcome(0.6, 2, rules)).toBe("passed");
    expect(attemptOutcome(1 / 3, 1, rules)).toBe("retry");
    expect(attemptOutcome(1 / 3, 2, rules)).toBe("failed");
  });
});

describe("the codebook's reason of a known answer", () => {
  const study = { likertDimensions: ["conciseness", "relevance"], likertMin: 1, likertMax: 5, commentQuestions: [] };
  test("a claim code by its name, a grade by its key, a Likert score in its dimension's rules", () => {
    expect(codebookReason(TASKS.CLAIM_VERIFICATION.codebook(study), "code", "INCORRECT")).toBe("Incorrect: Concrete evidence contradicts the claim.");
    expect(codebookReason(TASKS.REFERENCE_GRADING.codebook(study), "grade", 2)).toBe("Fair: Only loosely related to the reference review.");
    expect(codebookReason(TASKS.REVIEW_RATING.codebook(study), "conciseness", 4)).toBe("Most of the review is related to the claims+issues.");
    expect(codebookReason(TASKS.REFERENCE_GRADING.codebook(study), "grade", 9)).toBe("");
  });
});
