/**
 * `npm run bench -- load [--annotators N] [--seconds S] [--web-processes N] [--profile DIR]`
 *: a crowd of N annotators against the production build, through the real HTTP routes.
 *
 * On a fresh embedded PostgreSQL (durable: fsync on, as `npm start` runs it) it creates a study
 * of 4 code changes with 5 claims each, N annotator accounts (create-account --from-csv's function,
 * generated passwords) and their assignments (assign's function: every annotator gets every
 * item), starts the web server as `npm start` runs it (scripts/web.ts: Next in
 * CRJUDGE_WEB_PROCESSES cluster workers, 2 by default) on a free port (building the app first
 * when there is none or it is older than the sources, as npm start does),
 * signs every annotator in through next-auth's credentials flow, reads their queue and workspaces
 * and then saves claim judgements with versions in two phases:
 *  - open loop: each annotator saves at Poisson arrivals, on average every 2 s (N/2 saves/s
 *    offered), whatever the server's speed; latencies (first send to acknowledgement) come from
 *    this phase;
 *  - closed loop: each annotator saves again as soon as the previous save is acknowledged, which
 *    finds the saturation throughput.
 * A 503 is retried after its Retry-After with jittered exponential backoff, as the workspace does;
 * it is an error only when the save is never acknowledged. Afterwards every acknowledged save
 * (annotation, version, value) is looked up in the append-only history.
 * `--profile DIR` runs the server with `node --cpu-prof` and leaves the profiles in DIR (one per
 * process and thread; the summary adds up the web processes' main threads).
 * The last line on stdout is one JSON object with the figures.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { parseArgs } from "@/lib/cli/args";
import { createClient, type PrismaClient } from "@/lib/db/client";
import { createTestDatabase, freePort } from "@/lib/db/test-database";
import { backoffDelay, parseRetryAfter } from "@/lib/http/retry";
import { unifiedDiff } from "@/lib/diff";
import { buildIfStale } from "../build-app";
import { selfTimes, topLines, type CpuProfile } from "./support/cpu-profile";

const ITEMS = 4;
const CLAIMS_PER_ITEM = 5;
const CODES = ["CORRECT", "INCORRECT", "UNVERIFIABLE", "AMBIGUOUS", "INCOMPLETE"] as const;
const MAX_ATTEMPTS = 8;

interface Options {
  annotators: number;
  seconds: number;
  webProcesses: number;
  profileDir: string | null;
}

function readOptions(): Options {
  const args = parseArgs(process.argv.slice(2));
  const whole = (name: string, fallback: number) => {
    const raw = args.flags.get(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number of at least 1, got ${String(raw)}`);
    return value;
  };
  const profile = args.flags.get("profile");
  return { annotators: whole("annotators", 200), seconds: whole("seconds", 60), webProcesses: whole("web-processes", Number(process.env.CRJUDGE_WEB_PROCESSES ?? 2) || 2), profileDir: profile === undefined ? null : path.resolve(profile === true ? ".bench-profile" : profile) };
}

// ---------------------------------------------------------------------------------------------
// HTTP: node:http with keep-alive (lighter than fetch; the client shares the machine's cores)

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(port: number, method: string, url: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, method, path: url, agent, headers: { origin: `http://127.0.0.1:${port}`, ...headers, ...(body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

function cookiesOf(reply: Reply): string[] {
  return (reply.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]);
}

// ---------------------------------------------------------------------------------------------
// The study, the crowd and the server

async function createStudy(client: PrismaClient, slug: string): Promise<void> {
  const study = await client.study.create({ data: { slug, name: "Load study", tasks: ["CLAIM_VERIFICATION"], annotatorsPerItem: 1, reliabilitySetSize: ITEMS, assignmentSeed: 7 } });
  for (let n = 0; n < ITEMS; n++) {
    const oldFile = `def f${n}(x):\n    return x\n`;
    const newFile = `def f${n}(x):\n    if x is None:\n        return 0\n    return x + ${n}\n`;
    const change = await client.codeChange.create({
      data: { studyId: study.id, externalId: `load-${n}`, filePath: `f${n}.py`, language: "python", diff: unifiedDiff(oldFile, newFile, { path: `f${n}.py` }), oldFile, newFile, position: n },
    });
    await client.pseudoReference.createMany({
      data: Array.from({ length: CLAIMS_PER_ITEM }, (_, k) => ({ codeChangeId: change.id, externalId: `claim-${k}`, kind: "CLAIM" as const, text: `claim ${k} about change ${n}`, source: "bench", position: k })),
    });
  }
}

async function createCrowd(annotators: number, slug: string): Promise<{ email: string; password: string }[]> {
  const { addAccountsFromCsv, assignByEmail } = await import("@/lib/data/crowd");
  const csv = ["email,role,name,password", ...Array.from({ length: annotators }, (_, i) => `load${i}@bench.test,annotator,Load ${i},`)].join("\n");
  const accounts = await addAccountsFromCsv({ name: "crowd.csv", content: Buffer.from(csv) });
  await assignByEmail(slug, { allAnnotators: true });
  return accounts.map((a) => ({ email: a.email, password: a.generatedPassword! }));
}

/**
 * NODE_OPTIONS without the "server-only" resolve hook that `npm run bench` adds for the CLI and
 * worker it starts from their sources: `npm start` starts the web server without it (Next's
 * build resolves "server-only" itself), and with it every web process took about a
 * tenth more CPU per save (measured side by side on a loaded machine).
 */
function withoutServerOnlyHook(options: string | undefined): string {
  return (options ?? "")
    .split(/\s+/)
    .filter((option) => option !== "" && !/^--import=\S*server-only\.mjs$/.test(option))
    .join(" ");
}

async function startServer(root: string, port: number, databaseUrl: string, options: Options): Promise<ChildProcess> {
  if (options.profileDir) mkdirSync(options.profileDir, { recursive: true });
  // The cluster workers inherit the primary's node options, --cpu-prof included.
  const server = spawn(process.execPath, [...(options.profileDir ? ["--cpu-prof", "--cpu-prof-dir", options.profileDir] : []), "--import", "tsx", path.join(root, "scripts", "web.ts")], {
    cwd: root,
    env: {
      ...process.env,
      NODE_OPTIONS: withoutServerOnlyHook(process.env.NODE_OPTIONS),
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      CRJUDGE_WEB_PROCESSES: String(options.webProcesses),
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: "load-bench",
      NEXTAUTH_SECRET: "load-bench",
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await send(port, "GET", "/api/health", {})).status === 200) return server;
    } catch {
      // not listening yet
    }
    if (server.exitCode !== null || Date.now() > deadline) throw new Error("the web server did not answer /api/health within 90 s");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** SIGTERM and wait: the web server stops its workers and exits normally, so `--cpu-prof` writes the profiles. */
async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
}

// ---------------------------------------------------------------------------------------------
// Simulated annotators

interface Target {
  assignmentId: string;
  claimId: string;
  version: number;
  busy: boolean;
}

interface Annotator {
  cookie: string;
  targets: Target[];
  next: number;
}

interface Acknowledged {
  annotationId: string;
  version: number;
  code: string;
}

interface PhaseResult {
  latencies: number[];
  acknowledged: Acknowledged[];
  errors: number;
  retried: number;
  statuses: Map<string, number>;
}

/** Signs in as a person would: a "server is busy" answer (pool wait ran out) is tried again after a pause. */
async function signIn(port: number, account: { email: string; password: string }): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await signInOnce(port, account);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !/busy/.test(decodeURIComponent((error as Error).message))) throw error;
      await sleep(backoffDelay(attempt, 500, 10_000));
    }
  }
}

async function signInOnce(port: number, account: { email: string; password: string }): Promise<string> {
  const csrf = await send(port, "GET", "/api/auth/csrf", {});
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const form = new URLSearchParams({ csrfToken, email: account.email, password: account.password, callbackUrl: "/", json: "true" }).toString();
  const reply = await send(port, "POST", "/api/auth/callback/credentials", { "content-type": "application/x-www-form-urlencoded", cookie: cookiesOf(csrf).join("; ") }, form);
  const session = cookiesOf(reply).find((c) => c.startsWith("next-auth.session-token="));
  if (!session) throw new Error(`sign-in of ${account.email} failed: ${reply.status} ${reply.body.slice(0, 200)}`);
  return session;
}

/** Signs in, reads the queue and each claim-verification workspace (the claims and their versions). */
async function prepareAnnotator(port: number, account: { email: string; password: string }): Promise<Annotator> {
  const cookie = await signIn(port, account);
  const queues = JSON.parse((await send(port, "GET", "/api/me/assignments", { cookie })).body) as { queues: { entries: { id: string; task: string }[] }[] };
  const targets: Target[] = [];
  for (const entry of queues.queues.flatMap((q) => q.entries).filter((e) => e.task === "CLAIM_VERIFICATION")) {
    const reply = await send(port, "GET", `/api/annotations/assignments/${entry.id}`, { cookie });
    if (reply.status !== 200) throw new Error(`workspace ${entry.id}: ${reply.status} ${reply.body.slice(0, 200)}`);
    const workspace = JSON.parse(reply.body) as { claimVerification: { references: { id: string }[]; judgements: Record<string, { version: number }> } };
    for (const claim of workspace.claimVerification.references) targets.push({ assignmentId: entry.id, claimId: claim.id, version: workspace.claimVerification.judgements[claim.id]?.version ?? 0, busy: false });
  }
  if (targets.length === 0) throw new Error(`${account.email} has no claims to judge`);
  return { cookie, targets, next: 0 };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One save as the workspace makes it: retried after 503 and network errors; the latency includes the retries. */
async function save(port: number, annotator: Annotator, target: Target, result: PhaseResult): Promise<void> {
  target.busy = true;
  const code = CODES[(target.version + 1) % CODES.length];
  const body = JSON.stringify({ kind: "judgement", assignmentId: target.assignmentId, targetId: target.claimId, baseVersion: target.version, value: { code, necessary: null, errorType: null, note: "" } });
  const started = performance.now();
  try {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      let reply: Reply | null = null;
      try {
        reply = await send(port, "POST", "/api/annotations", { "content-type": "application/json", cookie: annotator.cookie }, body);
      } catch {
        // connection refused or reset: retried like a 503
      }
      const status = reply ? String(reply.status) : "network";
      result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
      if (reply?.status === 200) {
        const saved = JSON.parse(reply.body) as { id: string; version: number };
        target.version = saved.version;
        result.acknowledged.push({ annotationId: saved.id, version: saved.version, code });
        result.latencies.push(performance.now() - started);
        if (attempt > 1) result.retried++;
        return;
      }
      if (reply && reply.status !== 503) break;
      const wait = Math.max(parseRetryAfter(reply ? (reply.headers["retry-after"] as string | undefined) ?? null : null) ?? 0, backoffDelay(attempt, 500, 10_000));
      await sleep(wait);
    }
    result.errors++;
  } finally {
    target.busy = false;
  }
}

function nextTarget(annotator: Annotator): Target | null {
  for (let i = 0; i < annotator.targets.length; i++) {
    const target = annotator.targets[(annotator.next + i) % annotator.targets.length];
    if (!target.busy) {
      annotator.next = (annotator.next + i + 1) % annotator.targets.length;
      return target;
    }
  }
  return null;
}

const emptyResult = (): PhaseResult => ({ latencies: [], acknowledged: [], errors: 0, retried: 0, statuses: new Map() });

/** Poisson arrivals at `rate` saves per second per annotator, sent whether or not earlier ones returned. */
async function openLoop(port: number, crowd: Annotator[], seconds: number, meanGapMs: number): Promise<PhaseResult> {
  const result = emptyResult();
  const end = performance.now() + seconds * 1000;
  const inFlight = new Set<Promise<void>>();
  await Promise.all(
    crowd.map(async (annotator) => {
      for (;;) {
        await sleep(-Math.log(1 - Math.random()) * meanGapMs);
        if (performance.now() >= end) return;
        const target = nextTarget(annotator);
        if (!target) continue;
        const sending = save(port, annotator, target, result);
        inFlight.add(sending);
        void sending.finally(() => inFlight.delete(sending));
      }
    }),
  );
  await Promise.all(inFlight);
  return result;
}

/** No think time: each annotator saves again as soon as the previous save returns. */
async function closedLoop(port: number, crowd: Annotator[], seconds: number): Promise<PhaseResult & { elapsedMs: number }> {
  const result = emptyResult();
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    crowd.map(async (annotator) => {
      while (performance.now() < end) await save(port, annotator, nextTarget(annotator)!, result);
    }),
  );
  return { ...result, elapsedMs: performance.now() - started };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Acknowledged saves whose history row (annotation, version, value) is missing. */
async function lostAcknowledged(client: PrismaClient, acknowledged: readonly Acknowledged[]): Promise<number> {
  const rows = await client.$queryRawUnsafe<{ key: string }[]>(
    `SELECT "annotationId" || ':' || ("baseVersion" + 1) || ':' || ("newValue"->>'code') AS key FROM "AnnotationHistory" WHERE "kind" = 'CLAIM_JUDGEMENT' AND "action" IN ('CREATE', 'UPDATE')`,
  );
  const stored = new Set(rows.map((r) => r.key));
  return acknowledged.filter((a) => !stored.has(`${a.annotationId}:${a.version}:${a.code}`)).length;
}

/**
 * Where the server's CPU time went: self time by package (or app/lib folder) and by function,
 * summed over the main threads of the web processes whose profiles this run wrote (written since
 * `since`; a profile's name ends in .PID.THREAD.SEQ.cpuprofile, and the other threads are module
 * loaders, idle once the server runs).
 */
function summariseProfile(dir: string, since: number): void {
  const files = readdirSync(dir).filter((f) => /\.0\.\d+\.cpuprofile$/.test(f) && statSync(path.join(dir, f)).mtimeMs >= since);
  if (files.length === 0) return console.log(`no CPU profile in ${dir}`);
  const { byPackage, byFunction, totalMs, seconds } = selfTimes(files.map((file) => JSON.parse(readFileSync(path.join(dir, file), "utf8")) as CpuProfile));
  console.log([`CPU profiles of ${files.length} web process${files.length === 1 ? "" : "es"} in ${dir} (${seconds.toFixed(1)} s):`, " by package:", ...topLines(byPackage, totalMs), " by function:", ...topLines(byFunction, totalMs)].join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Where the CPU goes: the web server, PostgreSQL and this load generator share the machine's cores

/** CPU seconds of a process tree so far: each live process's own time plus what the root reaped of its exited children. */
function treeCpuSeconds(root: number): number {
  const processes = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        // "pid (comm) state ppid … utime stime cutime cstime …": fields after the command's closing parenthesis.
        const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").at(-1)!.split(" ");
        return [{ pid: Number(pid), ppid: Number(fields[1]), own: Number(fields[11]) + Number(fields[12]), reaped: Number(fields[13]) + Number(fields[14]) }];
      } catch {
        return []; // exited meanwhile
      }
    });
  const inTree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of processes) if (!inTree.has(p.pid) && inTree.has(p.ppid)) grew = inTree.add(p.pid).size > 0;
  }
  const ticks = processes.filter((p) => inTree.has(p.pid)).reduce((sum, p) => sum + p.own + (p.pid === root ? p.reaped : 0), 0);
  return ticks / 100; // USER_HZ
}

interface CpuMeter {
  read: () => { web: number; database: number; generator: number };
}

function cpuMeter(webPid: number, postmasterPid: number): CpuMeter {
  return {
    read: () => {
      const own = process.cpuUsage();
      return { web: treeCpuSeconds(webPid), database: treeCpuSeconds(postmasterPid), generator: (own.user + own.system) / 1e6 };
    },
  };
}

/** "CPU per save: web server 3.1 ms, PostgreSQL 1.2 ms, load generator 0.6 ms" between two readings. */
function cpuPerSave(before: ReturnType<CpuMeter["read"]>, after: ReturnType<CpuMeter["read"]>, saves: number): string {
  const per = (key: keyof typeof before) => `${(((after[key] - before[key]) * 1000) / Math.max(1, saves)).toFixed(2)} ms`;
  return `CPU per acknowledged save: web server ${per("web")}, PostgreSQL ${per("database")}, load generator ${per("generator")}`;
}

/** The postmaster: the parent of this connection's backend. */
async function postmasterPid(client: PrismaClient): Promise<number> {
  const [{ pid }] = await client.$queryRawUnsafe<{ pid: number }[]>("SELECT pg_backend_pid() AS pid");
  return Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").at(-1)!.split(" ")[1]);
}

const ms = (value: number) => Math.round(value * 10) / 10;
const statusLine = (statuses: Map<string, number>) => [...statuses].map(([status, n]) => `${status}: ${n}`).join(", ");

export default async function loadBench(): Promise<void> {
  const options = readOptions();
  const root = path.resolve(import.meta.dirname, "../..");
  buildIfStale(root, console.log);
  const database = await createTestDatabase("crjudge_load", { durable: true });
  process.env.DATABASE_URL = database.url;
  const client = createClient(database.url);
  let server: ChildProcess | null = null;
  try {
    const slug = "load-bench";
    let t0 = performance.now();
    await createStudy(client, slug);
    const accounts = await createCrowd(options.annotators, slug);
    console.log(`setup: ${options.annotators} annotators, ${ITEMS * CLAIMS_PER_ITEM} claims each, in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const port = await freePort();
    const serverStarted = Date.now();
    server = await startServer(root, port, database.url, options);
    t0 = performance.now();
    const crowd: Annotator[] = [];
    // Sign-ins (bcrypt) and workspace reads, a few at a time as annotators arrive.
    for (let i = 0; i < accounts.length; i += 8) crowd.push(...(await Promise.all(accounts.slice(i, i + 8).map((a) => prepareAnnotator(port, a)))));
    console.log(`sign-in and workspace reads: ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const meter = cpuMeter(server.pid!, await postmasterPid(client));
    const offeredPerSecond = options.annotators / 2;
    const openCpu = meter.read();
    const open = await openLoop(port, crowd, options.seconds, 2000);
    const closedCpu = meter.read();
    const sorted = open.latencies.slice().sort((a, b) => a - b);
    console.log(
      `open loop (${offeredPerSecond} saves/s offered for ${options.seconds} s): ${open.acknowledged.length} acknowledged (${(open.acknowledged.length / options.seconds).toFixed(1)}/s), ${open.errors} errors, ${open.retried} acknowledged after a retry; ` +
        `p50 ${ms(percentile(sorted, 50))} ms, p95 ${ms(percentile(sorted, 95))} ms, p99 ${ms(percentile(sorted, 99))} ms, max ${ms(sorted.at(-1) ?? NaN)} ms; answers ${statusLine(open.statuses)}`,
    );
    console.log(`  ${cpuPerSave(openCpu, closedCpu, open.acknowledged.length)}`);
    const closed = await closedLoop(port, crowd, options.seconds);
    const throughput = closed.acknowledged.length / (closed.elapsedMs / 1000);
    const closedSorted = closed.latencies.slice().sort((a, b) => a - b);
    console.log(
      `closed loop (${options.annotators} annotators, no think time, ${options.seconds} s): ${closed.acknowledged.length} acknowledged, ${throughput.toFixed(1)} saves/s, ${closed.errors} errors, ${closed.retried} after a retry; ` +
        `p50 ${ms(percentile(closedSorted, 50))} ms, p95 ${ms(percentile(closedSorted, 95))} ms; answers ${statusLine(closed.statuses)}`,
    );
    console.log(`  ${cpuPerSave(closedCpu, meter.read(), closed.acknowledged.length)}`);

    const acknowledged = [...open.acknowledged, ...closed.acknowledged];
    const lost = await lostAcknowledged(client, acknowledged);
    console.log(`checked ${acknowledged.length} acknowledged saves in the history: ${lost} missing`);
    if (options.profileDir) {
      await stopServer(server);
      summariseProfile(options.profileDir, serverStarted);
    }
    console.log(
      JSON.stringify({
        annotators: options.annotators,
        seconds: options.seconds,
        offeredPerSecond,
        acknowledged: acknowledged.length,
        errors: open.errors + closed.errors,
        lostAcknowledged: lost,
        p50Ms: ms(percentile(sorted, 50)),
        p95Ms: ms(percentile(sorted, 95)),
        p99Ms: ms(percentile(sorted, 99)),
        maxThroughputPerSecond: Math.round(throughput * 10) / 10,
      }),
    );
  } finally {
    if (server) await stopServer(server);
    agent.destroy();
    await client.$disconnect();
    await database.drop();
  }
}
