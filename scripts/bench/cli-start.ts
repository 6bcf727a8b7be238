/**
 * Start time of the CLI: milliseconds from process start to
 * the command's own work (database resolved, migrations checked), for `db-status` against a
 * running embedded server: from the prebuilt bundle through `npm run cli` (scripts/run.mjs,
 * which first checks the bundle is fresh), from the bundle directly (`node <bundle>`), and from
 * the sources through tsx. Medians of several runs, in wall time and in the process's own CPU
 * time at that point (account + system, which a loaded machine inflates far less); also the wall time of the
 * whole command and of node alone (`node -e`, wall and CPU) for scale. The metric worker likewise: from the start of its
 * bundle to its line "processing queue" (ready for jobs), with its CPU time then read from /proc.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { freePort } from "@/lib/db/test-database";
import { migrate } from "@/lib/db/migrate";
import { median } from "./support/timing";

const RUNS = 7;
/** Where scripts/bundle.mjs writes the CLI bundle. */
const BUNDLE = path.join("node_modules", ".cache", "crjudge", "cli", "main.mjs");

interface Start {
  firstWorkMs: number;
  firstWorkCpuMs: number;
  wallMs: number;
}

function measure(command: string[], env: NodeJS.ProcessEnv): Start {
  const runs: Start[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const result = spawnSync(process.execPath, command, { env: { ...env, CRJUDGE_CLI_TRACE: "1" }, encoding: "utf8" });
    const wallMs = performance.now() - t0;
    const traced = /first work at ([\d.]+) ms, cpu ([\d.]+) ms/.exec(result.stderr ?? "");
    if (result.status !== 0 || !traced) throw new Error(`${command.join(" ")} failed: ${result.stderr}`);
    runs.push({ firstWorkMs: Number(traced[1]), firstWorkCpuMs: Number(traced[2]), wallMs });
  }
  const of = (key: keyof Start) => median(runs.map((r) => r[key]));
  return { firstWorkMs: of("firstWorkMs"), firstWorkCpuMs: of("firstWorkCpuMs"), wallMs: of("wallMs") };
}

/** Where scripts/bundle.mjs writes the worker bundle. */
const WORKER_BUNDLE = path.join("node_modules", ".cache", "crjudge", "worker", "main.mjs");
const TICK_MS = 10;

/** CPU milliseconds (account + system) a running process has used, from /proc (Linux); NaN elsewhere. */
function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return Number.NaN;
  }
}

/** The worker's start: wall and CPU time until it reports that it processes its queues; then it is stopped. */
async function workerStart(env: NodeJS.ProcessEnv): Promise<{ readyMs: number; readyCpuMs: number }> {
  const ready: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const child = spawn(process.execPath, [WORKER_BUNDLE], { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    await new Promise<void>((resolve, reject) => {
      child.stderr.on("data", (data: Buffer) => {
        stderr += data.toString();
        if (ready.length === i && stderr.includes("processing queue")) {
          ready.push(performance.now() - t0);
          cpu.push(processCpuMs(child.pid!));
          child.kill("SIGTERM");
        }
      });
      child.on("exit", () => (ready.length > i ? resolve() : reject(new Error(`the worker stopped before it was ready: ${stderr}`))));
    });
  }
  return { readyMs: median(ready), readyCpuMs: median(cpu) };
}

export default async function bench(): Promise<void> {
  const folder = await mkdtemp(path.join(tmpdir(), "crjudge-cli-bench-"));
  const dataDir = path.join(folder, "postgres");
  const port = await freePort();
  const server = await startEmbeddedPostgres({ dataDir, port, database: "crjudge", fast: true });
  try {
    await migrate(server.url);
    const { DATABASE_URL: _external, ...inherited } = process.env;
    const env = { ...inherited, CRJUDGE_DATA_DIR: folder, EMBEDDED_PG_PORT: String(port) };
    const rows = {
      // First, so that scripts/run.mjs has rebuilt the bundle if a source changed.
      "bundle (npm run cli)": measure(["scripts/run.mjs", "cli", "db-status"], env),
      "bundle (node <bundle>)": measure([BUNDLE, "db-status"], env),
      "sources (tsx scripts/cli.ts)": measure(["--import", "tsx", "scripts/cli.ts", "db-status"], env),
    };
    for (const [name, row] of Object.entries(rows))
      console.log(`cli db-status, ${name}: first work at ${row.firstWorkMs.toFixed(0)} ms (cpu ${row.firstWorkCpuMs.toFixed(0)} ms), exit at ${row.wallMs.toFixed(0)} ms (median of ${RUNS})`);
    // Node's own start, for scale: wall time of the process and its CPU time when the script runs.
    const node = Array.from({ length: RUNS }, () => {
      const t0 = performance.now();
      const cpu = Number(spawnSync(process.execPath, ["-e", "const c = process.cpuUsage(); process.stdout.write(String((c.account + c.system) / 1000))"], { encoding: "utf8" }).stdout);
      return { wallMs: performance.now() - t0, cpuMs: cpu };
    });
    console.log(`node alone (-e): ${median(node.map((n) => n.wallMs)).toFixed(0)} ms (cpu ${median(node.map((n) => n.cpuMs)).toFixed(0)} ms, median of ${RUNS})`);
    spawnSync(process.execPath, ["scripts/bundle.mjs"]);
    const worker = await workerStart(env);
    console.log(`worker (node <bundle>): ready at ${worker.readyMs.toFixed(0)} ms (cpu ${worker.readyCpuMs.toFixed(0)} ms, median of ${RUNS})`);
  } finally {
    await server.stop();
    await rm(folder, { recursive: true, force: true });
  }
}
