/**
 * Large upload imports as worker jobs (lib/import/jobs.ts): the upload is stored, a worker
 * (a real pg-boss subscription on a real PostgreSQL) imports it in its one transaction, and the
 * lead who started it follows the progress to the same result an import in place gives; a
 * faulty file ends as the import's own refusal with nothing written; nobody else can follow it.
 */
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { createClient } from "@/lib/db/client";
import { parseEnv } from "@/lib/env";
import { enqueueImport, followImportJob, importInlineBytes, processImportJob, type ImportEvent } from "@/lib/import/jobs";
import { startQueue } from "@/lib/jobs";
import { workImportJobs } from "@/lib/import/work";
import { jsonlFile } from "./import-fixtures";

const url = inject("databaseUrl");
process.env.DATABASE_URL = url;
const db = createClient(url);
let lead: { id: string; email: string; name: string; role: "LEAD" };
let otherLead: { id: string };

beforeAll(async () => {
  const stamp = Date.now();
  const created = await db.account.create({ data: { email: `ij-lead-${stamp}@test.local`, name: "Import Lead", role: "LEAD" } });
  lead = { id: created.id, email: created.email, name: created.name, role: "LEAD" };
  otherLead = await db.account.create({ data: { email: `ij-other-${stamp}@test.local`, name: "Other Lead", role: "LEAD" } });
});
afterAll(() => db.$disconnect());

async function events(account: { id: string }, jobId: string): Promise<ImportEvent[]> {
  const seen: ImportEvent[] = [];
  for await (const event of followImportJob(account, jobId, new AbortController().signal, 100)) seen.push(event);
  return seen;
}

const options = { format: "jsonl", update: false, skipInvalidRows: false, primary: false, dryRun: false } as const;

test("the inline limit comes from CRJUDGE_IMPORT_INLINE_MB (default 2 MiB, 0 sends every upload to a worker)", () => {
  expect(importInlineBytes(parseEnv({}))).toBe(2 * 1024 * 1024);
  expect(importInlineBytes(parseEnv({ CRJUDGE_IMPORT_INLINE_MB: "0" }))).toBe(0);
  expect(importInlineBytes(parseEnv({ CRJUDGE_IMPORT_INLINE_MB: "0.5" }))).toBe(512 * 1024);
  expect(() => parseEnv({ CRJUDGE_IMPORT_INLINE_MB: "lots" })).toThrow('CRJUDGE_IMPORT_INLINE_MB="lots": a number of MiB');
});

test("a worker imports a stored upload with its options; the lead follows it to the result; the stored files are gone afterwards", async () => {
  const slug = `ij-${Date.now()}`;
  const jobId = await enqueueImport(lead, slug, { ...options, primary: true }, [jsonlFile("changes.jsonl", ["a1", "a2", "a3"])], []);
  expect(await db.importJobFile.count({ where: { jobId } })).toBe(1);
  // Nobody imports it yet: the job waits, queued.
  expect((await db.importJob.findUniqueOrThrow({ where: { id: jobId } })).status).toBe("QUEUED");

  const worker = await startQueue(url);
  try {
    await workImportJobs(worker);
    const seen = await events(lead, jobId);
    const last = seen.at(-1)!;
    expect("result" in last && last.result.status).toBe("imported");
    if (!("result" in last) || last.result.status !== "imported") throw new Error("not imported");
    expect(last.result.summary.study.slug).toBe(slug);
  } finally {
    await worker.stop({ graceful: true, wait: true });
  }
  const study = await db.study.findUniqueOrThrow({ where: { slug }, include: { codeChanges: true } });
  expect(study.codeChanges.map((c) => c.externalId).sort()).toEqual(["a1", "a2", "a3"]);
  expect(study.ownerId).toBe(lead.id);
  expect(await db.importRun.findFirstOrThrow({ where: { studyId: study.id } })).toMatchObject({ primary: true, createdById: lead.id });
  expect(await db.importJobFile.count({ where: { jobId } })).toBe(0);
  expect(await db.importJob.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ status: "DONE", createdById: lead.id });
  // Another lead cannot follow (or learn anything of) the job.
  await expect(events(otherLead, jobId)).rejects.toMatchObject({ code: "NOT_FOUND" });
});

test("a faulty upload ends with the import's refusal, naming the line; nothing is written", async () => {
  const slug = `ij-bad-${Date.now()}`;
  const broken = { name: "broken.jsonl", content: Buffer.from(`${jsonlFile("x", ["b1"]).content.toString().trim()}\n{"id": "b2", "language": \n`) };
  const jobId = await enqueueImport(lead, slug, options, [broken], []);
  await processImportJob(jobId);
  const [event] = await events(lead, jobId);
  expect("result" in event && event.result.status).toBe("refused");
  if (!("result" in event) || event.result.status !== "refused") throw new Error("not refused");
  expect(event.result.errors[0]).toMatchObject({ file: "broken.jsonl", line: 2 });
  expect(await db.study.findUnique({ where: { slug } })).toBeNull();
  // Processing again (a retried job) changes nothing.
  await processImportJob(jobId);
  expect(await db.study.findUnique({ where: { slug } })).toBeNull();
});
