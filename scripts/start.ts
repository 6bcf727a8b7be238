/**
 * `npm start`: the whole product with one command.
 * - DATABASE_URL set: uses that server. Otherwise runs the embedded PostgreSQL (data in .data/,
 *   kept across restarts).
 * - Applies migrations, creates the first admin and lead, seeds the demo study on first start.
 * - Builds the app when there is no build or the sources are newer, then serves it on
 *   HOST:PORT (127.0.0.1:3000).
 * - Supervises the web server (scripts/web.ts: Next in two cluster workers, each replaced when it
 *   dies), the metric worker and the embedded PostgreSQL: whichever dies is started again (with
 *   a growing delay if it keeps dying); Ctrl+C / SIGTERM stops all three within 10 s.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createClient } from "@/lib/db/client";
import {
  clearStaleServer,
  ensureDatabase,
  ensurePassword,
  postmasterReady,
  prepareCluster,
  runningPostmaster,
  spawnPostmaster,
  stopForeignPostmaster,
} from "@/lib/db/embedded-postgres";
import { embeddedDefaults, embeddedUrl } from "@/lib/db/embedded-server";
import { migrate } from "@/lib/db/migrate";
import { supervise, type Supervised } from "@/lib/process/supervise";
import { seedDemo } from "@/lib/data/demo-study";
import { ensureInitialAccounts } from "@/lib/data/accounts";
import { env } from "@/lib/env";
import { buildIfStale } from "./build-app";

const root = path.resolve(import.meta.dirname, "..");
// Every variable is checked here, before anything starts (lib/env.ts).
const dataDir = path.resolve(env().CRJUDGE_DATA_DIR);
const port = env().PORT;
/** Loopback unless HOST says otherwise (e.g. HOST=0.0.0.0 behind a proxy on another machine). */
const host = env().HOST;
const log = (line: string) => console.log(`[start] ${line}`);

/** AUTH_SECRET from the environment, or one generated once and kept with the data. */
function authSecret(): string {
  const configured = env().AUTH_SECRET;
  if (configured) return configured;
  const file = path.join(dataDir, "auth-secret");
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  }
  return readFileSync(file, "utf8").trim();
}

/** What runs, in the order it is stopped: web server and worker first, PostgreSQL last. */
const children: { apps: Supervised[]; postgres?: Supervised } = { apps: [] };

/** The embedded server, supervised; resolves with its URL once it accepts connections. */
async function startEmbedded(): Promise<string> {
  const cluster = await prepareCluster({
    ...embeddedDefaults(),
    log: (line) => log(line),
    serverLog: (line) => {
      // Refusals while it starts or recovers are expected; clients retry.
      if (/ERROR|FATAL|PANIC/.test(line) && !/database system is (starting up|not yet accepting connections)/.test(line)) console.error(`[postgres] ${line}`);
    },
  });
  const leftover = runningPostmaster(cluster.dataDir);
  if (leftover !== undefined) {
    log(`stopping the PostgreSQL server (pid ${leftover}) an earlier start left running`);
    await stopForeignPostmaster(cluster, leftover);
  }
  let ready: Promise<void> | undefined;
  children.postgres = await supervise({
    name: "PostgreSQL",
    log,
    start: () => {
      // After a kill -9: its postmaster.pid and orphaned backends would block the new server.
      clearStaleServer(cluster);
      const child = spawnPostmaster(cluster);
      ready ??= postmasterReady(child);
      return child;
    },
    // SIGINT is PostgreSQL's fast shutdown: open transactions are rolled back, nothing waits.
    end: (child) => child.kill("SIGINT"),
  });
  await ready;
  const password = await ensurePassword(cluster);
  await ensureDatabase(embeddedUrl(cluster.port, "postgres", password), embeddedDefaults().database);
  const url = embeddedUrl(cluster.port, embeddedDefaults().database, password);
  log(`embedded PostgreSQL at ${url.replace(/:[^:@/]*@/, ":***@")}`);
  return url;
}

let stopping: Promise<void> | undefined;
/**
 * Web server and worker first (4 s each, in parallel), then PostgreSQL (4 s), then exit: under
 * 10 s. None is started again meanwhile: after Ctrl-C, PostgreSQL's own SIGINT ends it while the
 * others are being stopped.
 */
function stopAll(reason: string, code: number): Promise<void> {
  stopping ??= (async () => {
    for (const child of [...children.apps, children.postgres]) child?.hold();
    log(`${reason}: stopping`);
    setTimeout(() => process.exit(code || 1), 9_500).unref();
    await Promise.all(children.apps.map((child) => child.stop(4_000)));
    await children.postgres?.stop(4_000);
    log("stopped");
    process.exit(code);
  })();
  return stopping;
}

// Whatever ends this process, no child outlives it.
process.on("exit", () => {
  for (const child of [...children.apps, children.postgres]) child?.current()?.kill("SIGKILL");
});
process.on("SIGINT", () => void stopAll("SIGINT", 0));
process.on("SIGTERM", () => void stopAll("SIGTERM", 0));
// `kill -TERM <npm>` ends npm without passing the signal on: under `npm start`, the end of npm
// is the signal to stop.
if (process.env.npm_lifecycle_event === "start") {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void stopAll("npm ended", 0);
  }, 500).unref();
}

async function main() {
  let url = env().DATABASE_URL;
  if (url) log("using DATABASE_URL");
  else url = await startEmbedded();
  await migrate(url);

  // A long wait for a connection: a busy machine must slow the first start, not fail it.
  const client = createClient(url, { size: 2, waitMs: 60_000 });
  for (const account of await ensureInitialAccounts(client)) {
    log(`created ${account.role.toLowerCase()} account ${account.email}${account.generated ? ` with password ${account.password} (shown once; change it or set ${account.role}_PASSWORD)` : ""}`);
  }
  if (env().CRJUDGE_SEED_DEMO !== "false") {
    const seeded = await seedDemo(client);
    if (seeded.created) log("seeded the demo study (annotators ann1@demo.local / ann2@demo.local, password demo-annotator)");
  }
  await client.$disconnect();

  buildIfStale(root, log);
  if (stopping) return;

  const childEnv = {
    ...process.env,
    DATABASE_URL: url,
    AUTH_SECRET: authSecret(),
    NEXTAUTH_SECRET: authSecret(),
    NEXTAUTH_URL: env().NEXTAUTH_URL ?? `http://localhost:${port}`,
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_ENV: "production" as const,
    PORT: String(port),
    HOST: host,
  };
  const start = (command: string[]): ChildProcess => spawn(process.execPath, command, { cwd: root, stdio: "inherit", env: childEnv });
  children.apps.push(await supervise({ name: "web server", log, start: () => start(["--import", "tsx", path.join(root, "scripts", "web.ts")]) }));
  log(`serving on http://${host === "0.0.0.0" || host === "::" ? "localhost" : host}:${port}`);
  // Metric runs started from the pages are computed by this worker (pg-boss queue).
  children.apps.push(await supervise({ name: "metric worker", log, start: () => start([path.join(root, "scripts", "run.mjs"), "worker"]) }));
}

main().catch((error: unknown) => {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  void stopAll("could not start", 1);
});
