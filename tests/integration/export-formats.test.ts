import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { cohenKappa } from "@/lib/agreement";
import { createClient } from "@/lib/db/client";
import { LONG_COLUMNS } from "@/lib/export/long";
import { runImport } from "@/lib/data/imports";
import { exportBytes, exportText, fileAt, imported } from "./import-fixtures";

const STUDY = "export-example";

describe("long, wide and gradedreviews exports of the documented example", () => {
  const client = createClient(inject("databaseUrl"));
  let studyId = "";
  beforeAll(async () => {
    studyId = imported(await runImport({ study: STUDY, format: "jsonl", files: [fileAt("docs/examples/code-changes.jsonl")] }, client)).study.id;
  });
  afterAll(() => client.$disconnect());

  test("long CSV: one row per item, annotator and question, with the item's text, annotator id, timestamps, time spent and the import that wrote it", async () => {
    const rows = parse(await exportText(client, studyId, "long-csv"), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0])).toEqual([...LONG_COLUMNS]);
    const grace = await client.account.findFirstOrThrow({ where: { name: "grace" } });
    expect(rows.filter((r) => r.item === "c1" && r.codeChange === "py-retry-1")).toEqual([
      { task: "CLAIM_VERIFICATION", codeChange: "py-retry-1", item: "c1", itemText: "The request is now retried up to three times.", itemKind: "pseudoReference", system: "", question: "code", annotatorId: expect.any(String), annotator: "ada", value: "1", createdAt: "2025-03-01T10:00:00.000Z", updatedAt: "2025-03-01T10:00:00.000Z", timeSpentMs: "4200", importedFrom: "code-changes.jsonl", importedBy: "command line", importRun: expect.any(String), status: "submitted", submittedAt: expect.stringMatching(/^20\d\d-/), consensus: "1" },
      { task: "CLAIM_VERIFICATION", codeChange: "py-retry-1", item: "c1", itemText: "The request is now retried up to three times.", itemKind: "pseudoReference", system: "", question: "code", annotatorId: grace.id, annotator: "grace", value: "1", createdAt: "2025-03-01T11:00:00.000Z", updatedAt: "2025-03-01T11:00:00.000Z", timeSpentMs: "3900", importedFrom: "code-changes.jsonl", importedBy: "command line", importRun: expect.any(String), status: "submitted", submittedAt: expect.stringMatching(/^20\d\d-/), consensus: "1" },
    ]);
    const gpt = rows.filter((r) => r.item === "gpt" && r.annotator === "grace").map((r) => [r.question, r.value]);
    expect(gpt).toEqual([
      ["conciseness", "4"],
      ["comprehensiveness", "2"],
      ["relevance", "2"],
      ["addresses", ""],
      ["partiallyAddresses", "c1"],
      ["comment", "praise only"],
    ]);
    expect(rows.filter((r) => r.task === "REFERENCE_GRADING")).toHaveLength(4);
  });

  test("long JSONL has the same rows as long CSV", async () => {
    const csvRows = parse(await exportText(client, studyId, "long-csv"), { columns: true }) as Record<string, string>[];
    const jsonRows = (await exportText(client, studyId, "long-jsonl")).trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(jsonRows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? "" : String(v)])))).toEqual(csvRows);
  });

  test("unknown values are null: an imported annotation without a time or a comment has none in the jsonl and long exports", async () => {
    const change = JSON.parse((await exportText(client, studyId, "jsonl")).split("\n")[0]) as { pseudoReferences: { id: string; judgements: Record<string, unknown>[] }[]; reviews: { id: string; ratings: Record<string, unknown>[] }[] };
    const c2 = change.pseudoReferences.find((r) => r.id === "c2")!;
    expect(c2.judgements.find((j) => j.annotator === "ada")).toMatchObject({ timeSpentMs: null, note: null });
    expect(c2.judgements.find((j) => j.annotator === "grace")).toMatchObject({ timeSpentMs: null, note: "the timeout is per attempt" });
    const gpt = change.reviews.find((r) => r.id === "gpt")!;
    expect(gpt.ratings.find((r) => r.annotator === "ada")).toMatchObject({ timeSpentMs: null, comment: null });
    const human = change.reviews.find((r) => r.id === "human")!;
    expect(human.ratings[0]).toMatchObject({ timeSpentMs: 15000, comment: null });
    const long = (await exportText(client, studyId, "long-jsonl")).trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(long.find((r) => r.item === "c2" && r.annotator === "ada")).toMatchObject({ question: "code", timeSpentMs: null });
    expect(long.find((r) => r.item === "c1" && r.annotator === "ada")).toMatchObject({ question: "code", timeSpentMs: 4200 });
  });

  test("wide CSV: one column per annotator, the item's text next to its id; agreement recomputed from it equals agreement from the database", async () => {
    const rows = parse(await exportText(client, studyId, "wide-csv"), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0])).toEqual(["task", "codeChange", "item", "itemText", "itemKind", "system", "question", "ada", "grace", "consensus"]);
    expect(rows.find((r) => r.item === "c2" && r.question === "code")).toMatchObject({ ada: "1", grace: "0", consensus: "" });
    expect(rows.find((r) => r.item === "i1" && r.question === "necessary")).toMatchObject({ ada: "0", grace: "" });
    expect(rows.find((r) => r.codeChange === "java-17" && r.item === "Tufano's" && r.question === "grade")).toMatchObject({ itemText: "Can items be null here?", itemKind: "review", system: "Tufano's" });

    const fromWide = rows
      .filter((r) => r.task === "COMMENT_FILTERING" && r.question === "highQuality")
      .flatMap((r) => ["ada", "grace"].map((rater) => ({ item: `${r.codeChange}/${r.item}`, rater, value: Number(r[rater]) })));
    const labels = await client.commentFilteringLabel.findMany({ where: { review: { codeChange: { studyId } } }, include: { annotator: true, review: { include: { codeChange: true } } } });
    const fromDatabase = labels.map((l) => ({ item: `${l.review.codeChange.externalId}/${l.review.externalId}`, rater: l.annotator.name, value: l.highQuality ? 1 : 0 }));
    expect(cohenKappa(fromWide, { raters: ["ada", "grace"] })).toEqual(cohenKappa(fromDatabase, { raters: ["ada", "grace"] }));
  });

  test("gradedreviews writes the consensus grades when several annotators graded, or the named grader's grades", async () => {
    const consensus = new ExcelJS.Workbook();
    await consensus.xlsx.load((await exportBytes(client, studyId, "gradedreviews")) as unknown as ExcelJS.Buffer);
    const consensusSheet = consensus.getWorksheet("工作表1")!;
    const consensusHeader = (consensusSheet.getRow(1).values as ExcelJS.CellValue[]).slice(1);
    // ada 3, grace 2: no consensus until a lead adjudicates; Auger 4 and 4: unanimous
    expect(["Tufano's", "Auger"].map((system) => consensusSheet.getRow(5).getCell(consensusHeader.indexOf(system) + 2).value)).toEqual([null, 4]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await exportBytes(client, studyId, "gradedreviews", "grace")) as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet("工作表1")!;
    const header = (sheet.getRow(1).values as ExcelJS.CellValue[]).slice(1);
    expect(header.slice(0, 3)).toEqual(["ID", "groundTruth", "relatedCode"]);
    const java = sheet.getRow(5);
    const cellOf = (name: string) => java.getCell(header.indexOf(name) + 1).value;
    expect([java.getCell(1).value, cellOf("groundTruth"), cellOf("Tufano's"), java.getCell(header.indexOf("Tufano's") + 2).value]).toEqual([
      "java-17",
      "Initialise items in the constructor instead of checking for null here.",
      "Can items be null here?",
      2,
    ]);
  });
});
