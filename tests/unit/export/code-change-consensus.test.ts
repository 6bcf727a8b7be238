import { describe, expect, test } from "vitest";
import { shuffled } from "@/lib/annotation/random";
import { codeChangeConsensus, type Adjudicated } from "@/lib/export/consensus";
import type { ExportedChange, ExportedPseudoReference, ExportedReview } from "@/lib/export/rows";
import type { ClaimCode } from "@/lib/generated/prisma/enums";
import { seededRandom } from "@/lib/stats";

const study = { likertDimensions: ["conciseness", "relevance"], likertMin: 1, likertMax: 5, commentQuestions: [] };

const annotation = (annotatorId: string) => ({
  annotator: { id: annotatorId, name: annotatorId, kind: "PERSON" as const },
  createdAt: "2025-05-01T00:00:00.000Z",
  updatedAt: "2025-05-01T00:00:00.000Z",
  timeSpentMs: null,
  importedFile: null,
  importRunId: null,
  importRun: null,
});

const claim = (id: string, codes: [string, ClaimCode | null][]): ExportedPseudoReference => ({
  id,
  externalId: id,
  text: "",
  kind: "CLAIM",
  source: "",
  position: 0,
  addedBy: null,
  corrects: null,
  judgements: codes.map(([annotatorId, code]) => ({ ...annotation(annotatorId), code, necessary: null, errorType: null, note: "" })),
});

const review = (id: string, ratings: [string, unknown][], grades: [string, number][] = []): ExportedReview => ({
  id,
  externalId: id,
  system: "s",
  text: "",
  isReference: false,
  position: 0,
  ratings: ratings.map(([annotatorId, scores]) => ({ ...annotation(annotatorId), scores, comment: "", links: [] })),
  referenceGrades: grades.map(([annotatorId, grade]) => ({ ...annotation(annotatorId), annotatorId, grade, comment: "" })),
  commentFilteringLabels: [],
});

const change = (pseudoReferences: ExportedPseudoReference[], reviews: ExportedReview[], assignments: ExportedChange["assignments"] = []): ExportedChange => ({
  id: "change",
  externalId: "change",
  pullRequest: null,
  filePath: "",
  language: "python",
  diff: "",
  oldFile: "",
  newFile: "",
  metadata: {},
  position: 0,
  assignments,
  pseudoReferences,
  reviews,
  reviewComments: [],
});

const consensus = (c: ExportedChange, adjudicated: Adjudicated = new Map(), gold = new Map()) =>
  Object.fromEntries([...codeChangeConsensus(study, adjudicated, gold)(c)].map(([key, values]) => [key, Object.fromEntries(values)]));

describe("the consensus of a change's items from its page's annotations (lib/export/consensus.ts)", () => {
  test("two or more identical values agree; coded as the annotators' values are", () => {
    const c = change(
      [claim("c1", [["a", "CORRECT"], ["b", "CORRECT"], ["d", "CORRECT"]]), claim("c2", [["a", "CORRECT"], ["b", "INCORRECT"]])],
      [review("r1", [["a", { conciseness: 4, relevance: 2 }], ["b", { conciseness: 4, relevance: 3 }]], [["a", 5], ["b", 5]])],
    );
    expect(consensus(c)).toEqual({ "CLAIM_VERIFICATION:c1": { code: "1" }, "REVIEW_RATING:r1": { conciseness: "4" }, "REFERENCE_GRADING:r1": { grade: "5" } });
  });

  test("one value, missing values and values off the scale give no consensus", () => {
    const c = change(
      [claim("c1", [["a", "CORRECT"]]), claim("c2", [["a", null], ["b", null]]), claim("c3", [["a", "CORRECT"], ["b", null]])],
      [review("r1", [["a", { conciseness: 9, relevance: "4" }], ["b", { conciseness: 9, relevance: 4 }]]), review("r2", [["a", null], ["b", {}]])],
    );
    expect(consensus(c)).toEqual({});
  });

  test("a draft's value is not counted, in its own task only", () => {
    const c = change([claim("c1", [["a", "CORRECT"], ["b", "CORRECT"]])], [review("r1", [], [["a", 2], ["b", 2]])], [{ annotatorId: "b", task: "CLAIM_VERIFICATION", status: "IN_PROGRESS", completedAt: null }]);
    expect(consensus(c)).toEqual({ "REFERENCE_GRADING:r1": { grade: "2" } });
    const done = change(c.pseudoReferences, c.reviews, [{ annotatorId: "b", task: "CLAIM_VERIFICATION", status: "DONE", completedAt: null }]);
    expect(consensus(done)).toEqual({ "CLAIM_VERIFICATION:c1": { code: "1" }, "REFERENCE_GRADING:r1": { grade: "2" } });
  });

  test("the lead's adjudicated value wins, also on an item nobody rated; gold items are left out", () => {
    const c = change([claim("c1", [["a", "CORRECT"], ["b", "INCORRECT"]])], [review("r1", []), review("r2", [], [["a", 1], ["b", 1]])]);
    const adjudicated: Adjudicated = new Map([
      ["CLAIM_VERIFICATION:c1", new Map<string, string | number>([["code", "INCORRECT"]])],
      ["REVIEW_RATING:r1", new Map<string, string | number>([["relevance", 5]])],
    ]);
    expect(consensus(c, adjudicated)).toEqual({ "CLAIM_VERIFICATION:c1": { code: "0" }, "REVIEW_RATING:r1": { relevance: "5" }, "REFERENCE_GRADING:r2": { grade: "1" } });
    expect(consensus(c, adjudicated, new Map([["CLAIM_VERIFICATION", new Set(["c1"])], ["REFERENCE_GRADING", new Set(["r2"])]]))).toEqual({ "REVIEW_RATING:r1": { relevance: "5" } });
  });

  test("the order of the annotations and of the items does not matter", () => {
    const random = seededRandom(15);
    const codes: (ClaimCode | null)[] = ["CORRECT", "INCORRECT", null];
    const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)];
    for (let round = 0; round < 50; round++) {
      const annotators = ["a", "b", "d", "e"];
      const claims = Array.from({ length: 4 }, (_, i) => claim(`c${i}`, annotators.map((a): [string, ClaimCode | null] => [a, pick(codes)]).slice(0, 1 + Math.floor(random() * 4))));
      const reviews = Array.from({ length: 4 }, (_, i) => review(`r${i}`, annotators.map((a): [string, unknown] => [a, { conciseness: pick([1, 2, 9]), relevance: pick([3, 4]) }]).slice(0, 1 + Math.floor(random() * 4)), annotators.map((a): [string, number] => [a, pick([2, 3])]).slice(0, Math.floor(random() * 4))));
      const assignments = [{ annotatorId: pick(annotators), task: "REVIEW_RATING" as const, status: "IN_PROGRESS" as const, completedAt: null }];
      const reordered = change(
        shuffled(claims, random).map((r) => ({ ...r, judgements: shuffled(r.judgements, random) })),
        shuffled(reviews, random).map((r) => ({ ...r, ratings: shuffled(r.ratings, random), referenceGrades: shuffled(r.referenceGrades, random) })),
        assignments,
      );
      expect(consensus(reordered)).toEqual(consensus(change(claims, reviews, assignments)));
    }
  });
});
