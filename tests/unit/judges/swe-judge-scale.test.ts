/** SWE-Judge's 0-100 score on a question's own scale (§3.3: min + ŝ/100 · (max − min); the nearest point for κ, §5.2). */
import { describe, expect, test } from "vitest";
import { scaleOfQuestion, sweJudgeOnScale } from "@/lib/judges/swe-judge-team";

const sweJudgeOnQuestion = (score: number, question: { key: string; scale: readonly (string | number)[] }) => sweJudgeOnScale(score, scaleOfQuestion(question));

const zeroToFour = { key: "relevance", scale: [0, 1, 2, 3, 4] };
const oneToFive = { key: "grade", scale: [1, 2, 3, 4, 5] };

describe("SWE-Judge on the question's scale", () => {
  test("a 0-4 question: ŝ/100 · 4", () => {
    // 0 → 0; 37.5 → 1.5, nearest point 2 (halves round up); 60 → 2.4 → 2; 100 → 4.
    expect(sweJudgeOnQuestion(0, zeroToFour)).toEqual({ value: 0, point: 0 });
    expect(sweJudgeOnQuestion(37.5, zeroToFour)).toEqual({ value: 1.5, point: 2 });
    expect(sweJudgeOnQuestion(60, zeroToFour).value).toBeCloseTo(2.4, 12);
    expect(sweJudgeOnQuestion(60, zeroToFour).point).toBe(2);
    expect(sweJudgeOnQuestion(100, zeroToFour)).toEqual({ value: 4, point: 4 });
  });

  test("a 1-5 question: 1 + ŝ/100 · 4", () => {
    // 0 → 1; 12.5 → 1.5 → 2; 80 → 4.2 → 4; 100 → 5.
    expect(sweJudgeOnQuestion(0, oneToFive)).toEqual({ value: 1, point: 1 });
    expect(sweJudgeOnQuestion(12.5, oneToFive)).toEqual({ value: 1.5, point: 2 });
    expect(sweJudgeOnQuestion(80, oneToFive).value).toBeCloseTo(4.2, 12);
    expect(sweJudgeOnQuestion(80, oneToFive).point).toBe(4);
    expect(sweJudgeOnQuestion(100, oneToFive)).toEqual({ value: 5, point: 5 });
  });

  test("a question of labels, or a scale with gaps, is refused; a score outside 0-100 too", () => {
    expect(() => scaleOfQuestion({ key: "high-quality", scale: ["not high-quality", "high-quality"] })).toThrow('SWE-Judge maps onto a numeric scale; question "high-quality" answers not high-quality, high-quality');
    expect(() => scaleOfQuestion({ key: "odd", scale: [1, 3, 5] })).toThrow(/numeric scale/);
    expect(() => sweJudgeOnQuestion(101, oneToFive)).toThrow(/in \[0, 100\]/);
  });
});
