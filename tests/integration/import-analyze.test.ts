import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createClient, type PrismaClient } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { runImport } from "@/lib/data/imports";
import { analyzeChangedTables } from "@/lib/data/import-writer";
import type { CodeChangeLine } from "@/lib/import/jsonl-schema";
import { imported } from "./import-fixtures";
import { scratchDatabase } from "./scratch-database";

// A database of its own: its tables start never analyzed (reltuples -1), whatever the other tests wrote.
let database: Awaited<ReturnType<typeof scratchDatabase>>;
let client: PrismaClient;

beforeAll(async () => {
  database = await scratchDatabase("crjudge_analyze");
  await migrate(database.url);
  client = createClient(database.url);
});
afterAll(async () => {
  await client.$disconnect();
  await database.drop();
});

/** Code changes `from` to `to` - 1, each with 5 judged claims and 3 reviews, 2 of them graded. */
function studyFile(from: number, to: number) {
  const lines: CodeChangeLine[] = [];
  for (let c = from; c < to; c++) {
    lines.push({
      id: `change-${c}`,
      language: "python",
      diff: `@@ -1 +1 @@\n-a = ${c}\n+b = ${c}\n`,
      pseudoReferences: Array.from({ length: 5 }, (_, k) => ({ id: `claim-${k}`, text: `claim ${k} of ${c}`, kind: "CLAIM" as const, source: "test", judgements: [{ annotator: "judge", code: "CORRECT" as const }] })),
      reviews: [
        { id: "msg", system: "msg", text: `reference ${c}`, isReference: true },
        ...["a", "b"].map((system) => ({ id: system, system, text: `${system} on ${c}`, grades: [{ annotator: "grader", grade: 1 + (c % 5) }] })),
      ],
    });
  }
  return { name: "study.jsonl", content: Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n")) };
}

const rowEstimates = async () =>
  Object.fromEntries(
    (await client.$queryRaw<{ name: string; rows: number }[]>`SELECT relname AS name, reltuples::float8 AS rows FROM pg_class WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace`).map((r) => [r.name, r.rows]),
  );

test("an import analyzes, after its commit, the tables it changed past autovacuum's threshold, and only those", async () => {
  const before = await rowEstimates();
  expect(before.CodeChange).toBe(-1);

  const first = imported(await runImport({ study: "analyzed", format: "jsonl", files: [studyFile(0, 100)] }, client));
  expect(first.counts.codeChanges.created).toBe(100);
  const after = await rowEstimates();
  // ANALYZE counted every row: 100 changes, 500 claims and judgements, 300 reviews, 200 grades.
  expect([after.CodeChange, after.PseudoReference, after.ClaimJudgement, after.CandidateReview, after.ReferenceGrade]).toEqual([100, 500, 500, 300, 200]);
  // Tables the import did not write keep their estimate (never analyzed).
  expect([after.PullRequest, after.ReviewRating, after.CommentFilterLabel]).toEqual([-1, -1, -1]);

  // 10 more changes: each table's change is under 50 rows + 10 % of it (10 of 60 changes, 50 of 100 claims, ...): none is analyzed.
  imported(await runImport({ study: "analyzed", format: "jsonl", files: [studyFile(100, 110)] }, client));
  expect(await rowEstimates()).toEqual(after);

  // 100 more: past it again for every table the import wrote.
  imported(await runImport({ study: "analyzed", format: "jsonl", files: [studyFile(110, 210)] }, client));
  const grown = await rowEstimates();
  expect([grown.CodeChange, grown.PseudoReference, grown.ClaimJudgement, grown.CandidateReview, grown.ReferenceGrade]).toEqual([210, 1050, 1050, 630, 420]);
});

test("a table locked by a VACUUM or ANALYZE elsewhere does not hold the import up: the statistics are left to autovacuum", async () => {
  const before = await rowEstimates();
  const vacuum = new pg.Client({ connectionString: database.url });
  await vacuum.connect();
  try {
    // The lock a VACUUM or ANALYZE holds on its table.
    await vacuum.query(`BEGIN; LOCK TABLE "ReferenceGrade" IN SHARE UPDATE EXCLUSIVE MODE`);
    const result = imported(await runImport({ study: "analyzed", format: "jsonl", files: [studyFile(210, 510)] }, client));
    expect(result.counts.codeChanges.created).toBe(300);
    // The locked table is given up after the lock timeout; the others are analyzed.
    const during = await rowEstimates();
    expect([during.CodeChange, during.PseudoReference, during.ClaimJudgement, during.CandidateReview, during.ReferenceGrade]).toEqual([510, 2550, 2550, 1530, before.ReferenceGrade]);
    await vacuum.query("COMMIT");
    expect(await analyzeChangedTables(client, result.counts)).toEqual(["CodeChange", "PseudoReference", "CandidateReview", "ClaimJudgement", "ReferenceGrade"]);
    const after = await rowEstimates();
    expect([after.CodeChange, after.ReferenceGrade]).toEqual([510, 1020]);
  } finally {
    await vacuum.end();
  }
});
