import { describe, expect, test } from "vitest";
import { describeMissing, firstMissingIndex } from "@/lib/annotation/completeness";
import { missingAnswers } from "@/lib/tasks";
import { storedValues } from "@/lib/annotation/stored-answers";
import type { TaskWorkspace } from "@/lib/tasks/types";

const DIMS = ["conciseness", "comprehensiveness", "relevance"];
const review = (id: string, label: string) => ({ id, label, text: `text of ${id}` });
const versioned = <V>(value: V) => ({ id: `row-${Math.random()}`, version: 1, value });

describe("completeness", () => {
  test("review rating names each review and the dimensions it lacks, in the annotator's order", () => {
    const task: TaskWorkspace = {
      reviewRating: {
        stage2Source: "own",
        references: [],
        reviews: ["A", "B", "C", "D", "E", "F"].map((l, i) => review(`r${i}`, `Review ${l}`)),
        ratings: {
          r0: versioned({ scores: { conciseness: 4, comprehensiveness: 3, relevance: 5 }, links: [], comment: "" }),
          r1: versioned({ scores: { conciseness: 1, comprehensiveness: 2, relevance: 3 }, links: [], comment: "" }),
          r2: versioned({ scores: { conciseness: 4, comprehensiveness: 3 }, links: [], comment: "" }),
          r3: versioned({ scores: { conciseness: 2, comprehensiveness: 2, relevance: 2 }, links: [], comment: "" }),
          r4: versioned({ scores: { conciseness: 5, comprehensiveness: 5, relevance: 5 }, links: [], comment: "" }),
          r5: versioned({ scores: { comprehensiveness: 3 }, links: [], comment: "a comment" }),
        },
      },
    };
    const missing = missingAnswers(task, storedValues(task), DIMS);
    expect(describeMissing(missing)).toBe("Review C: relevance; Review F: conciseness, relevance");
    expect(missing[0]).toEqual({ kind: "rating", targetId: "r2", label: "Review C", what: ["relevance"] });
    expect(firstMissingIndex(["r0", "r1", "r2", "r3", "r4", "r5"], missing, "rating")).toBe(2);
  });

  test("with the stage order, necessity comes first; a review without any rating lacks every dimension", () => {
    const task: TaskWorkspace = {
      reviewRating: {
        stage2Source: "consolidated",
        references: [
          { id: "p1", kind: "CLAIM", text: "a", source: "", origin: "claim" },
          { id: "p2", kind: "SMELL", text: "b", source: "pylint", origin: "smell" },
        ] as NonNullable<TaskWorkspace["reviewRating"]>["references"],
        reviews: [review("r0", "Review A")],
        ratings: {},
        necessity: { p1: versioned({ necessary: false }) },
      },
    };
    expect(describeMissing(missingAnswers(task, storedValues(task), DIMS))).toBe("Pseudo-reference 2: necessity; Review A: conciseness, comprehensiveness, relevance");
  });

  test("claims need a code, or an unnecessary mark where stage 1 asks necessity", () => {
    const claims = (askNecessity: boolean): TaskWorkspace => ({
      claimVerification: {
        references: ["c1", "c2", "c3"].map((id) => ({ id, kind: "CLAIM" as const, text: id, source: "" })),
        smells: [],
        judgements: { c1: versioned({ code: "CORRECT", necessary: null, errorType: null, note: "" }), c2: versioned({ code: null, necessary: false, errorType: null, note: "" }) },
        added: [],
        askNecessity,
      },
    });
    const asked = claims(true);
    expect(describeMissing(missingAnswers(asked, storedValues(asked), DIMS))).toBe("Claim 3: code");
    const notAsked = claims(false);
    expect(describeMissing(missingAnswers(notAsked, storedValues(notAsked), DIMS))).toBe("Claim 2: code; Claim 3: code");
    // nothing missing: the cursor opens past the end
    expect(firstMissingIndex(["c1", "c2"], missingAnswers(asked, storedValues(asked), DIMS), "judgement")).toBe(2);
  });

  test("grading and filtering: a draft with only a comment is still missing its grade or label", () => {
    const task: TaskWorkspace = { referenceGrading: { reference: null, reviews: [review("g1", "Review A"), review("g2", "Review B")], grades: { g1: versioned({ grade: 3, comment: "" }) } } };
    const drafts = new Map<string, unknown>([["grade:g2", { comment: "before the grade" }]]);
    const stored = storedValues(task);
    expect(describeMissing(missingAnswers(task, (kind, id) => drafts.get(`${kind}:${id}`) ?? stored(kind, id), DIMS))).toBe("Review B: grade");
    const filtering: TaskWorkspace = { commentFiltering: { reviews: [review("f1", "Review A")], labels: { f1: versioned({ highQuality: false, justification: "" }) } } };
    expect(missingAnswers(filtering, storedValues(filtering), DIMS)).toEqual([]);
  });

  test("a long list names the first ones and counts the rest", () => {
    const missing = Array.from({ length: 11 }, (_, i) => ({ kind: "judgement" as const, targetId: `c${i}`, label: `Claim ${i + 1}`, what: ["code"] }));
    expect(describeMissing(missing)).toBe("Claim 1: code; Claim 2: code; Claim 3: code; Claim 4: code; Claim 5: code; Claim 6: code; Claim 7: code; Claim 8: code; and 3 more");
  });
});
