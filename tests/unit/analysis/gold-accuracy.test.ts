import { describe, expect, test } from "vitest";
import { belowAccuracy, goldKey, goldScores, paceOf } from "@/lib/analysis/gold-accuracy";

describe("accuracy on gold items", () => {
  const gold = new Map<string, number | string>([
    [goldKey("r1", "grade"), 4],
    [goldKey("r2", "grade"), 2],
    [goldKey("c1", "code"), "CORRECT"],
  ]);
  const ratings = [
    { item: "r1", question: "grade", rater: "ada", value: 4 },
    { item: "r2", question: "grade", rater: "ada", value: 2 },
    { item: "c1", question: "code", rater: "ada", value: "INCORRECT" },
    { item: "r1", question: "grade", rater: "bob", value: 1 },
    // not gold: ignored
    { item: "r3", question: "grade", rater: "bob", value: 3 },
    { item: "r1", question: "relevance", rater: "bob", value: 4 },
  ];
  const scores = goldScores(ratings, gold);

  test("answered, correct, accuracy and the misses per rater", () => {
    expect(scores.get("ada")).toEqual({ rater: "ada", answered: 3, correct: 2, accuracy: 2 / 3, misses: [{ item: "c1", question: "code", value: "INCORRECT", gold: "CORRECT" }] });
    expect(scores.get("bob")).toMatchObject({ answered: 1, correct: 0, accuracy: 0 });
  });

  test("below the minimum only with an answer to judge by", () => {
    expect(belowAccuracy(scores.get("ada"), 0.8)).toBe(true);
    expect(belowAccuracy(scores.get("ada"), 0.6)).toBe(false);
    expect(belowAccuracy(undefined, 0.8)).toBe(false);
  });

  test("seconds per finished item and too-fast items", () => {
    expect(paceOf([2_000, 30_000, 4_999], 5)).toEqual({ finished: 3, meanSeconds: (2 + 30 + 4.999) / 3, tooFast: 2 });
    expect(paceOf([], 5)).toEqual({ finished: 0, meanSeconds: null, tooFast: 0 });
  });
});
