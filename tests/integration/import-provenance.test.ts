import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, inject, test } from "vitest";
import { getWorkspace } from "@/lib/data/annotations";
import { addAccount } from "@/lib/data/accounts";
import { createClient } from "@/lib/db/client";
import { runImport } from "@/lib/data/imports";
import { exportText, imported } from "./import-fixtures";

/** Imported work is marked as imported: rows, history, workspace and export. */
describe("imported annotations", () => {
  const db = createClient(inject("databaseUrl"));
  beforeAll(() => {
    process.env.DATABASE_URL = inject("databaseUrl");
  });

  test("a lead's JSONL import with an annotator's id is recorded as the lead's import, not as the annotator's saves", async () => {
    const lead = await addAccount({ email: "provenance-lead@example.org", name: "Pat Lead", role: "LEAD", password: "lead-password" }, db);
    const annotator = await addAccount({ email: "provenance-ann@example.org", role: "ANNOTATOR", password: "annotator-password" }, db);
    // The documented example with ada's annotations given to the annotator by id.
    const lines = readFileSync("docs/examples/code-changes.jsonl", "utf8").replaceAll('"annotator":"ada"', `"annotator":"ada","annotatorId":"${annotator.id}"`);
    const summary = imported(await runImport({ study: "provenance", format: "jsonl", files: [{ name: "ratings-batch-1.jsonl", content: Buffer.from(lines) }], createdById: lead.id }, db));
    expect(await db.importRun.findUniqueOrThrow({ where: { id: summary.importRunId! } })).toMatchObject({ createdById: lead.id, files: ["ratings-batch-1.jsonl"] });

    const own = { annotatorId: annotator.id };
    const rows = [
      ...(await db.claimJudgement.findMany({ where: own })),
      ...(await db.reviewRating.findMany({ where: own })),
      ...(await db.referenceGrade.findMany({ where: own })),
      ...(await db.commentFilteringLabel.findMany({ where: own })),
    ];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect([row.importRunId, row.importedFile]).toEqual([summary.importRunId, "ratings-batch-1.jsonl"]);
    const history = await db.annotationHistory.findMany({ where: { annotationId: { in: rows.map((r) => r.id) } } });
    expect(history).toHaveLength(rows.length);
    expect(new Set(history.map((h) => [h.action, h.importRunId, h.accountId].join()))).toEqual(new Set([["IMPORT", summary.importRunId, annotator.id].join()]));

    // The workspace tells the annotator where these answers came from.
    const judgement = await db.claimJudgement.findFirstOrThrow({ where: own, include: { pseudoReference: true } });
    const assignment = await db.assignment.create({ data: { studyId: summary.study.id, annotatorId: annotator.id, codeChangeId: judgement.pseudoReference.codeChangeId, task: "CLAIM_VERIFICATION", position: 0 } });
    const workspace = await getWorkspace(annotator.id, assignment.id);
    expect(workspace.imported).toMatchObject({ file: "ratings-batch-1.jsonl", by: "Pat Lead" });

    // The long export names the file and the lead on every imported answer.
    const exported = (await exportText(db, summary.study.id, "long-jsonl")).trim().split("\n").map((line) => JSON.parse(line) as Record<string, string>);
    const answers = exported.filter((a) => a.annotatorId === annotator.id);
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) expect([answer.importedFrom, answer.importedBy]).toEqual(["ratings-batch-1.jsonl", lead.email]);
  });
});
