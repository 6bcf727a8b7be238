/**
 * The export reader takes annotations', import runs' and assignments' times as text formatted by
 * PostgreSQL (lib/data/export-rows.ts isoTime): it must be exactly what `Date.toISOString` writes
 * for the stored time, milliseconds, early years, leap days and the ends of the range included.
 */
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { createClient, type PrismaClient } from "@/lib/db/client";
import { studyCodeChanges } from "@/lib/data/export-rows";
import { runImport } from "@/lib/data/imports";
import { seededRandom } from "@/lib/stats";
import { imported, jsonlFile } from "./import-fixtures";

const STUDY = "export-times";
const EMAIL = "rater@export-times.test.local";
const client: PrismaClient = createClient(inject("databaseUrl"));

const EDGES = ["0001-01-01T00:00:00.000Z", "0999-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z", "1970-01-01T00:00:00.000Z", "2024-02-29T12:00:00.001Z", "2025-05-02T00:00:00.010Z", "9999-12-31T23:59:59.999Z"].map((t) => new Date(t));
const random = seededRandom(15);
const FIRST = Date.UTC(1, 0, 1);
const LAST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** Times anywhere in PostgreSQL's and Date's common range, to the millisecond. */
const TIMES = [...EDGES, ...Array.from({ length: 40 }, () => new Date(FIRST + Math.floor(random() * (LAST - FIRST))))];

let studyId = "";
let accountId = "";

beforeAll(async () => {
  const ids = TIMES.map((_, k) => `t${k}`);
  studyId = imported(await runImport({ study: STUDY, format: "jsonl", files: [jsonlFile("times.jsonl", ids)] }, client)).study.id;
  accountId = (await client.account.create({ data: { email: EMAIL, name: "times rater", role: "ANNOTATOR" } })).id;
  const changes = await client.codeChange.findMany({ where: { studyId }, include: { pseudoReferences: true } });
  for (const change of changes) {
    const k = Number(change.externalId.slice(1));
    const later = TIMES[(k + 1) % TIMES.length];
    await client.claimJudgement.create({ data: { annotatorId: accountId, pseudoReferenceId: change.pseudoReferences[0].id, code: "CORRECT", createdAt: TIMES[k], updatedAt: later } });
    await client.assignment.create({ data: { studyId, annotatorId: accountId, codeChangeId: change.id, task: "CLAIM_VERIFICATION", status: "DONE", completedAt: later, position: k } });
  }
});

afterAll(async () => {
  await client.study.deleteMany({ where: { slug: STUDY } });
  await client.account.deleteMany({ where: { email: EMAIL } });
  await client.$disconnect();
});

test("annotations' and assignments' times read for export are their Date.toISOString", async () => {
  let read = 0;
  for await (const change of studyCodeChanges(client, studyId)) {
    const k = Number(change.externalId.slice(1));
    const later = TIMES[(k + 1) % TIMES.length].toISOString();
    const [judgement] = change.pseudoReferences[0].judgements;
    expect([judgement.createdAt, judgement.updatedAt]).toEqual([TIMES[k].toISOString(), later]);
    expect(change.assignments.map((a) => a.completedAt)).toEqual([later]);
    read++;
  }
  expect(read).toBe(TIMES.length);
});

test("an import run's time read for export is its Date.toISOString", async () => {
  for (const time of EDGES) {
    const run = await client.importRun.findFirstOrThrow({ where: { studyId } });
    await client.importRun.update({ where: { id: run.id }, data: { createdAt: time } });
    await client.claimJudgement.updateMany({ where: { annotatorId: accountId }, data: { importRunId: run.id, importedFile: "times.jsonl" } });
    for await (const change of studyCodeChanges(client, studyId)) expect(change.pseudoReferences[0].judgements[0].importRun?.createdAt).toBe(time.toISOString());
  }
});
