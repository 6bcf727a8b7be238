/**
 * Adjudication for every task type against a real PostgreSQL: the documented example
 * study, one disagreement per task decided by the lead; the consensus reaches the long, wide and
 * GradedReviews exports, and every decision is versioned and in the history.
 */
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { AppError } from "@/lib/errors";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { exportBytes, exportText, fileAt, imported } from "./import-fixtures";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const { runImport } = await import("@/lib/data/imports");
const adjudication = await import("@/lib/data/adjudication");
const { prepareExport } = await import("@/lib/data/exports");

const STUDY = `adjudication-${Date.now()}`;
let studyId = "";
let lead: { id: string; role: "LEAD" };
let otherLead: { id: string; role: "LEAD" };

const longRows = async () => parse(await exportText(db, studyId, "long-csv"), { columns: true }) as Record<string, string>[];
/** The item's consensus under one key in the jsonl export (null when none; undefined when the key is missing). */
const jsonlConsensus = async (item: string, key: string) => {
  const lines = (await exportText(db, studyId, "jsonl")).trim().split("\n").map((l) => JSON.parse(l));
  const items = lines.flatMap((l) => [...l.pseudoReferences, ...l.reviews]);
  return items.find((i) => i.id === item)?.consensus[key];
};
const consensusIn = (rows: Record<string, string>[], task: string, item: string, question: string) => [...new Set(rows.filter((r) => r.task === task && r.item === item && r.question === question).map((r) => r.consensus))];

beforeAll(async () => {
  studyId = imported(await runImport({ study: STUDY, format: "jsonl", files: [fileAt("docs/examples/code-changes.jsonl")] }, db)).study.id;
  const stamp = Date.now();
  lead = { id: (await db.account.create({ data: { email: `lead-${stamp}@adjudication.test`, name: "lead", role: "LEAD" } })).id, role: "LEAD" };
  otherLead = { id: (await db.account.create({ data: { email: `other-${stamp}@adjudication.test`, name: "other lead", role: "LEAD" } })).id, role: "LEAD" };
  await db.study.update({ where: { id: studyId }, data: { ownerId: lead.id } });
  // The example's comment filters agree on both comments: grace now calls llama3's comment low quality.
  const grace = await db.account.findFirstOrThrow({ where: { name: "grace" } });
  await db.commentFilteringLabel.updateMany({ where: { annotatorId: grace.id, review: { externalId: "llama3", codeChange: { studyId } } }, data: { highQuality: false } });
});

afterAll(async () => {
  await db.study.delete({ where: { id: studyId } });
  await db.account.deleteMany({ where: { id: { in: [lead.id, otherLead.id] } } });
});

const cases: { task: TaskType; item: string; question: string; exportQuestion: string; before: string[]; value: string | number; exported: string }[] = [
  { task: "CLAIM_VERIFICATION", item: "c2", question: "code", exportQuestion: "code", before: ["CORRECT", "INCORRECT"], value: "INCORRECT", exported: "0" },
  { task: "REVIEW_RATING", item: "gpt", question: "relevance", exportQuestion: "relevance", before: [3, 2].map(String), value: 2, exported: "2" },
  { task: "REFERENCE_GRADING", item: "Tufano's", question: "grade", exportQuestion: "grade", before: ["3", "2"], value: 3, exported: "3" },
  { task: "COMMENT_FILTERING", item: "llama3", question: "high-quality", exportQuestion: "highQuality", before: ["high-quality", "not high-quality"], value: "high-quality", exported: "1" },
];

describe("adjudicating a disagreement of each task type", () => {
  test.each(cases)("$task: the queue lists it, the consensus reaches the export, history keeps every version", async ({ task, item, question, exportQuestion, before, value, exported }) => {
    const queue = await adjudication.adjudicationQueue(lead, STUDY, task, question);
    const inStudy = { externalId: item, codeChange: { studyId } };
    const itemId = task === "CLAIM_VERIFICATION" ? (await db.pseudoReference.findFirstOrThrow({ where: inStudy })).id : (await db.review.findFirstOrThrow({ where: inStudy })).id;
    const entry = queue.open.find((e) => e.item.id === itemId);
    expect(entry, `${item} is an open disagreement`).toBeDefined();
    expect(entry!.ratings.map((r) => String(r.value)).sort()).toEqual(before.sort());
    expect(consensusIn(await longRows(), task, item, exportQuestion)).toEqual([""]);
    expect(await jsonlConsensus(item, exportQuestion)).toBeNull();

    const first = await adjudication.saveConsensus(lead, { slug: STUDY, task, itemId: entry!.item.id, question, value, reason: "discussed in the calibration meeting", baseVersion: 0 });
    expect(first.version).toBe(1);
    expect(consensusIn(await longRows(), task, item, exportQuestion)).toEqual([exported]);
    expect(await jsonlConsensus(item, exportQuestion)).toBe(exported);
    const wide = parse(await exportText(db, studyId, "wide-csv"), { columns: true }) as Record<string, string>[];
    expect(wide.find((r) => r.task === task && r.item === item && r.question === exportQuestion)?.consensus).toBe(exported);

    const after = await adjudication.adjudicationQueue(lead, STUDY, task, question);
    expect(after.open.map((e) => e.item.id)).not.toContain(entry!.item.id);
    expect(after.adjudicated.find((e) => e.item.id === entry!.item.id)?.consensus).toMatchObject({ value, reason: "discussed in the calibration meeting", version: 1 });

    // A stale decision is refused; the next one is version 2 and both are in the history, newest first.
    await expect(adjudication.saveConsensus(lead, { slug: STUDY, task, itemId: entry!.item.id, question, value, reason: "stale", baseVersion: 0 })).rejects.toMatchObject({ status: 409 });
    const other = adjudication.adjudicationItem(lead, STUDY, task, entry!.item.id).then((d) => d.questions.find((q) => q.key === question)!.scale.find((v) => v !== value)!);
    const second = await adjudication.saveConsensus(lead, { slug: STUDY, task, itemId: entry!.item.id, question, value: await other, reason: "changed my mind", baseVersion: 1 });
    expect(second.version).toBe(2);
    await adjudication.saveConsensus(lead, { slug: STUDY, task, itemId: entry!.item.id, question, value, reason: "back to the first decision", baseVersion: 2 });
    const view = await adjudication.adjudicationItem(lead, STUDY, task, entry!.item.id);
    expect(view.history.filter((h) => h.question === question).map((h) => [h.action, h.value, h.reason])).toEqual([
      ["UPDATE", value, "back to the first decision"],
      ["UPDATE", await other, "changed my mind"],
      ["CREATE", value, "discussed in the calibration meeting"],
    ]);
    expect(Object.values(view.history[0].fromValues).map(String).sort()).toEqual(before.sort());
    expect(view.annotations.map((a) => a.annotator).sort()).toEqual(["ada", "grace"]);
    expect(view.consensus[question]).toMatchObject({ value, source: "adjudicated", version: 3 });
  });

  test("unanimous items have a consensus without adjudication; values off the scale and other leads are refused", async () => {
    const rows = await longRows();
    expect(consensusIn(rows, "CLAIM_VERIFICATION", "c1", "code")).toEqual(["1"]);
    expect(consensusIn(rows, "REVIEW_RATING", "gpt", "conciseness")).toEqual(["4"]);
    expect(consensusIn(rows, "CLAIM_VERIFICATION", "i1", "code")).toEqual([""]); // one judgement only
    const queue = await adjudication.adjudicationQueue(lead, STUDY, "REFERENCE_GRADING", "grade");
    const itemId = queue.adjudicated[0].item.id;
    await expect(adjudication.saveConsensus(lead, { slug: STUDY, task: "REFERENCE_GRADING", itemId, question: "grade", value: 6, reason: "x", baseVersion: 3 })).rejects.toMatchObject({ status: 400 });
    await expect(adjudication.adjudicationQueue(otherLead, STUDY, "REFERENCE_GRADING")).rejects.toBeInstanceOf(AppError);
    await expect(adjudication.saveConsensus(otherLead, { slug: STUDY, task: "REFERENCE_GRADING", itemId, question: "grade", value: 1, reason: "x", baseVersion: 3 })).rejects.toMatchObject({ status: 404 });
  });
});

describe("GradedReviews workbook", () => {
  const gradesOf = async (annotator?: string) => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await exportBytes(db, studyId, "gradedreviews", annotator)) as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet("工作表1")!;
    const header = (sheet.getRow(1).values as ExcelJS.CellValue[]).slice(1);
    const java = sheet.getRow(5);
    return { tufano: java.getCell(header.indexOf("Tufano's") + 2).value, auger: java.getCell(header.indexOf("Auger") + 2).value };
  };

  test("several graders: consensus grades by default (adjudicated Tufano's 3, unanimous Auger 4), or the picked annotator's", async () => {
    expect(await gradesOf()).toEqual({ tufano: 3, auger: 4 });
    expect(await gradesOf("grace")).toEqual({ tufano: 2, auger: 4 });
  });

  test("an unknown annotator is refused before anything is streamed", async () => {
    await expect(prepareExport({ studyId, format: "gradedreviews", annotator: "nobody" }, db)).rejects.toMatchObject({ status: 400, message: expect.stringContaining("graders: ada, grace") });
  });
});

describe("annotator reliability", () => {
  test("agreement with the consensus and with each other annotator; competence for categorical questions only", async () => {
    // grades: Tufano's ada 3, grace 2, consensus 3 (adjudicated); Auger 4 and 4: unanimous only with each one's own answer, so left out
    const [grade] = await adjudication.taskReliability(lead, STUDY, "REFERENCE_GRADING");
    const byName = new Map(grade.annotators.map((a) => [a.name, a]));
    expect(byName.get("ada")).toMatchObject({ items: 2, withConsensus: { agree: 1, n: 1, value: 1, leftOut: 1 }, withOthers: [{ rater: "grace", share: { agree: 1, n: 2 } }], competence: null });
    expect(byName.get("grace")).toMatchObject({ items: 2, withConsensus: { agree: 0, n: 1, value: 0, leftOut: 1 } });
    const [code] = await adjudication.taskReliability(lead, STUDY, "CLAIM_VERIFICATION");
    for (const a of code.annotators) expect(a.competence).toBeGreaterThanOrEqual(0);
  });
});
