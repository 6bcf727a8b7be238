/**
 * Every export format and filter writes the same bytes as the Prisma reader of the nested includes
 * did: the golden file was written by that code (commit "export identity test"),
 * its consensus edge cases by the reader that read the study's consensus whole before the pages
 * (commit 34da36a), and the pg reader must reproduce it; the long and wide formats' itemText column
 * came later (the claims' and reviews' texts), and the workbook's fixed time. The study has imported work (by a lead and
 * from the command line), annotators' own saves, drafts, two annotators of the same name, adjudicated
 * consensus values (one on an item nobody rated), unanimous values (some off the scale, or a draft's)
 * and gold items. Account and import run ids are replaced by stable names before comparing; every
 * timestamp is fixed by the fixture. The Parquet export reads back with the long export's rows.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { createClient, type PrismaClient } from "@/lib/db/client";
import type { ExportFormat, ExportRequest } from "@/lib/export";
import { streamExport } from "@/lib/data/exports";
import { goldItems } from "@/lib/data/gold";
import { studyAnswers, studyCodeChanges } from "@/lib/data/export-rows";
import { runImport } from "@/lib/data/imports";
import { parquetTablesOfLong } from "@/lib/export/parquet";
import { cli } from "./cli";
import { fileAt, imported, jsonlFile } from "./import-fixtures";

const STUDY = "export-identity";
const EMAIL = "export-identity.test.local";
const client: PrismaClient = createClient(inject("databaseUrl"));
let studyId = "";
const accounts: Record<"lead" | "rater1" | "rater2", string> = { lead: "", rater1: "", rater2: "" };

const at = (day: number, hour = 0) => new Date(Date.UTC(2025, 4, day, hour));

/** Changes, claims and reviews by external ids. */
async function ids() {
  const changes = await client.codeChange.findMany({ where: { studyId }, include: { pseudoReferences: true, reviews: true } });
  const change = (id: string) => changes.find((c) => c.externalId === id)!;
  return {
    change: (id: string) => change(id).id,
    claim: (changeId: string, id: string) => change(changeId).pseudoReferences.find((r) => r.externalId === id)!.id,
    review: (changeId: string, id: string) => change(changeId).reviews.find((r) => r.externalId === id)!.id,
  };
}

/** Imported annotations saved without times got the import's time: fixed, distinct and in a set order, so the rows' order is the same in every run. */
async function fixImportTimes(since: Date) {
  for (const [table, item, itemTable] of [
    ["ClaimJudgement", "pseudoReferenceId", "PseudoReference"],
    ["ReviewRating", "candidateReviewId", "CandidateReview"],
    ["ReferenceGrade", "candidateReviewId", "CandidateReview"],
    ["CommentFilterLabel", "candidateReviewId", "CandidateReview"],
  ]) {
    await client.$executeRawUnsafe(
      `UPDATE "${table}" t SET "createdAt" = timestamp '2025-04-01' + o.n * interval '1 minute', "updatedAt" = timestamp '2025-04-01' + o.n * interval '1 minute'
       FROM (SELECT a.id, row_number() OVER (ORDER BY u.name, c."externalId", i."externalId") AS n
             FROM "${table}" a JOIN "User" u ON u.id = a."annotatorId" JOIN "${itemTable}" i ON i.id = a."${item}" JOIN "CodeChange" c ON c.id = i."codeChangeId"
             WHERE a."createdAt" >= $1) o
       WHERE t.id = o.id`,
      since,
    );
  }
  await client.importRun.updateMany({ where: { studyId }, data: { createdAt: at(20) } });
}

async function ownSaves() {
  const id = await ids();
  const saved = (day: number) => ({ createdAt: at(day), updatedAt: at(day, 12), timeSpentMs: 1000 * day });
  const x1c1 = id.claim("x1", "c1");
  const x1m1 = id.review("x1", "m1");
  const x2m1 = id.review("x2", "m1");
  await client.claimJudgement.create({ data: { annotatorId: accounts.rater1, pseudoReferenceId: x1c1, code: "CORRECT", necessary: true, ...saved(2) } });
  await client.claimJudgement.create({ data: { annotatorId: accounts.rater2, pseudoReferenceId: x1c1, code: "INCORRECT", errorType: "REASONING", note: 'off by one, "really"', ...saved(3) } });
  // A score outside the study's dimensions comes after them.
  await client.reviewRating.create({ data: { annotatorId: accounts.rater1, reviewId: x1m1, scores: { relevance: 4, extra: 2, conciseness: 3 }, links: { create: [{ pseudoReferenceId: x1c1, partial: true }] }, ...saved(4) } });
  await client.reviewRating.create({ data: { annotatorId: accounts.rater2, reviewId: x1m1, scores: { conciseness: 5, comprehensiveness: 1, relevance: 2 }, comment: "line one\nline two", links: { create: [{ pseudoReferenceId: x1c1 }] }, ...saved(5) } });
  await client.referenceGrade.create({ data: { annotatorId: accounts.rater1, reviewId: x1m1, grade: 3, comment: "close", ...saved(6) } });
  await client.referenceGrade.create({ data: { annotatorId: accounts.rater2, reviewId: x1m1, grade: 3, ...saved(7) } });
  await client.referenceGrade.create({ data: { annotatorId: accounts.rater1, reviewId: x2m1, grade: 2, ...saved(8) } });
  await client.commentFilteringLabel.create({ data: { annotatorId: accounts.rater1, reviewId: x2m1, highQuality: true, justification: "clear, actionable", ...saved(9) } });
  await client.commentFilteringLabel.create({ data: { annotatorId: accounts.rater2, reviewId: x2m1, highQuality: false, ...saved(10) } });
  // The consensus counts scores on the scale only (not 9, not the text "4"), and no draft's value (rater2's claim on x2, below).
  await client.reviewRating.create({ data: { annotatorId: accounts.rater1, reviewId: x2m1, scores: { conciseness: 4, comprehensiveness: 9, relevance: "4" }, ...saved(12) } });
  await client.reviewRating.create({ data: { annotatorId: accounts.rater2, reviewId: x2m1, scores: { conciseness: 4, comprehensiveness: 9, relevance: 4 }, ...saved(13) } });
  await client.claimJudgement.create({ data: { annotatorId: accounts.rater1, pseudoReferenceId: id.claim("x2", "c1"), code: "CORRECT", ...saved(14) } });
  await client.claimJudgement.create({ data: { annotatorId: accounts.rater2, pseudoReferenceId: id.claim("x2", "c1"), code: "CORRECT", ...saved(15) } });

  const assignment = (accountId: string, change: string, task: "CLAIM_VERIFICATION" | "REVIEW_RATING", status: "DONE" | "IN_PROGRESS", completedAt: Date | null, position: number) =>
    client.assignment.create({ data: { studyId, annotatorId: accountId, codeChangeId: id.change(change), task, status, completedAt, position } });
  await assignment(accounts.rater1, "x1", "REVIEW_RATING", "DONE", at(11), 0);
  await assignment(accounts.rater2, "x1", "REVIEW_RATING", "IN_PROGRESS", null, 0);
  await assignment(accounts.rater1, "x1", "CLAIM_VERIFICATION", "DONE", null, 1);
  const grace = await client.account.findFirstOrThrow({ where: { name: "grace", claimJudgements: { some: { pseudoReference: { codeChange: { studyId } } } } } });
  await assignment(grace.id, "py-retry-1", "CLAIM_VERIFICATION", "IN_PROGRESS", null, 0);
  await assignment(accounts.rater2, "x2", "CLAIM_VERIFICATION", "IN_PROGRESS", null, 1);

  await client.consensus.create({ data: { studyId, task: "CLAIM_VERIFICATION", itemId: id.claim("py-retry-1", "c2"), question: "code", value: "INCORRECT", decidedById: accounts.lead } });
  await client.consensus.create({ data: { studyId, task: "CLAIM_VERIFICATION", itemId: id.claim("py-retry-1", "c1"), question: "code", value: "CORRECT", decidedById: accounts.lead, gold: true } });
  await client.consensus.create({ data: { studyId, task: "REFERENCE_GRADING", itemId: x2m1, question: "grade", value: 2, decidedById: accounts.lead, gold: true } });
  // Adjudicated on an item nobody rated.
  await client.consensus.create({ data: { studyId, task: "REVIEW_RATING", itemId: id.review("x2", "human"), question: "relevance", value: 5, decidedById: accounts.lead } });
}

beforeAll(async () => {
  const since = new Date();
  const person = (key: string, name: string) => client.account.create({ data: { email: `${key}@${EMAIL}`, name, role: "ANNOTATOR" } });
  accounts.lead = (await person("lead", "export-identity lead")).id;
  accounts.rater1 = (await person("rater1", "export-identity rater")).id;
  accounts.rater2 = (await person("rater2", "export-identity rater")).id;
  studyId = imported(await runImport({ study: STUDY, format: "jsonl", files: [fileAt("docs/examples/code-changes.jsonl")], createdById: accounts.lead }, client)).study.id;
  imported(await runImport({ study: STUDY, format: "jsonl", files: [jsonlFile("more.jsonl", ["x1", "x2"])] }, client));
  await fixImportTimes(since);
  await ownSaves();
});

afterAll(async () => {
  await client.study.deleteMany({ where: { slug: STUDY } });
  await client.account.deleteMany({ where: { email: { endsWith: `@${EMAIL}` } } });
  await client.$disconnect();
});

/** Ids that differ from run to run, named: the study's people by name and e-mail order, import runs by their files. */
async function stableNames(): Promise<[string, string][]> {
  const runs = await client.importRun.findMany({ where: { studyId }, orderBy: { files: "asc" } });
  const inStudy = { some: { review: { codeChange: { studyId } } } };
  const people = await client.account.findMany({
    where: { OR: [{ email: { endsWith: `@${EMAIL}` } }, { claimJudgements: { some: { pseudoReference: { codeChange: { studyId } } } } }, { reviewRatings: inStudy }, { referenceGrades: inStudy }, { commentFilteringLabels: inStudy }] },
    orderBy: [{ name: "asc" }, { email: "asc" }],
  });
  return [...runs.map((r, i): [string, string] => [r.id, `<run ${i + 1}>`]), ...people.map((u, i): [string, string] => [u.id, `<user ${i + 1} ${u.name}>`])];
}

async function exported(request: Omit<ExportRequest, "studyId">): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of streamExport({ ...request, studyId }, client)) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

const TEXT_FORMATS: ExportFormat[] = ["jsonl", "long-csv", "long-jsonl", "wide-csv", "wide-jsonl"];
const FILTERED_FORMATS: ExportFormat[] = ["long-csv", "long-jsonl", "wide-csv", "wide-jsonl"];

/** Every format with and without gold, and the long and wide formats under each filter. */
function cases(): [string, Omit<ExportRequest, "studyId">][] {
  const filters: [string, ExportRequest["filter"]][] = [
    ["submitted", { status: "submitted" }],
    ["draft", { status: "draft" }],
    ["annotator grace", { annotator: "grace" }],
    ["annotator rater1 by id", { annotator: accounts.rater1 }],
    ["from", { from: at(5) }],
    ["to", { to: at(5) }],
    ["from-to submitted", { from: new Date("2025-03-01T10:30:00Z"), to: at(9), status: "submitted" }],
  ];
  return [
    ...TEXT_FORMATS.flatMap((format) => [false, true].map((includeGold): [string, Omit<ExportRequest, "studyId">] => [`${format}${includeGold ? " with gold" : ""}`, { format, includeGold }])),
    ...FILTERED_FORMATS.flatMap((format) => filters.flatMap(([name, filter]) => [false, true].map((includeGold): [string, Omit<ExportRequest, "studyId">] => [`${format} ${name}${includeGold ? " with gold" : ""}`, { format, filter, includeGold }]))),
  ];
}

test("jsonl, long and wide exports under every filter are the bytes the Prisma reader wrote", async () => {
  const names = await stableNames();
  const outputs: Record<string, string> = {};
  for (const [name, request] of cases()) {
    let text = (await exported(request)).toString("utf8");
    for (const [id, stable] of names) text = text.replaceAll(id, stable);
    outputs[name] = text;
  }
  expect(Object.keys(outputs)).toHaveLength(10 + 4 * 7 * 2);
  await expect(`${JSON.stringify(outputs, null, 1)}\n`).toMatchFileSnapshot("./__snapshots__/export-identity.json");
});

test("gradedreviews workbooks (consensus grades, one grader's, with gold) are the bytes the Prisma reader wrote", async () => {
  // The workbook says it was written at a fixed time (docProps/core.xml, the zip entries' times), whenever it is.
  const outputs: Record<string, string> = {};
  for (const [name, request] of [
    ["consensus", { format: "gradedreviews" }],
    ["consensus with gold", { format: "gradedreviews", includeGold: true }],
    ["grace", { format: "gradedreviews", annotator: "grace" }],
  ] as const) {
    outputs[name] = (await exported(request)).toString("base64");
  }
  await expect(`${JSON.stringify(outputs, null, 1)}\n`).toMatchFileSnapshot("./__snapshots__/export-identity-gradedreviews.json");
});

test("read in pages of two code changes, the study (and its answers alone) is the same as read in one page", async () => {
  for (const reader of [studyCodeChanges, studyAnswers]) {
    const read = async (gold: Awaited<ReturnType<typeof goldItems>>, pageSize?: number) => {
      const changes = [];
      for await (const change of reader(client, studyId, gold, pageSize)) changes.push(change);
      return changes;
    };
    for (const gold of [new Map(), await goldItems(client, studyId)]) {
      const whole = await read(gold);
      expect(whole).toHaveLength(6);
      expect(await read(gold, 2)).toEqual(whole);
    }
  }
});

test("parquet: the long export's rows as one table per task, read back by an independent reader (hyparquet) with the same rows, whole and filtered; the CLI writes the tables into a folder", async () => {
  const { parquetReadObjects } = await import("hyparquet");
  for (const request of [{ format: "long-jsonl" }, { format: "long-jsonl", includeGold: true, filter: { status: "submitted" } }] as const) {
    const long = (await exported(request)).toString("utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    const tables = await parquetTablesOfLong(streamExport({ ...request, studyId }, client));
    expect(tables.map((t) => t.task)).toEqual([...new Set(long.map((r) => r.task))]);
    expect(tables.length).toBeGreaterThanOrEqual(4);
    for (const table of tables) {
      const read = await parquetReadObjects({ file: table.buffer });
      const rows = long.filter((r) => r.task === table.task);
      const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
      expect(Object.keys(read[0])).toEqual(columns);
      expect(read).toEqual(rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? null]))));
      expect(table.rows).toBe(rows.length);
    }
    expect(tables.reduce((n, t) => n + t.rows, 0)).toBe(long.length);
  }
  const out = mkdtempSync(path.join(tmpdir(), "crjudge-parquet-"));
  try {
    const printed = await cli("export", "--study", STUDY, "--format", "parquet", "--out", out);
    expect(printed.code).toBe(0);
    const { tables } = JSON.parse(printed.stdout) as { tables: { task: string; file: string; rows: number }[] };
    expect(readdirSync(out).sort()).toEqual(tables.map((t) => t.file).sort());
    const claims = tables.find((t) => t.task === "CLAIM_VERIFICATION")!;
    expect(claims.file).toBe("claim-verification.parquet");
    expect(await parquetReadObjects({ file: new Uint8Array(readFileSync(path.join(out, claims.file))).buffer })).toHaveLength(claims.rows);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("hf: the Parquet tables under data/ and a dataset card with YAML metadata (licence, a config per table), the codebook, counts and the agreement report's figures with their CIs; a licence that is no identifier is refused", async () => {
  const { parquetReadObjects } = await import("hyparquet");
  const { agreementReport } = await import("@/lib/data/reports");
  const out = mkdtempSync(path.join(tmpdir(), "crjudge-hf-"));
  try {
    const printed = await cli("export", "--study", STUDY, "--format", "hf", "--out", out, "--license", "cc-by-4.0");
    expect(printed.code).toBe(0);
    const { tables } = JSON.parse(printed.stdout) as { tables: { task: string; file: string; rows: number }[] };
    expect(readdirSync(out).sort()).toEqual(["README.md", "data"]);
    expect(readdirSync(path.join(out, "data")).sort()).toEqual(tables.map((t) => t.file).sort());
    for (const t of tables) expect(await parquetReadObjects({ file: new Uint8Array(readFileSync(path.join(out, "data", t.file))).buffer })).toHaveLength(t.rows);
    const card = readFileSync(path.join(out, "README.md"), "utf8");
    const [, yaml, body] = card.split(/^---$/m);
    expect(yaml).toContain("\nlicense: cc-by-4.0\n");
    for (const t of tables) expect(yaml).toContain(`- config_name: ${t.file.replace(".parquet", "")}\n  data_files: data/${t.file}\n`);
    for (const t of tables) expect(body).toMatch(new RegExp(`\\| \`data/${t.file}\` \\| ${t.rows} \\|`));
    // Every coefficient of the agreement report (submitted work, gold left out) is a row with its value and CI.
    const report = await agreementReport(studyId, {}, client);
    const coefficients = report.tasks.flatMap((t) => t.questions.flatMap((q) => q.coefficients.map((c) => ({ q, c }))));
    expect(coefficients.length).toBeGreaterThan(0);
    for (const { q, c } of coefficients) {
      const value = c.value === null ? "undefined" : c.value.toFixed(3);
      const ci = c.ci && c.ci.low !== null && c.ci.high !== null ? `[${c.ci.low.toFixed(3)}, ${c.ci.high.toFixed(3)}]` : "none";
      expect(body).toContain(`| ${q.question} | ${c.method} | ${value}`);
      expect(body.split("\n").find((line) => line.includes(`| ${q.question} | ${c.method} |`))).toContain(`| ${ci}`);
    }
    expect(body).toContain("## Codebook");
    expect(body).toContain("gold items (known answers used as attention checks) left out");
    const refused = await cli("export", "--study", STUDY, "--format", "hf", "--out", path.join(out, "again"), "--license", "CC BY 4.0");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("--license must be an SPDX identifier");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
