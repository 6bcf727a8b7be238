/**
 * Import and export times, in a fresh database of the embedded test cluster,
 * dropped at the end:
 *  - the GradedReviews sample workbook (../shared, when present): import, re-import (nothing
 *    created), gradedreviews export;
 *  - a generated JSONL file of 100,000 reviews: 10,000 Python code changes (a diff of about
 *    600 characters, 5 claims each judged by one annotator) with 10 reviews each (the human
 *    reference and 9 systems, each generated review graded by one annotator), i.e. about
 *    440,000 rows with the history; import, re-import, and the jsonl and long CSV exports
 *    (MiB/s of the streamed export), each `--runs N` times (default 3): the first run, right after
 *    the import with the export's code not yet optimized by V8, and the medians of all runs.
 * Each step prints its wall time and the CPU time of this process and of the database server.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "@/lib/cli/args";
import { createClient, type PrismaClient } from "@/lib/db/client";
import { createTestDatabase } from "@/lib/db/test-database";
import type { ExportFormat } from "@/lib/export";
import { streamExport } from "@/lib/data/exports";
import { formatImportErrors, type ImportFile, type ImportFormat, type ImportSummary } from "@/lib/import";
import { runImport } from "@/lib/data/imports";
import type { CodeChangeLine } from "@/lib/import/jsonl-schema";
import { seededRandom } from "@/lib/stats";
import { sharedPath } from "../../tests/shared-data";
import { postgresCpuMs } from "./support/postgres-cpu";
import { measureAsync, median } from "./support/timing";

const CHANGES = 10_000;
const SYSTEMS = ["knn", "lstm", "codereviewer", "magicoder", "deepseekcoder", "stable_code", "llama3", "codellama_13b", "gpt3.5"];
const DRAWN_CLAIM_CODES = ["CORRECT", "CORRECT", "CORRECT", "INCORRECT", "UNVERIFIABLE"] as const;
const WORDS = (
  "the a this is it to of in for be we should can use not please why here method variable null check return value test add remove rename " +
  "unused import constant final private static class interface exception error handle log message string list map instead consider need"
).split(" ");

/** The generated study: one JSONL line per code change. */
function generatedJsonl(): Buffer {
  const random = seededRandom(20261122);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const sentence = (words: number) => Array.from({ length: words }, () => pick(WORDS)).join(" ");
  const lines: string[] = [];
  for (let c = 0; c < CHANGES; c++) {
    const diff = `@@ -${c + 1},8 +${c + 1},8 @@ def f${c}(x):\n${Array.from({ length: 12 }, (_, i) => `${i % 3 === 0 ? "+" : i % 3 === 1 ? "-" : " "}    ${sentence(6)}`).join("\n")}\n`;
    const line: CodeChangeLine = {
      id: `change-${c}`,
      language: "python",
      diff,
      position: c,
      pseudoReferences: Array.from({ length: 5 }, (_, k) => ({ id: `claim-${k}`, text: sentence(10), kind: "CLAIM" as const, source: "magicoder", judgements: [{ annotator: "bench-judge", code: pick(DRAWN_CLAIM_CODES) }] })),
      reviews: [
        { id: "msg", system: "msg", text: sentence(14), isReference: true },
        ...SYSTEMS.map((system) => ({ id: system, system, text: sentence(12), grades: [{ annotator: "bench-grader", grade: 1 + Math.floor(random() * 5) }] })),
      ],
    };
    lines.push(JSON.stringify(line));
  }
  return Buffer.from(`${lines.join("\n")}\n`);
}

/** Port of the bench's database server, whose CPU time is read around each step (support/postgres-cpu.ts). */
let serverPort = 0;

/** Wall time of `work`, and CPU time of this process and of the database server (a loaded machine inflates the wall time). */
async function timed<T>(label: string, work: () => Promise<T>, describe: (result: T, seconds: number) => string): Promise<T> {
  const pg0 = postgresCpuMs(serverPort);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await work();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  const pg1 = postgresCpuMs(serverPort);
  const postgres = pg0 === null || pg1 === null ? "" : `, postgres ${((pg1 - pg0) / 1000).toFixed(2)} s`;
  console.log(`${label}: ${seconds.toFixed(2)} s wall, CPU node ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s${postgres} (${describe(result, seconds)})`);
  return result;
}

function createdRows(summary: ImportSummary): number {
  return Object.values(summary.counts).reduce((n, c) => n + c.created, 0);
}

async function importOrFail(client: PrismaClient, study: string, format: ImportFormat, file: ImportFile): Promise<ImportSummary> {
  const result = await runImport({ study, format, files: [file] }, client);
  if (result.status === "refused") throw new Error(formatImportErrors(result.errors, result.totalErrors));
  return result.summary;
}

async function exportSize(client: PrismaClient, studyId: string, format: ExportFormat): Promise<number> {
  let bytes = 0;
  for await (const chunk of streamExport({ studyId, format }, client)) bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
  return bytes;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
/** An export `runs` times: the first run's wall time and the medians of wall time, node's CPU and the database server's. */
async function timedExports(studyId: string, format: ExportFormat, runs: number, client: PrismaClient): Promise<void> {
  let bytes = 0;
  let firstMs = 0;
  const postgres: number[] = [];
  const timing = await measureAsync(async () => {
    const pg0 = postgresCpuMs(serverPort);
    const t0 = performance.now();
    bytes = await exportSize(client, studyId, format);
    firstMs ||= performance.now() - t0;
    const pg1 = postgresCpuMs(serverPort);
    if (pg0 !== null && pg1 !== null) postgres.push(pg1 - pg0);
  }, runs);
  const rate = (ms: number) => `${(bytes / 2 ** 20 / (ms / 1000)).toFixed(1)} MiB/s`;
  const pg = postgres.length === 0 ? "" : `, postgres ${(median(postgres) / 1000).toFixed(2)} s`;
  console.log(
    `export ${format} (${mib(bytes)}): first run ${(firstMs / 1000).toFixed(2)} s (${rate(firstMs)}); medians of ${runs}: ${(timing.wallMs / 1000).toFixed(2)} s wall (${rate(timing.wallMs)}), CPU node ${(timing.cpuMs / 1000).toFixed(2)} s${pg}`,
  );
}

/** An export's size and rate (wall time). */
const exported = (bytes: number, seconds: number) => `${mib(bytes)}, ${(bytes / 2 ** 20 / seconds).toFixed(1)} MiB/s`;

export default async function run(): Promise<void> {
  const runs = Number(parseArgs(process.argv.slice(2)).flags.get("runs") ?? 3);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number of at least 1, got ${String(parseArgs(process.argv.slice(2)).flags.get("runs"))}`);
  const database = await createTestDatabase("crjudge_bench_import");
  const client = createClient(database.url);
  serverPort = Number(new URL(database.url).port);
  try {
    const sample = sharedPath("data", "gradedreviews", "gradedreviews-sample-300.xlsx");
    if (existsSync(sample)) {
      const file = { name: "gradedreviews-sample-300.xlsx", content: readFileSync(sample) };
      const summary = await timed("import GradedReviews sample (300 changes, 1,500 reviews, 1,200 grades)", () => importOrFail(client, "bench-gradedreviews", "gradedreviews", file), (s) => `${createdRows(s)} rows created`);
      await timed("re-import GradedReviews sample", () => importOrFail(client, "bench-gradedreviews", "gradedreviews", file), (s) => `${createdRows(s)} rows created`);
      await timed("export gradedreviews workbook", () => exportSize(client, summary.study.id, "gradedreviews"), exported);
    } else console.log(`GradedReviews sample not found at ${sample}: skipped`);

    const file = { name: "bench-100k-reviews.jsonl", content: generatedJsonl() };
    console.log(`generated JSONL: ${CHANGES.toLocaleString("en")} code changes, ${(CHANGES * 10).toLocaleString("en")} reviews, ${mib(file.content.length)}`);
    const summary = await timed("import 100,000-review JSONL", () => importOrFail(client, "bench-jsonl", "jsonl", file), (s) => `${createdRows(s).toLocaleString("en")} rows created`);
    await timed("re-import 100,000-review JSONL", () => importOrFail(client, "bench-jsonl", "jsonl", file), (s) => `${createdRows(s)} rows created, ${s.counts.reviews.unchanged.toLocaleString("en")} reviews unchanged`);
    await timedExports(summary.study.id, "jsonl", runs, client);
    await timedExports(summary.study.id, "long-csv", runs, client);
  } finally {
    await client.$disconnect();
    await database.drop();
    await database.server.stop();
  }
}
