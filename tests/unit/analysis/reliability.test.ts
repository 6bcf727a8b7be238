/**
 * Agreement with the consensus never counts an annotator's own answer as the consensus they
 * agree with: the lead's adjudicated value, else the unanimous value of two or more others;
 * items unanimous only with the annotator's own answer are left out and counted.
 */
import { expect, test } from "vitest";
import type { Rating } from "@/lib/agreement";
import type { Question } from "@/lib/analysis/questions";
import { annotatorReliability } from "@/lib/analysis/reliability";

const question: Question = { task: "REFERENCE_GRADING", key: "grade", label: "Grade", level: "ordinal", scale: [1, 2, 3, 4, 5], weights: "quadratic" };

const table = (rows: Record<string, Record<string, number>>): Rating[] => Object.entries(rows).flatMap(([item, byRater]) => Object.entries(byRater).map(([rater, value]) => ({ item, rater, value })));

test("two annotators: unanimous items are left out, adjudicated ones count", () => {
  const ratings = table({ i1: { a: 3, b: 3 }, i2: { a: 4, b: 4 }, i3: { a: 2, b: 5 }, i4: { a: 1, b: 2 } });
  const [a, b] = annotatorReliability(question, ratings, new Map([["i3", 2]]));
  expect(a.withConsensus).toEqual({ agree: 1, n: 1, value: 1, leftOut: 2 });
  expect(b.withConsensus).toEqual({ agree: 0, n: 1, value: 0, leftOut: 2 });
});

test("three annotators: the two others' unanimous value is the consensus; two unanimous only with one's own answer is not", () => {
  const ratings = table({
    i1: { a: 3, b: 3, c: 3 }, // everyone: for each, the other two agree
    i2: { a: 4, b: 4, c: 1 }, // for c: a and b agree on 4; for a: b and c differ; for b: a and c differ
    i3: { a: 2, b: 5 }, // no consensus for anyone
  });
  const [a, b, c] = annotatorReliability(question, ratings, new Map());
  expect(a.withConsensus).toEqual({ agree: 1, n: 1, value: 1, leftOut: 0 });
  expect(b.withConsensus).toEqual({ agree: 1, n: 1, value: 1, leftOut: 0 });
  expect(c.withConsensus).toEqual({ agree: 1, n: 2, value: 0.5, leftOut: 0 });
});

test("the only annotator with a consensus apart from their answer: none, and the reason's count", () => {
  const ratings = table({ i1: { a: 3, b: 3 }, i2: { a: 3, b: 3 } });
  expect(annotatorReliability(question, ratings, new Map()).map((r) => r.withConsensus)).toEqual([
    { agree: 0, n: 0, value: null, leftOut: 2 },
    { agree: 0, n: 0, value: null, leftOut: 2 },
  ]);
});
