/**
 * Pseudo-reference generation:
 *  - the static analyzers' time for one code change per language alone (the real tools on the
 *    test fixtures' changes: JSHint in process, PMD a JVM, pylint, radon and the PyScent
 *    detectors a Python process each), median of 3;
 *  - smells runs end to end through the job queue, as the CLI drains them (its own database):
 *    `--changes N` (default 100) Java and as many Python changes (the fixtures' changes with
 *    variations), in the queue's chunks, alternating with `--per-change N` of the same changes
 *    (default 10) taken one job at a time as before chunks, so each analyzer starting per change;
 *    `--runs N` rounds (default 3), medians of wall time and of the CPU of this process, the
 *    analyzers and PostgreSQL;
 *  - the same through the queue for 100 Java changes of real code: classes of 30 methods taken from
 *    GradedReviews' `relatedCode` (real Java methods, one line each), a method replaced in each,
 *    when ../shared has the sample workbook; a stand-in for real Java study files, which are not here;
 *  - the CLI (`npm run cli -- pseudo-refs --source smells`, the bundle, in its own process) on
 *    the 100 Python changes of CRScore's phase-1 sheet with their context files, when
 *    ../shared (or CRJUDGE_SHARED_DIR) has them, `--cli-runs N` times (default `--runs`; 0 skips it);
 *  - LLM claim generation's throughput (prompt filled, request, answer parsed) against a
 *    loopback chat server answering at once or after 20 ms, without the PostgreSQL response
 *    cache. Never a model's speed.
 * The load average is printed with each figure: on a shared machine the wall times are the load's.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type PgBoss from "pg-boss";
import { parseArgs } from "@/lib/cli/args";
import { unifiedDiff } from "@/lib/diff";
import { ErrorCollector } from "@/lib/import/errors";
import { readSheetFile } from "@/lib/import/xlsx";
import { createClient, type PrismaClient } from "@/lib/db/client";
import { createTestDatabase } from "@/lib/db/test-database";
import { runImport } from "@/lib/data/imports";
import { createJobContext } from "@/lib/metric-runs";
import { startQueue } from "@/lib/jobs";
import { STATIC_ANALYSIS_CHUNK } from "@/lib/pseudo-refs";
import { askParsed, createChatClient } from "@/lib/judges";
import { DEFAULT_CLAIM_PROMPT, fillClaimPrompt, parseClaims } from "@/lib/pseudo-refs/claim-prompt";
import { drainPseudoReferenceRun, startPseudoReferenceRun } from "@/lib/pseudo-refs";
import { analyzeChanges, type ChangeToAnalyze, detectAnalyzers } from "@/lib/static-analysis";
import { javaVariant, JAVA_CHANGE, JS_CHANGE, PYTHON_CHANGE, pythonVariant } from "../../tests/unit/static-analysis/fixtures";
import { sharedPath } from "../../tests/shared-data";
import { postgresCpuMs, processTreeCpuMs } from "./support/postgres-cpu";
import { median } from "./support/timing";

const ANSWER = "CHANGES:\n- A parameter path is added to load.\nIMPLICATIONS:\n- Callers choose the file.";
const load = () => `load ${loadavg().map((l) => l.toFixed(1)).join(" ")} (${availableParallelism()} cores)`;

async function analyzers(versions: Record<string, string>): Promise<void> {
  for (const change of [JS_CHANGE, JAVA_CHANGE, PYTHON_CHANGE]) {
    const tools = { javascript: ["jshint"], java: ["pmd"], python: ["pylint", "radon", "pyscent"] }[change.language];
    if (tools.some((t) => !versions[t])) continue;
    const walls: number[] = [];
    const perTool: Record<string, number[]> = {};
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const [result] = await analyzeChanges([change], versions);
      walls.push((performance.now() - t0) / 1000);
      for (const [tool, tally] of Object.entries(result.tools)) (perTool[tool] ??= []).push(tally.seconds);
    }
    const tally = Object.entries(perTool).map(([tool, s]) => `${tool} ${median(s).toFixed(2)} s`).join(", ");
    console.log(`analysis of one code change alone, ${change.language.padEnd(10)} ${median(walls).toFixed(2).padStart(6)} s median of 3 (new and old file; ${tally})   ${load()}`);
  }
}

/** Wall seconds and CPU seconds of this process, of its child processes (the analyzers, the CLI) and of PostgreSQL. */
interface Cost {
  wall: number;
  node: number;
  children: number;
  postgres: number;
}

/** The cost of `work`: this process's tree less itself and the database server (a child too). */
async function costOf(port: number, work: () => Promise<unknown>): Promise<Cost> {
  const [tree0, pg0, c0, t0] = [processTreeCpuMs(process.pid) ?? 0, postgresCpuMs(port) ?? 0, process.cpuUsage(), performance.now()];
  await work();
  const wall = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(c0);
  const node = (used.user + used.system) / 1e6;
  const postgres = ((postgresCpuMs(port) ?? 0) - pg0) / 1000;
  const tree = ((processTreeCpuMs(process.pid) ?? 0) - tree0) / 1000;
  return { wall, node, children: Math.max(0, tree - node - postgres), postgres };
}

const describe = (costs: readonly Cost[], changes: number) => {
  const m = (key: keyof Cost) => median(costs.map((c) => c[key]));
  return `${m("wall").toFixed(1).padStart(6)} s wall (${(m("wall") / changes).toFixed(2)} s a change; runs ${costs.map((c) => c.wall.toFixed(1)).join(", ")}), CPU: this process ${m("node").toFixed(1)} s, analyzers ${m("children").toFixed(1)} s, PostgreSQL ${m("postgres").toFixed(1)} s`;
};

let studies = 0;

/** A new study of `changes` (jsonl import), its id. */
async function importChanges(client: PrismaClient, changes: readonly ChangeToAnalyze[]): Promise<string> {
  const lines = changes.map((c, i) => JSON.stringify({ id: `c${i}`, language: c.language, filePath: c.filePath, diff: c.diff, oldFile: c.oldFile, newFile: c.newFile, reviews: [{ id: "r", system: "s", text: "ok" }] }));
  const result = await runImport({ study: `bench-smells-${++studies}`, format: "jsonl", files: [{ name: "changes.jsonl", content: Buffer.from(`${lines.join("\n")}\n`) }] }, client);
  if (result.status !== "imported") throw new Error(`bench import ${result.status}: ${JSON.stringify(result).slice(0, 400)}`);
  return result.summary.study.id;
}

/** A smells run of the study through the queue, drained here in jobs of `chunk` as the CLI does. */
async function smellsRun(client: PrismaClient, boss: PgBoss, studyId: string, chunk: number): Promise<void> {
  const context = createJobContext();
  const started = await startPseudoReferenceRun(context, boss, studyId, "smells");
  const run = await drainPseudoReferenceRun(boss, context, started.run.id, { chunk });
  if (run.status !== "DONE") throw new Error(`smells run ${run.status}: ${run.error}`);
}

async function queueRuns(client: PrismaClient, boss: PgBoss, port: number, { runs, count, perChange }: { runs: number; count: number; perChange: number }): Promise<void> {
  for (const [language, variant] of [["Java", javaVariant], ["Python", pythonVariant]] as const) {
    const changes = Array.from({ length: count }, (_, i) => variant(i));
    const chunked: Cost[] = [];
    const single: Cost[] = [];
    for (let round = 0; round < runs; round++) {
      // Alternating which goes first, so that neither always meets the same moment of the machine's load.
      const steps = [
        async () => chunked.push(await costOf(port, async () => smellsRun(client, boss, await importChanges(client, changes), STATIC_ANALYSIS_CHUNK))),
        async () => perChange > 0 && single.push(await costOf(port, async () => smellsRun(client, boss, await importChanges(client, changes.slice(0, perChange)), 1))),
      ];
      for (const step of round % 2 === 0 ? steps : steps.reverse()) await step();
    }
    console.log(`smells run, ${count} ${language} changes, jobs in chunks of ${STATIC_ANALYSIS_CHUNK}: ${describe(chunked, count)}   ${load()}`);
    if (single.length > 0) {
      const ratio = median(single.map((c) => c.wall)) / perChange / (median(chunked.map((c) => c.wall)) / count);
      console.log(`smells run, ${perChange} ${language} changes, one job at a time:  ${describe(single, perChange)}; chunks ${ratio.toFixed(1)}x faster a change`);
    }
  }
}

const GRADED = sharedPath("data", "gradedreviews", "gradedreviews-sample-300.xlsx");

/** GradedReviews' methods (the `relatedCode` column, "code2comment :" before each), in row order. */
async function gradedMethods(): Promise<string[]> {
  const errors = new ErrorCollector();
  const sheet = await readSheetFile({ name: GRADED, content: readFileSync(GRADED) }, "工作表1", errors);
  const column = sheet?.header.indexOf("relatedCode") ?? -1;
  if (!sheet || column < 0) throw new Error(`${GRADED}: no sheet 工作表1 with a relatedCode column ${JSON.stringify(errors.errors)}`);
  return sheet.rows.map((row) => (row.cells[column] ?? "").replace(/^\s*code2comment\s*:\s*/, "").trim()).filter(Boolean);
}

/** Change `i`: a class of 30 real methods, whose new file has one of them replaced by the next method of the sample. */
function realJavaChange(methods: readonly string[], i: number): ChangeToAnalyze {
  const pick = (k: number) => methods[(i * 3 + k) % methods.length];
  const body = (replaced: number) => ["package bench;", "", `public class Real${i} {`, ...Array.from({ length: 30 }, (_, k) => `    ${pick(k === replaced ? 30 : k)}`), "}", ""].join("\n");
  const filePath = `src/main/java/bench/Real${i}.java`;
  const [oldFile, newFile] = [body(-1), body(i % 30)];
  return { language: "java", filePath, oldFile, newFile, diff: unifiedDiff(oldFile, newFile, { path: filePath }) };
}

async function realJavaRuns(client: PrismaClient, boss: PgBoss, port: number, runs: number): Promise<void> {
  if (!existsSync(GRADED)) {
    console.log(`Java changes of GradedReviews' methods skipped: ${GRADED} is missing`);
    return;
  }
  const methods = await gradedMethods();
  const changes = Array.from({ length: 100 }, (_, i) => realJavaChange(methods, i));
  const costs: Cost[] = [];
  for (let round = 0; round < runs; round++) costs.push(await costOf(port, async () => smellsRun(client, boss, await importChanges(client, changes), STATIC_ANALYSIS_CHUNK)));
  const kb = changes.reduce((sum, c) => sum + c.oldFile.length + c.newFile.length, 0) / 1024;
  console.log(`smells run, 100 Java changes of GradedReviews' methods (${kb.toFixed(0)} KB of old and new files), chunks of ${STATIC_ANALYSIS_CHUNK}: ${describe(costs, 100)}   ${load()}`);
}

const PHASE1 = sharedPath("data", "crscore", "phase1");

/** The CLI on CRScore's phase-1 Python sheet (100 changes with their context files), in a process of its own from the bundle, as `npm run cli` runs it. */
async function phase1Cli(client: PrismaClient, url: string, port: number, runs: number): Promise<void> {
  if (!existsSync(PHASE1)) {
    console.log(`CLI on CRScore's phase-1 Python changes skipped: ${PHASE1} is missing`);
    return;
  }
  const context = new Map(readdirSync(path.join(PHASE1, "context_files")).map((name) => [name, readFileSync(path.join(PHASE1, "context_files", name), "utf8")]));
  const cli = (...args: string[]) => promisify(execFile)(process.execPath, ["scripts/run.mjs", "cli", ...args], { env: { ...process.env, DATABASE_URL: url }, maxBuffer: 64 * 2 ** 20 });
  // Untimed: builds the CLI's bundle when the sources are newer.
  await cli("db-status");
  const costs: Cost[] = [];
  let changes = 0;
  for (let round = 0; round < runs; round++) {
    const slug = `bench-phase1-${round}`;
    const result = await runImport({ study: slug, format: "crscore-phase1", files: [{ name: "py_claim_acc_annot.csv", content: readFileSync(path.join(PHASE1, "py_claim_acc_annot.csv")) }], context }, client);
    if (result.status !== "imported") throw new Error("phase-1 import refused");
    changes = result.summary.counts.codeChanges.created;
    costs.push(await costOf(port, () => cli("pseudo-refs", "--study", slug, "--source", "smells")));
  }
  console.log(`CLI pseudo-refs --source smells, CRScore phase 1 (${changes} Python changes): ${describe(costs, changes)}   ${load()}`);
}

async function claims(): Promise<void> {
  for (const delayMs of [0, 20]) {
    const body = JSON.stringify({ model: "bench", choices: [{ index: 0, message: { role: "assistant", content: ANSWER }, finish_reason: "stop" }], usage: { prompt_tokens: 300, completion_tokens: 30 } });
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end(body), delayMs));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const maxConcurrency of [1, 4, 16]) {
      const client = createChatClient({ url, model: "bench", maxConcurrency, maxTokens: 1024 }, {});
      const n = delayMs === 0 ? 1000 : maxConcurrency * 25;
      const one = () => askParsed(client, [{ role: "user", content: fillClaimPrompt(DEFAULT_CLAIM_PROMPT, PYTHON_CHANGE) }], parseClaims, 3);
      await Promise.all(Array.from({ length: 10 }, one));
      const t0 = performance.now();
      await Promise.all(Array.from({ length: n }, one));
      const seconds = (performance.now() - t0) / 1000;
      console.log(`claim generation, server delay ${String(delayMs).padStart(2)} ms, concurrency ${String(maxConcurrency).padStart(2)} ${(n / seconds).toFixed(0).padStart(7)} changes/s   (${n} in ${seconds.toFixed(2)} s)`);
    }
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

export default async function run(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const whole = (name: string, fallback: number, min: number) => {
    const value = Number(args.flags.get(name) ?? fallback);
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number of at least ${min}, got ${String(args.flags.get(name))}`);
    return value;
  };
  const runs = whole("runs", 3, 1);
  const count = whole("changes", 100, 1);
  const perChange = Math.min(count, whole("per-change", 10, 0));
  const cliRuns = whole("cli-runs", runs, 0);
  const statuses = await detectAnalyzers();
  const versions = Object.fromEntries(statuses.flatMap((s) => (s.available ? [[s.tool, s.version]] : [])));
  const missing = statuses.flatMap((s) => (s.available ? [] : [s.message]));
  if (missing.length) console.log(`skipped: ${missing.join(" ")}`);
  await analyzers(versions);
  if (missing.length === 0) {
    const database = await createTestDatabase("crjudge_bench_pseudo_refs");
    // The runs' queries (lib/data) go through the process's connection to DATABASE_URL.
    process.env.DATABASE_URL = database.url;
    const client = createClient(database.url);
    const boss = await startQueue(database.url, { supervise: false });
    const port = Number(new URL(database.url).port);
    try {
      await queueRuns(client, boss, port, { runs, count, perChange });
      await realJavaRuns(client, boss, port, runs);
      if (cliRuns > 0) await phase1Cli(client, database.url, port, cliRuns);
    } finally {
      await boss.stop({ graceful: false, wait: true });
      await client.$disconnect();
      await database.drop();
    }
  }
  await claims();
}
