import { describe, expect, test } from "vitest";
import { csvLine } from "@/lib/export/csv";
import type { ParseResult } from "@/lib/import/parser";
import { claimErrorTypeOf } from "@/lib/import/claim-codes";
import { parseCrscorePhase1 } from "@/lib/import/crscore-phase1";
import { parseCrscorePhase2 } from "@/lib/import/crscore-phase2";
import { ErrorCollector } from "@/lib/import/errors";
import { DEFAULT_LIKERT } from "@/lib/import/parser";

const PHASE1_HEADER = ["id", "index", "diff", "claim", "Correctness\n0 - incorrect\n1 - correct\n-1 - unverifiable\n-2 - incomplete", "based on diff", "additional claims", "error type", "old_file", "new_file"];
const PHASE2_HEADER = ["id", "index", "diff", "claim_no", "claim", "necessary?", "type", "review", "system", "claims addressed", "Con (P)", "Comp (R)", "Rel (F)", "old_file", "new_file"];

const sheet = (rows: string[][]) => Buffer.from(rows.map((row) => csvLine(row, { raw: true })).join(""));
const context = new Map([
  ["test7_old.py", "x = 1\n"],
  ["test7_new.py", "x = 2\n"],
]);

function parse(parser: typeof parseCrscorePhase1, name: string, rows: string[][]) {
  const errors = new ErrorCollector();
  const result = parser({ name, content: sheet(rows) }, { likert: DEFAULT_LIKERT, context }, errors) as ParseResult;
  return { bundle: result.bundle, errors: errors.errors };
}

const phase1 = [
  PHASE1_HEADER,
  ["101.0", "7", "@@ -1 +1 @@\n-x = 1\n+x = 2", "x changes from 1 to 2.", "1", "", "", "", "test7_old.py", "test7_new.py"],
  ["", "", "", "x is now a string.", "0", "", "x is now 2.", "comprehension error", "", ""],
  ["", "", "", "The change fixes a bug.", "-1", "1", "", "context error", "", ""],
];

describe("crscore-phase1", () => {
  test("an annotator's sheet: claims, judgements, a correction, error types and notes", () => {
    const { bundle, errors } = parse(parseCrscorePhase1, "py_claim_acc_annot_marcus.csv", phase1);
    expect(errors).toEqual([]);
    const [change] = bundle.codeChanges;
    expect(change).toMatchObject({ externalId: "101", language: "python", oldFile: "x = 1\n", newFile: "x = 2\n", metadata: { index: 7 } });
    const [first, second, added, third] = change.pseudoReferences;
    expect(change.pseudoReferences.map((r) => r.kind)).toEqual(["CLAIM", "CLAIM", "ANNOTATOR_ADDED", "CLAIM"]);
    expect(first.judgements[0]).toMatchObject({ annotator: { name: "marcus" }, code: "CORRECT", errorType: null, note: null });
    expect(second.judgements[0]).toMatchObject({ code: "INCORRECT", errorType: "COMPREHENSION" });
    expect(added).toMatchObject({ text: "x is now 2.", addedBy: { name: "marcus" }, corrects: second.externalId, source: "marcus" });
    expect(third.judgements[0]).toMatchObject({ code: "UNVERIFIABLE", errorType: null, note: "based on diff: 1\nerror type: context error" });
  });

  test("the blank template imports the claims only", () => {
    const template = phase1.map((row, i) => (i === 0 ? row : row.map((cell, c) => ([4, 5, 6, 7].includes(c) ? "" : cell))));
    const { bundle, errors } = parse(parseCrscorePhase1, "py_claim_acc_annot.csv", template);
    expect(errors).toEqual([]);
    expect(bundle.codeChanges[0].pseudoReferences.flatMap((r) => r.judgements)).toEqual([]);
  });

  test("judgements in a sheet without an annotator name are refused", () => {
    const { errors } = parse(parseCrscorePhase1, "claims.csv", phase1);
    expect(errors).toEqual([{ file: "claims.csv", row: 2, line: 6, field: "Correctness", message: expect.stringMatching(/names no annotator/) }]);
  });

  test("a block whose code change is refused still has its claims checked: both problems in one run", () => {
    const bad = phase1.map((row) => [...row]);
    bad[1][8] = "test7_old.txt";
    bad[1][9] = "test7_new.txt";
    bad[2][4] = "7";
    const { bundle, errors } = parse(parseCrscorePhase1, "claim_acc_annot_marcus.csv", bad);
    expect(bundle.codeChanges).toEqual([]);
    expect(errors.map((e) => [e.row, e.field])).toEqual([
      [2, "new_file"],
      [3, "Correctness"],
    ]);
  });

  test("error types of CRScore Table 12", () => {
    expect(claimErrorTypeOf("comprehension error")).toBe("COMPREHENSION");
    expect(claimErrorTypeOf("Over-generalization")).toBe("OVER_GENERALIZATION");
    expect(claimErrorTypeOf("localization error, comprehension error")).toBeNull();
    expect(claimErrorTypeOf("context error")).toBeNull();
  });
});

describe("crscore-phase2", () => {
  const rows = [
    PHASE2_HEADER,
    ["101", "7", "@@ -1 +1 @@", "1", "x changes from 1 to 2.", "1", "claim", "Why 2?", "gpt3.5_pred", "1", "4", "2", "3", "test7_old.py", "test7_new.py"],
    ["", "", "", "2", "x is now 2.", "0", "", "x should stay 1.", "msg", "-", "5", "1", "1", "", ""],
    ["", "", "", "3", "Unused import os.", "", "issue", "", "knn_pred", "1,3", "1", "1", "1", "", ""],
  ];

  test("restated pseudo-references keyed like phase 1, links, Likert scores, the reference review", () => {
    const { bundle, errors } = parse(parseCrscorePhase2, "py_atharva_review_qual_final.csv", rows);
    expect(errors).toEqual([]);
    const claims = parse(parseCrscorePhase1, "py_claim_acc_annot_marcus.csv", phase1).bundle.codeChanges[0].pseudoReferences;
    const [change] = bundle.codeChanges;
    const [claim, added, smell] = change.pseudoReferences;
    expect(claim.externalId).toBe(claims[0].externalId);
    expect(added.externalId).toBe(claims[2].externalId);
    expect(change.pseudoReferences.map((r) => [r.kind, r.restated, r.position])).toEqual([
      ["CLAIM", true, 1],
      ["ANNOTATOR_ADDED", true, 2],
      ["SMELL", true, 3],
    ]);
    expect(added.judgements).toMatchObject([{ annotator: { name: "atharva" }, necessary: false, code: null }]);
    expect(change.reviews.map((r) => [r.system, r.isReference])).toEqual([
      ["gpt3.5_pred", false],
      ["msg", true],
      ["knn_pred", false],
    ]);
    expect(change.reviews[0].ratings[0]).toMatchObject({ scores: { conciseness: 4, comprehensiveness: 2, relevance: 3 }, addresses: [claim.externalId], partiallyAddresses: [] });
    expect(change.reviews[1].ratings[0].addresses).toEqual([]);
    expect(change.reviews[2].ratings[0].addresses).toEqual([claim.externalId, smell.externalId]);
  });

  test("a sheet saved by pandas, whose integer columns with blank cells are floats (1.0, 4.0), reads as the original", () => {
    const integers = [0, 1, 3, 5, 10, 11, 12];
    const floats = rows.map((row, r) => (r === 0 ? row : row.map((cell, c) => (integers.includes(c) && /^-?\d+$/.test(cell) ? `${cell}.0` : cell))));
    expect(floats[1].slice(0, 6)).toEqual(["101.0", "7.0", "@@ -1 +1 @@", "1.0", "x changes from 1 to 2.", "1.0"]);
    const original = parse(parseCrscorePhase2, "py_atharva_review_qual_final.csv", rows);
    const saved = parse(parseCrscorePhase2, "py_atharva_review_qual_final.csv", floats);
    expect(saved.errors).toEqual([]);
    expect(saved.bundle).toEqual(original.bundle);
  });

  test("out-of-range scores, unknown claims and bad flags name row and column", () => {
    const bad = rows.map((row) => [...row]);
    bad[1][10] = "6";
    bad[2][9] = "4";
    bad[3][5] = "yes";
    const { errors } = parse(parseCrscorePhase2, "py_atharva_review_qual_final.csv", bad);
    expect(errors.map((e) => [e.row, e.field, e.message])).toEqual([
      [4, "necessary?", '"yes" is not a necessity flag; expected 1 (necessary), 0 (unnecessary) or blank'],
      [2, "Con (P)", "6 is not a score from 1 to 5"],
      [3, "claims addressed", "claim 4 is not listed for this code change (claims 1, 2, 3)"],
    ]);
  });
});
