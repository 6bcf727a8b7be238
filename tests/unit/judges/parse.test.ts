/** Reading scores out of model answers: bare numbers, labelled numbers, JSON, and clear errors. */
import { describe, expect, test } from "vitest";
import { GRADE_1_5, JudgeParseError, PERCENT, parseJsonScore, parseScore } from "@/lib/judges";

describe("parseScore", () => {
  test.each([
    ["4", 4],
    ["  3\n", 3],
    ["Grade=4", 4],
    ["Grade: 2.", 2],
    ["**Score:** 5", 5],
    ["The grade is 3", 3],
    ["I would give it a 4 out of 5.", 4],
    ["4.0", 4],
    ["Criteria 1-5 apply; grade: 2", 2],
    ['Criteria 1 to 5 considered. {"grade": 4}', 4],
  ])("1-5: %j → %d", (text, expected) => {
    expect(parseScore(text, GRADE_1_5)).toBe(expected);
  });

  test.each([
    ["85", 85],
    ["Score: 72.5/100", 72.5],
    ["0", 0],
    ["100%", 100],
    ["Strategy P1a with gpt-4o: 60", 60],
  ])("0-100: %j → %d", (text, expected) => {
    expect(parseScore(text, PERCENT)).toBe(expected);
  });

  test("an answer naming several numbers is refused, not mined for one in range (GradedReviews rule 4)", () => {
    expect(() => parseScore("The review mentions 2 issues; I rate it 4", GRADE_1_5)).toThrow("several numbers");
    expect(() => parseScore("Grade: 7 is impossible, so 2", GRADE_1_5)).toThrow(JudgeParseError);
    expect(() => parseScore("Grade: 3. Actually, grade: 4", GRADE_1_5)).toThrow("several scores");
    expect(() => parseScore("3 or 4", GRADE_1_5)).toThrow(JudgeParseError);
  });

  test("numbers inside words, halves and negatives are not grades", () => {
    expect(() => parseScore("gpt4o says 4.5", GRADE_1_5)).toThrow(JudgeParseError);
    expect(() => parseScore("Grade: -1", GRADE_1_5)).toThrow(JudgeParseError);
    expect(() => parseScore("v2 of P3", GRADE_1_5)).toThrow(JudgeParseError);
  });

  test("unparseable answers name the expected range and keep the raw text", () => {
    const error = (() => {
      try {
        parseScore("I cannot grade this review.", GRADE_1_5);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(JudgeParseError);
    expect((error as JudgeParseError).message).toBe('expected an integer from 1 to 5, got "I cannot grade this review."');
    expect((error as JudgeParseError).output).toBe("I cannot grade this review.");
    expect(() => parseScore("150", PERCENT)).toThrow("expected a number from 0 to 100");
  });
});

describe("parseJsonScore", () => {
  test("JSON, fenced JSON, JSON after prose, string scores, 'grade' for 'score'", () => {
    expect(parseJsonScore('{"score": 70, "reason": "Same issue."}', PERCENT)).toEqual({ score: 70, reason: "Same issue." });
    expect(parseJsonScore('```json\n{"score": 55}\n```', PERCENT)).toEqual({ score: 55, reason: null });
    expect(parseJsonScore('Here you go: {"reason": "x", "score": "40"}', PERCENT)).toEqual({ score: 40, reason: "x" });
    expect(parseJsonScore('{"grade": 3}', GRADE_1_5)).toEqual({ score: 3, reason: null });
  });

  test("without a usable object the free-text rule applies", () => {
    expect(parseJsonScore("Score: 80 because it is right", PERCENT)).toEqual({ score: 80, reason: null });
    expect(parseJsonScore('{"score": ""} but really 30', PERCENT)).toEqual({ score: 30, reason: null });
    expect(() => parseJsonScore('{"score": 150}', PERCENT)).toThrow(JudgeParseError);
    expect(() => parseJsonScore("{broken", PERCENT)).toThrow(JudgeParseError);
  });
});
