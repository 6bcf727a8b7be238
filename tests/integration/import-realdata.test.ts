/**
 * Real study data as it is, with small files written here modelled on the released
 * sheets: a CodeReviewer id used for two changes, claims written differently in two sheets.
 */
import ExcelJS from "exceljs";
import { afterAll, describe, expect, inject, test } from "vitest";
import { createClient } from "@/lib/db/client";
import { csvLine } from "@/lib/export/csv";
import { type ImportFormat } from "@/lib/import";
import { runImport } from "@/lib/data/imports";
import { studyReviewOrder } from "@/lib/data/reviews-to-score";
import { parseItemFile } from "@/lib/analysis";
import { agreementReport } from "@/lib/data/reports";
import { imported } from "./import-fixtures";

const PHASE1_HEADER = ["id", "index", "diff", "claim", "Correctness\n0 - incorrect\n1 - correct\n-1 - unverifiable\n-2 - incomplete", "based on diff", "additional claims", "old_file", "new_file"];
const csv = (header: string[], rows: string[][]) => Buffer.from([header, ...rows].map((row) => csvLine(row, { raw: true })).join(""));
const PHASE2_HEADER = ["id", "index", "diff", "claim_no", "claim", "necessary?", "type", "review", "system", "claims addressed", "Con (P)", "Comp (R)", "Rel (F)", "old_file", "new_file"];
const GRADED_HEADER = ["ID", "groundTruth", "relatedCode", "Tufano's", "Grade", "commentFinder", "Grade.1", "Auger", "Grade.2", "LLaMA-Reviewer", "Grade.3"];

async function workbook(rows: ExcelJS.CellValue[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("工作表1");
  [GRADED_HEADER, ...rows].forEach((r) => sheet.addRow(r));
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe("real study data", () => {
  const client = createClient(inject("databaseUrl"));
  afterAll(() => client.$disconnect());
  const load = (study: string, format: ImportFormat, name: string, content: Buffer, extra: { update?: boolean } = {}) => runImport({ study, format, files: [{ name, content }], ...extra }, client);

  test("a CodeReviewer id with two indexes is two code changes, and the summary says so", async () => {
    const rows = [
      ["12872", "2830", "@@ -1 +1 @@\n-a\n+b", "a becomes b.", "1", "", "", "test2830_old.js", "test2830_new.js"],
      ["", "", "", "b is new.", "0", "", "", "", ""],
      ["12872", "7055", "@@ -4 +4 @@\n-x()\n+y()", "x() is renamed to y().", "1", "", "", "test7055_old.js", "test7055_new.js"],
    ];
    const summary = imported(await load("js-ids", "crscore-phase1", "js_claim_acc_annot_ada.csv", csv(PHASE1_HEADER, rows)));
    expect(summary.counts.codeChanges.created).toBe(2);
    expect(summary.separatedChanges).toEqual([expect.stringMatching(/CodeReviewer id 12872 names 2 different code changes \(index 2830 on row 2, index 7055 on row 4\); imported as 12872@2830, 12872@7055/)]);
    const changes = await client.codeChange.findMany({ where: { study: { slug: "js-ids" } }, orderBy: { position: "asc" }, select: { externalId: true, language: true, metadata: true, _count: { select: { pseudoReferences: true } } } });
    expect(changes).toEqual([
      { externalId: "12872@2830", language: "javascript", metadata: { index: 2830 }, _count: { pseudoReferences: 2 } },
      { externalId: "12872@7055", language: "javascript", metadata: { index: 7055 }, _count: { pseudoReferences: 1 } },
    ]);
    // Re-importing changes nothing.
    const again = imported(await load("js-ids", "crscore-phase1", "js_claim_acc_annot_ada.csv", csv(PHASE1_HEADER, rows)));
    expect(again.counts.codeChanges).toEqual({ created: 0, updated: 0, unchanged: 2 });
  });

  test("a study holding the id for one change separates a file's change with another index", async () => {
    const first = [["300", "1", "@@ -1 +1 @@\n-a\n+b", "a becomes b.", "", "", "", "t1_old.py", "t1_new.py"]];
    const other = [["300", "2", "@@ -9 +9 @@\n-c\n+d", "c becomes d.", "", "", "", "t2_old.py", "t2_new.py"]];
    imported(await load("py-ids", "crscore-phase1", "py_claim_acc_annot.csv", csv(PHASE1_HEADER, first)));
    const summary = imported(await load("py-ids", "crscore-phase1", "py_claim_acc_annot.csv", csv(PHASE1_HEADER, other)));
    expect(summary.counts.codeChanges.created).toBe(1);
    expect(summary.separatedChanges).toEqual([expect.stringMatching(/code change 300 of the study has index 1, this one index 2: imported as 300@2/)]);
    expect((await client.codeChange.findMany({ where: { study: { slug: "py-ids" } }, orderBy: { externalId: "asc" } })).map((c) => c.externalId)).toEqual(["300", "300@2"]);
  });

  test('a claim written "3." in the template and "3" in a sheet is one claim, and the normalization is reported', async () => {
    const template = [["400", "5", "@@ -1 +1 @@\n-v = 2\n+v = 3", "v is set to 3.", "", "", "", "t5_old.py", "t5_new.py"], ["", "", "", "1. v is an int.", "", "", "", "", ""]];
    const sheet = [["400", "5", "@@ -1 +1 @@\n-v = 2\n+v = 3", "v is set to 3", "1", "", "", "t5_old.py", "t5_new.py"], ["", "", "", "v  is an int.", "0", "", "", "", ""]];
    imported(await load("claims-3", "crscore-phase1", "py_claim_acc_annot.csv", csv(PHASE1_HEADER, template)));
    const summary = imported(await load("claims-3", "crscore-phase1", "py_claim_acc_annot_ada.csv", csv(PHASE1_HEADER, sheet)));
    expect(summary.counts.pseudoReferences).toEqual({ created: 0, updated: 0, unchanged: 2 });
    expect(summary.claimNormalizations).toEqual([
      expect.stringMatching(/row 2 \(line \d+\): claim "v is set to 3" is the study's claim "v is set to 3\." \(trailing punctuation ignored\)/),
      expect.stringMatching(/row 3 \(line \d+\): claim "v {2}is an int\." is the study's claim "1\. v is an int\." \(whitespace, list numbering ignored\)/),
    ]);
    const claims = await client.pseudoReference.findMany({ where: { codeChange: { study: { slug: "claims-3" } } }, orderBy: { position: "asc" }, select: { text: true, judgements: { select: { code: true } } } });
    expect(claims).toEqual([
      { text: "v is set to 3.", judgements: [{ code: "CORRECT" }] },
      { text: "1. v is an int.", judgements: [{ code: "INCORRECT" }] },
    ]);
  });

  test("an Excel error value is not text: the review is imported as missing, keeps its grade, and no metric run scores it", async () => {
    const rows: ExcelJS.CellValue[][] = [
      [850, "Use a constant.", "code2comment :int x = 1;", { error: "#VALUE!" } as ExcelJS.CellErrorValue, 1, "Why?", 2, "#N/A", 1, "Use a constant here.", 4],
      [851, "Check null.", "code2comment :s.length()", "Null?", 3, "ok", 1, "Add test.", 1, "LGTM", 1],
    ];
    const summary = imported(await load("excel-errors", "gradedreviews", "dataset.xlsx", await workbook(rows)));
    expect(summary.warnings).toEqual(
      expect.arrayContaining([
        "dataset.xlsx: row 2: Tufano's: the Excel error value #VALUE! is read as missing",
        "dataset.xlsx: row 2: Auger: the Excel error value #N/A is read as missing",
        expect.stringMatching(/^dataset\.xlsx: row 2: Tufano's: the review text is missing; the review is imported as missing \(its grade is kept/),
      ]),
    );
    const tufano = await client.review.findFirstOrThrow({ where: { codeChange: { study: { slug: "excel-errors" }, externalId: "850" }, system: "Tufano's" }, include: { referenceGrades: true } });
    expect(tufano.text).toBe("");
    expect(tufano.referenceGrades.map((g) => g.grade)).toEqual([1]);
    const order = await studyReviewOrder(summary.study.id);
    expect(order).toHaveLength(10 - 2);
    expect(order.map((r) => r.id)).not.toContain(tufano.id);
  });

  test("a hunk whose counts do not match its lines is an error naming the diff line, or is rebuilt from the old and new files", async () => {
    const rows = [["700", "3", "@@ -1,2 +1,2 @@\n-a = 1\n+a = 2", "a becomes 2.", "", "", "", "test3_old.py", "test3_new.py"]];
    const refused = await load("bad-hunk", "crscore-phase1", "py_claim_acc_annot.csv", csv(PHASE1_HEADER, rows));
    expect(refused).toMatchObject({ status: "refused", errors: [{ file: "py_claim_acc_annot.csv", row: 2, field: "diff", message: expect.stringMatching(/^the diff cannot be read \(diff line 3: hunk -1,2 \+1,2 is missing 1 old and 1 new lines\)/) }] });
    const context = new Map([["test3_old.py", "a = 1\nb = 0\n"], ["test3_new.py", "a = 2\nb = 0\n"]]);
    const summary = imported(await runImport({ study: "bad-hunk", format: "crscore-phase1", files: [{ name: "py_claim_acc_annot.csv", content: csv(PHASE1_HEADER, rows) }], context }, client));
    expect(summary.warnings).toContainEqual(expect.stringMatching(/row 2: code change 700: the diff cannot be read \(diff line 3: .*\); rebuilt from old_file and new_file/));
    const change = await client.codeChange.findFirstOrThrow({ where: { study: { slug: "bad-hunk" } } });
    expect(change.diff).toBe("diff --git a/file b/file\n--- a/file\n+++ b/file\n@@ -1,2 +1,2 @@\n-a = 1\n+a = 2\n b = 0\n");
  });

  test("imperfect files: BOM, CRLF, blank lines, trailing spaces in headers, extra columns and trailing empty cells", async () => {
    const header = ["id ", " index", "diff", "claim_no", "claim", "necessary?", "type", "review", "system", "claims addressed", "Con (P) ", "Comp (R)", "Rel (F)", "old_file", "new_file", "notes"];
    const rows = [
      ["900", "4", "@@ -1 +1 @@\n-a = 1\n+a = 2", "1", "a changes from 1 to 2.", "1", "claim", "Why 2?", "gpt3.5_pred", "1", "4", "2", "3", "t4_old.py", "t4_new.py", "checked", "", ""],
      ["", "", "", "", "", "", "", "Looks fine. ", "msg", "-", "2", "1", "1", "", "", "", ""],
    ];
    const text = "\ufeff" + [header, ...rows].map((row) => csvLine(row, { raw: true })).join("\n\n").replace(/\n/g, "\r\n");
    const summary = imported(await load("imperfect", "crscore-phase2", "py_ada_review_qual_final.csv", Buffer.from(text)));
    expect(summary.counts.reviewRatings.created).toBe(2);
    expect(summary.counts.pseudoReferences.created).toBe(1);
  });

  test("faulty rows: refused all at once without the option; with --skip-invalid-rows the valid rows are imported and each faulty one listed", async () => {
    const d = "@@ -1 +1 @@\n-a = 1\n+a = 2";
    const rows = [
      ["800", "1", d, "1", "a changes from 1 to 2.", "1", "claim", "Why 2?", "gpt3.5_pred", "1", "4", "2", "3", "t1_old.java", "t1_new.java"],
      ["", "", "", "2", "a is a constant.", "0", "claim", "Looks fine.", "msg", "1,3", "2", "1", "1", "", ""],
      ["", "", "", "", "", "", "", "Rename a.", "knn_pred", "2", "", "1", "1", "", ""],
      ["", "", "", "", "", "", "", "Add a test.", "lstm_pred", "", "3", "3", "3", "", ""],
      ["", "", "", "", "", "", "", "Hmm.", "llama3_pred", "-", "1", "1", "1", "stray", ""],
      ["", "", "", "", "", "", "", "Good change.", "gpt4_pred", "1,2", "5", "4", "4", "", ""],
    ];
    const content = csv(PHASE2_HEADER, rows);
    const refused = await load("lenient", "crscore-phase2", "java_ada_review_qual_final.csv", content);
    expect(refused.status).toBe("refused");
    const errors = refused.status === "refused" ? refused.errors : [];
    expect(errors.map((e) => [e.row, e.field])).toEqual([
      [3, "claims addressed"],
      [4, "Con (P)"],
      [5, "claims addressed"],
      [6, "old_file"],
    ]);
    expect(await client.study.count({ where: { slug: "lenient" } })).toBe(0);

    const summary = imported(await runImport({ study: "lenient", format: "crscore-phase2", files: [{ name: "java_ada_review_qual_final.csv", content }], skipInvalidRows: true }, client));
    expect(summary.skippedRows.map((e) => [e.file, e.row, e.field])).toEqual([
      ["java_ada_review_qual_final.csv", 3, "claims addressed"],
      ["java_ada_review_qual_final.csv", 4, "Con (P)"],
      ["java_ada_review_qual_final.csv", 5, "claims addressed"],
      ["java_ada_review_qual_final.csv", 6, "old_file"],
    ]);
    expect(summary.skippedRows[0].message).toMatch(/claim 3 is not listed for this code change/);
    const reviews = await client.review.findMany({ where: { codeChange: { study: { slug: "lenient" } } }, orderBy: { position: "asc" }, select: { system: true, ratings: { select: { scores: true } } } });
    expect(reviews.map((r) => [r.system, r.ratings.length])).toEqual([
      ["gpt3.5_pred", 1],
      ["msg", 0],
      ["knn_pred", 0],
      ["lstm_pred", 0],
      ["gpt4_pred", 1],
    ]);
  });

  test("an item file restricts agreement; Likert alpha is reported at the ordinal and the interval level", async () => {
    const d = "@@ -1 +1 @@\n-a = 1\n+a = 2";
    const sheet = (scores: string[][]) =>
      csv(PHASE2_HEADER, [
        ["1", "1", d, "1", "a changes.", "1", "claim", "Why?", "gpt3.5_pred", "1", ...scores[0], "", ""],
        ["", "", "", "", "", "", "", "Fine.", "msg", "-", ...scores[1], "", ""],
        ["2", "2", d, "1", "b changes.", "1", "claim", "Why b?", "gpt3.5_pred", "1", ...scores[2], "", ""],
        ["", "", "", "", "", "", "", "Ok.", "msg", "-", ...scores[3], "", ""],
      ]);
    imported(await load("item-sets", "crscore-phase2", "py_ada_review_qual_final.csv", sheet([["4", "4", "4"], ["2", "2", "1"], ["5", "5", "5"], ["1", "1", "1"]])));
    imported(await load("item-sets", "crscore-phase2", "py_bob_review_qual_final.csv", sheet([["5", "4", "3"], ["2", "1", "1"], ["1", "1", "1"], ["5", "5", "5"]])));
    const study = await client.study.findUniqueOrThrow({ where: { slug: "item-sets" } });
    const all = await agreementReport(study.id, { task: "REVIEW_RATING", bootstrap: { nResamples: 0 } }, client);
    const items = parseItemFile("set.txt", "\ufeff# the first change\r\n1\r\n\r\n9/knn_pred\r\n");
    const restricted = await agreementReport(study.id, { task: "REVIEW_RATING", items, bootstrap: { nResamples: 0 } }, client);
    expect(all.itemSet).toEqual({ name: "all items of the study", kind: null, size: null, unmatched: [] });
    expect(restricted.itemSet).toEqual({ name: "set.txt", kind: "file", size: 2, unmatched: ["9/knn_pred"] });
    const conciseness = (r: typeof all) => r.tasks[0].questions.find((q) => q.question === "conciseness")!;
    expect(conciseness(all).counts.items).toBe(4);
    expect(conciseness(restricted).counts.items).toBe(2);
    const alphas = conciseness(restricted).coefficients.filter((c) => c.key.startsWith("alpha"));
    expect(alphas.map((c) => [c.key, c.method.split(" (")[0]])).toEqual([
      ["alpha", "Krippendorff's alpha, ordinal"],
      ["alpha-interval", "Krippendorff's alpha, interval"],
    ]);
    expect(alphas[0].value).not.toBeNull();
    expect(alphas[1].value).not.toBe(alphas[0].value);
    expect(conciseness(all).coefficients.find((c) => c.key === "alpha")!.value).not.toBe(alphas[0].value);
  });
});
