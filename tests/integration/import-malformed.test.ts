/**
 * Malformed files, generated here in a temporary folder: each import is refused with the
 * expected error (file, line or row, field, message) and writes nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { createClient } from "@/lib/db/client";
import { csvLine } from "@/lib/export/csv";
import { type ImportError, type ImportFormat } from "@/lib/import";
import { runImport } from "@/lib/data/imports";
import { countRows, fileAt, imported } from "./import-fixtures";

const PHASE1_HEADER = ["id", "index", "diff", "claim", "Correctness\n0 - incorrect\n1 - correct\n-1 - unverifiable\n-2 - incomplete", "based on diff", "additional claims", "error type", "old_file", "new_file"];
const PHASE1_ROWS = [
  ["501", "9", "@@ -1 +1 @@\n-a = 1\n+a = 2", "a changes from 1 to 2.", "1", "", "", "", "test9_old.py", "test9_new.py"],
  ["", "", "", "a is a constant.", "0", "", "", "", "", ""],
  ["502", "10", "@@ -3 +3 @@\n-b()\n+c()", "b() is replaced by c().", "-1", "", "", "", "test10_old.py", "test10_new.py"],
];
const PHASE2_HEADER = ["id", "index", "diff", "claim_no", "claim", "necessary?", "type", "review", "system", "claims addressed", "Con (P)", "Comp (R)", "Rel (F)", "old_file", "new_file"];
const PHASE2_ROWS = [
  ["501", "9", "@@ -1 +1 @@\n-a = 1\n+a = 2", "1", "a changes from 1 to 2.", "1", "claim", "Why 2?", "gpt3.5_pred", "1", "4", "2", "3", "test9_old.py", "test9_new.py"],
  ["", "", "", "2", "a is a constant.", "0", "claim", "Looks fine.", "msg", "-", "2", "1", "1", "", ""],
];
const GRADED_HEADER = ["ID", "groundTruth", "relatedCode", "Tufano's", "Grade", "commentFinder", "Grade.1", "Auger", "Grade.2", "LLaMA-Reviewer", "Grade.3"];
const GRADED_ROWS: (string | number)[][] = [
  [1, "Rename this variable.", "code2comment :int x = 1;", "Why x?", 2, "ok", 1, "Rename x.", 4, "Nice.", 1],
  [2, "Check for null.", "code2comment :s.length()", "Can s be null?", 4, "Typo.", 1, "Add a test.", 1, "LGTM", 1],
];

const csv = (header: string[], rows: string[][]) => Buffer.from([header, ...rows].map((row) => csvLine(row, { raw: true })).join(""));
const edited = (rows: string[][], row: number, column: number, value: string) => rows.map((r, i) => (i === row ? r.map((c, k) => (k === column ? value : c)) : r));
/** The file cut before the last `marker`, as a failed download or copy leaves it. */
function truncated(content: Buffer, marker: string): Buffer {
  const at = content.lastIndexOf(marker);
  if (at < 0) throw new Error(`"${marker}" is not in the file`);
  return content.subarray(0, at);
}
const jsonl = (...lines: unknown[]) => Buffer.from(lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
const line = (extra: Record<string, unknown> = {}) => ({ id: "c1", language: "python", diff: "@@ -1 +1 @@\n-a\n+b", ...extra });
const review = (extra: Record<string, unknown>) => ({ id: "r1", system: "gpt", text: "Why?", ...extra });

/** A workbook whose sheets (one name or several) each hold the header and rows. */
async function workbook(sheetNames: string | string[], header: string[], rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const name of [sheetNames].flat()) {
    const sheet = book.addWorksheet(name);
    [header, ...rows].forEach((r) => sheet.addRow(r));
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

interface Case {
  name: string;
  format: ImportFormat;
  file: string;
  content: () => Buffer | Promise<Buffer>;
  annotator?: string;
  context?: boolean;
  expected: Omit<Partial<ImportError>, "message"> & { message: RegExp };
}

const CONTEXT = new Map([
  ["test9_old.py", "a = 1\n"],
  ["test9_new.py", "a = 2\n"],
  ["test10_old.py", "b()\n"],
  ["test10_new.py", "c()\n"],
]);

const CASES: Case[] = [
  { name: "truncated JSONL line", format: "jsonl", file: "truncated.jsonl", content: () => truncated(jsonl(line(), line({ id: "c2" })), 'thon","diff"'), expected: { line: 2, message: /^not valid JSON .*truncated$/ } },
  { name: "JSONL line without its diff", format: "jsonl", file: "no-diff.jsonl", content: () => jsonl({ id: "c1", language: "python" }), expected: { line: 1, field: "diff", message: /expected string, received undefined/ } },
  { name: "JSONL with a misspelt key", format: "jsonl", file: "typo.jsonl", content: () => jsonl(line({ reviwes: [] })), expected: { line: 1, message: /Unrecognized key: "reviwes"/ } },
  { name: "JSONL with a duplicate code change id", format: "jsonl", file: "dup-change.jsonl", content: () => jsonl(line(), line()), expected: { line: 2, field: "id", message: /^code change "c1" is already on line 1$/ } },
  { name: "JSONL with duplicate review ids", format: "jsonl", file: "dup-review.jsonl", content: () => jsonl(line({ reviews: [review({}), review({})] })), expected: { line: 1, field: "reviews[1].id", message: /^id "r1" is already used by reviews\[0\]$/ } },
  { name: "JSONL Likert score out of range", format: "jsonl", file: "likert.jsonl", content: () => jsonl(line({ reviews: [review({ ratings: [{ annotator: "ada", scores: { conciseness: 7 } }] })] })), expected: { line: 1, field: "reviews[0].ratings[0].scores.conciseness", message: /^7 is not a score from 1 to 5$/ } },
  { name: "JSONL grade out of range", format: "jsonl", file: "grade.jsonl", content: () => jsonl(line({ reviews: [review({ grades: [{ annotator: "ada", grade: 0 }] })] })), expected: { line: 1, field: "reviews[0].grades[0].grade", message: />=1/ } },
  { name: "JSONL bad claim code", format: "jsonl", file: "code.jsonl", content: () => jsonl(line({ pseudoReferences: [{ id: "p1", text: "t", kind: "CLAIM", judgements: [{ annotator: "ada", code: "MAYBE" }] }] })), expected: { line: 1, field: "pseudoReferences[0].judgements[0].code", message: /CORRECT/ } },
  { name: "JSONL link to an unknown pseudo-reference", format: "jsonl", file: "link.jsonl", content: () => jsonl(line({ reviews: [review({ ratings: [{ annotator: "ada", scores: {}, addresses: ["p9"] }] })] })), expected: { line: 1, field: "reviews[0].ratings[0].addresses", message: /no pseudo-reference "p9"/ } },
  { name: "empty file", format: "jsonl", file: "empty.jsonl", content: () => Buffer.from("\n  \n"), expected: { message: /^the file is empty$/ } },
  { name: "UTF-16 file", format: "jsonl", file: "utf16.jsonl", content: () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(line()), "utf16le")]), expected: { line: 1, message: /UTF-16/ } },
  { name: "Latin-1 sheet (wrong encoding)", format: "crscore-phase1", file: "py_claim_acc_annot_ada.csv", content: () => Buffer.concat([csv(PHASE1_HEADER, PHASE1_ROWS), Buffer.from("503,11,x,caf"), Buffer.from([0xe9]), Buffer.from(",1,,,,a.py,b.py\n")]), expected: { line: 13, message: /not valid UTF-8 \(byte 0xE9/ } },
  { name: "phase-1 sheet without the claim column", format: "crscore-phase1", file: "py_claim_acc_annot_ada.csv", content: () => csv(PHASE1_HEADER.map((h) => (h === "claim" ? "claims" : h)), PHASE1_ROWS), expected: { row: 1, field: "header", message: /^missing column "claim"; the header has "id", "index", "diff", "claims", "Correctness"/ } },
  { name: "phase-1 code outside the codebook", format: "crscore-phase1", file: "py_claim_acc_annot_ada.csv", content: () => csv(PHASE1_HEADER, edited(PHASE1_ROWS, 1, 4, "3")), expected: { row: 3, field: "Correctness", message: /^"3" is not a claim code; expected 1 \(correct\), 0 \(incorrect\), -1 \(unverifiable\), -2 \(incomplete\) or 2 \(ambiguous\)$/ } },
  { name: "phase-1 block without its id", format: "crscore-phase1", file: "py_claim_acc_annot_ada.csv", content: () => csv(PHASE1_HEADER, [["", "", "", "orphan claim", "1", "", "", "", "", ""], ...PHASE1_ROWS]), expected: { row: 2, field: "id", message: /must carry its CodeReviewer id/ } },
  { name: "phase-1 change split over two blocks (duplicate id)", format: "crscore-phase1", file: "py_claim_acc_annot_ada.csv", content: () => csv(PHASE1_HEADER, edited(edited(PHASE1_ROWS, 2, 0, "501"), 2, 1, "9")), expected: { row: 4, field: "id", message: /^code change 501 \(index 9\) already starts on row 2/ } },
  { name: "phase-1 context file missing", format: "crscore-phase1", file: "py_claim_acc_annot_ada.csv", context: true, content: () => csv(PHASE1_HEADER, edited(PHASE1_ROWS, 2, 8, "test11_old.py")), expected: { row: 4, field: "old_file", message: /^context file "test11_old.py" is not in the context folder$/ } },
  { name: "huge cell", format: "crscore-phase1", file: "py_claim_acc_annot_ada.csv", content: () => csv(PHASE1_HEADER, edited(PHASE1_ROWS, 1, 3, "x".repeat(1_200_000))), expected: { row: 3, field: "claim", message: /^cell has 1,200,000 characters; at most 1,000,000 are accepted$/ } },
  { name: "row with a missing cell", format: "crscore-phase1", file: "py_claim_acc_annot_ada.csv", content: () => csv(PHASE1_HEADER, PHASE1_ROWS.map((r, i) => (i === 1 ? r.slice(0, 9) : r))), expected: { row: 3, message: /^expected 10 cells as in the header, found 9$/ } },
  { name: "judgements in a sheet that names no annotator", format: "crscore-phase1", file: "claims.csv", content: () => csv(PHASE1_HEADER, PHASE1_ROWS), expected: { row: 2, field: "Correctness", message: /names no annotator; pass --annotator NAME or name the file like py_claim_acc_annot_NAME\.csv$/ } },
  { name: "phase-2 ratings in a sheet that names no annotator: the phase-2 file pattern", format: "crscore-phase2", file: "ratings.csv", content: () => csv(PHASE2_HEADER, PHASE2_ROWS), expected: { row: 2, field: "claims addressed", message: /names no annotator; pass --annotator NAME or name the file like py_NAME_review_qual_final\.csv$/ } },
  { name: "phase-2 Likert score out of range", format: "crscore-phase2", file: "py_ada_review_qual_final.csv", content: () => csv(PHASE2_HEADER, edited(PHASE2_ROWS, 0, 10, "6")), expected: { row: 2, field: "Con (P)", message: /^6 is not a score from 1 to 5$/ } },
  { name: "phase-2 score missing", format: "crscore-phase2", file: "py_ada_review_qual_final.csv", content: () => csv(PHASE2_HEADER, edited(PHASE2_ROWS, 1, 11, "")), expected: { row: 3, field: "Comp (R)", message: /the score is missing/ } },
  { name: "phase-2 link to a claim not listed", format: "crscore-phase2", file: "py_ada_review_qual_final.csv", content: () => csv(PHASE2_HEADER, edited(PHASE2_ROWS, 0, 9, "1,7")), expected: { row: 2, field: "claims addressed", message: /^claim 7 is not listed for this code change \(claims 1, 2\)$/ } },
  { name: "phase-2 unknown pseudo-reference type", format: "crscore-phase2", file: "py_ada_review_qual_final.csv", content: () => csv(PHASE2_HEADER, edited(PHASE2_ROWS, 1, 6, "bug")), expected: { row: 3, field: "type", message: /^"bug" is not a pseudo-reference type/ } },
  { name: "phase-2 truncated file (unclosed quote)", format: "crscore-phase2", file: "py_ada_review_qual_final.csv", content: () => truncated(csv(PHASE2_HEADER, PHASE2_ROWS), "+a = 2"), expected: { row: 2, message: /^a quoted cell of this row is never closed before the end of the file/ } },
  { name: "workbook whose sheets are all others", format: "gradedreviews", file: "graded.xlsx", content: () => workbook(["Sheet1", "Sheet2"], GRADED_HEADER, GRADED_ROWS), expected: { field: "sheet", message: /^no sheet named "工作表1"; the workbook has "Sheet1", "Sheet2"$/ } },
  { name: "workbook without relatedCode", format: "gradedreviews", file: "graded.xlsx", content: () => workbook("工作表1", GRADED_HEADER.filter((h) => h !== "relatedCode"), GRADED_ROWS.map((r) => r.filter((_, i) => i !== 2))), expected: { row: 1, field: "header", message: /^missing column "relatedCode"/ } },
  { name: "grade that is not a number", format: "gradedreviews", file: "graded.xlsx", content: () => workbook("工作表1", GRADED_HEADER, [GRADED_ROWS[0], GRADED_ROWS[1].map((c, i) => (i === 6 ? "good" : c))]), expected: { row: 3, field: "Grade.1 (commentFinder)", message: /^"good" is not a grade from 1 to 5$/ } },
  { name: "duplicate workbook ID", format: "gradedreviews", file: "graded.xlsx", content: () => workbook("工作表1", GRADED_HEADER, [GRADED_ROWS[0], GRADED_ROWS[1].map((c, i) => (i === 0 ? 1 : c))]), expected: { row: 3, field: "ID", message: /^ID 1 is already used on row 2$/ } },
  { name: "a CSV file of another table given as a GradedReviews file", format: "gradedreviews", file: "graded.xlsx", content: () => csv(PHASE1_HEADER, PHASE1_ROWS), expected: { row: 1, field: "header", message: /^missing columns "groundTruth", "relatedCode"; the header has "id", "index", "diff"/ } },
  { name: "an .xls workbook", format: "gradedreviews", file: "graded.xls", content: () => Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), expected: { message: /^an \.xls workbook \(Excel 97-2003\), which is not read: save it as \.xlsx or as CSV$/ } },
];

describe("malformed files are refused with a specific error and write nothing", () => {
  const client = createClient(inject("databaseUrl"));
  const dir = mkdtempSync(path.join(tmpdir(), "crjudge-malformed-"));
  let before: Record<string, number>;
  beforeAll(async () => {
    before = await countRows(client);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await client.$disconnect();
  });

  test.each(CASES.map((c, i) => [c.name, i] as const))("%s", async (_name, i) => {
    const c = CASES[i];
    const file = path.join(dir, `${i}-${c.file}`);
    writeFileSync(file, await c.content());
    const result = await runImport({ study: `malformed-${i}`, format: c.format, files: [{ ...fileAt(file), name: c.file }], annotator: c.annotator, context: c.context ? CONTEXT : undefined }, client);
    expect(result.status).toBe("refused");
    const errors = result.status === "refused" ? result.errors : [];
    expect(errors[0]).toMatchObject({ file: c.file, ...c.expected, message: expect.stringMatching(c.expected.message) });
    expect(await countRows(client)).toEqual(before);
  });

  test("the same files without the defect import (the cases test one defect each)", async () => {
    const good: [ImportFormat, string, Buffer][] = [
      ["jsonl", "ok.jsonl", jsonl(line({ reviews: [review({ ratings: [{ annotator: "ada", scores: { conciseness: 3 } }], grades: [{ annotator: "ada", grade: 2 }] })] }))],
      ["crscore-phase1", "py_claim_acc_annot_ada.csv", csv(PHASE1_HEADER, PHASE1_ROWS)],
      ["crscore-phase2", "py_ada_review_qual_final.csv", csv(PHASE2_HEADER, PHASE2_ROWS)],
      ["gradedreviews", "graded.xlsx", await workbook("工作表1", GRADED_HEADER, GRADED_ROWS)],
    ];
    for (const [format, name, content] of good) imported(await runImport({ study: "malformed-controls", format, files: [{ name, content }], context: format === "crscore-phase1" ? CONTEXT : undefined }, client));
  });

  test("every error of a file is reported at once, up to 50", async () => {
    const rows = Array.from({ length: 80 }, (_, i) => [String(600 + i), "1", "d", `claim ${i}`, "7", "", "", "", "a.py", "b.py"]);
    const result = await runImport({ study: "malformed-many", format: "crscore-phase1", files: [{ name: "py_claim_acc_annot_ada.csv", content: csv(PHASE1_HEADER, rows) }] }, client);
    expect(result.status === "refused" && [result.errors.length, result.totalErrors]).toEqual([50, 80]);
  });

  test("an invalid study slug is refused", async () => {
    const result = await runImport({ study: "Not A Slug", format: "jsonl", files: [{ name: "ok.jsonl", content: jsonl(line()) }] }, client);
    expect(result).toMatchObject({ status: "refused", errors: [{ field: "study", message: expect.stringMatching(/lowercase letters/) }] });
  });
});
