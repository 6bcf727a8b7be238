/**
 * Annotators' saves while a big report computes: the production server
 * (`next start`, needs `npx next build`) on a fresh database with the 100,000-rating study of
 * scripts/bench/analysis.ts, one annotator saving ratings through POST /api/annotations at
 * about 10 per second, in three phases:
 *  - idle: nothing else runs;
 *  - worker: a metric worker process computes the agreement report with its bootstrap CIs
 *    (the report job a dashboard asks for);
 *  - in the web process: the same report computed by the web server itself, as before report
 *    jobs (the JSON route with CRJUDGE_REPORT_INLINE_LIMIT raised above the study's size).
 * For each phase: saves, errors, p50 / p95 / max latency.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { studyFingerprint } from "@/lib/data/report-cache";
import { hashPassword } from "@/lib/auth/password";
import { createClient } from "@/lib/db/client";
import { createTestDatabase, freePort } from "@/lib/db/test-database";
import { requestReport } from "@/lib/analysis/report-jobs";
import { createStudy } from "./analysis";

const root = path.resolve(import.meta.dirname, "../..");
const PASSWORD = "bench-password-1";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function start(args: string[], env: Record<string, string>, ready: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes(ready)) resolve(child);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}: ${output.slice(-2000)}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** Signs in through next-auth's credentials flow; returns the Cookie header of the session. */
async function signIn(base: string, email: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const cookies = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; "), origin: base },
    body: new URLSearchParams({ csrfToken, email, password: PASSWORD, json: "true" }),
    redirect: "manual",
  });
  const session = response.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (!session.some((c) => c.includes("session-token"))) throw new Error(`sign-in of ${email} failed: ${response.status}`);
  return [...cookies, ...session].join("; ");
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

export default async function run(): Promise<void> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
    console.log("no production build (.next): run `npx next build` first; skipped");
    return;
  }
  const database = await createTestDatabase("crjudge_bench_reports");
  const client = createClient(database.url);
  const children: ChildProcess[] = [];
  try {
    const studyId = await createStudy(client);
    const passwordHash = await hashPassword(PASSWORD);
    const saver = await client.account.create({ data: { email: "saver@bench.invalid", name: "saver", passwordHash, role: "ANNOTATOR" } });
    const lead = await client.account.create({ data: { email: "lead@bench.invalid", name: "lead", passwordHash, role: "LEAD" } });
    await client.studyMember.createMany({ data: [{ studyId, accountId: saver.id, role: "ANNOTATOR" }, { studyId, accountId: lead.id, role: "LEAD" }] });
    const changes = await client.codeChange.findMany({ where: { studyId }, orderBy: { position: "asc" }, take: 300, select: { id: true, reviews: { select: { id: true } } } });
    const targets: { assignmentId: string; reviewId: string; version: number }[] = [];
    for (const [position, change] of changes.entries()) {
      const assignment = await client.assignment.create({ data: { studyId, annotatorId: saver.id, codeChangeId: change.id, task: "REVIEW_RATING", position } });
      for (const review of change.reviews) targets.push({ assignmentId: assignment.id, reviewId: review.id, version: 0 });
    }

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = { DATABASE_URL: database.url, AUTH_SECRET: "bench-secret-0123456789abcdef0123456789", NEXTAUTH_SECRET: "bench-secret-0123456789abcdef0123456789", NEXTAUTH_URL: base, CRJUDGE_REPORT_INLINE_LIMIT: "100000000" };
    children.push(await start([path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], env, "Ready"));
    const saverCookie = await signIn(base, saver.email);
    const leadCookie = await signIn(base, lead.email);

    let next = 0;
    /** Saves at about 10 per second until `done` resolves; returns the latencies. */
    const saveUntil = async (done: Promise<unknown>) => {
      let finished = false;
      void done.finally(() => (finished = true));
      const latencies: number[] = [];
      let errors = 0;
      while (!finished) {
        const target = targets[next++ % targets.length];
        const t0 = performance.now();
        const response = await fetch(`${base}/api/annotations`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie: saverCookie, origin: base },
          body: JSON.stringify({ kind: "rating", assignmentId: target.assignmentId, baseVersion: target.version, targetId: target.reviewId, value: { scores: { relevance: 1 + (next % 5) }, links: [], comment: "" } }),
        });
        latencies.push(performance.now() - t0);
        if (response.ok) target.version = ((await response.json()) as { version: number }).version;
        else {
          errors++;
          await response.text();
        }
        await sleep(100);
      }
      return { latencies, errors };
    };
    const report = (label: string, ms: number, { latencies, errors }: { latencies: number[]; errors: number }) => {
      const sorted = latencies.slice().sort((a, b) => a - b);
      console.log(`${label.padEnd(44)} ${(ms / 1000).toFixed(1).padStart(6)} s  ${String(sorted.length).padStart(4)} saves, ${errors} errors, p50 ${quantile(sorted, 0.5).toFixed(0)} ms, p95 ${quantile(sorted, 0.95).toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms`);
    };

    await saveUntil(sleep(3000)); // warm-up
    let t0 = performance.now();
    const idle = await saveUntil(sleep(15_000));
    report("idle", performance.now() - t0, idle);

    // The report job a dashboard asks for, computed by a worker process.
    process.env.DATABASE_URL = database.url;
    children.push(await start(["--import", "tsx", path.join(root, "scripts/worker.ts")], env, "metric worker: processing"));
    const options = {};
    const fingerprint = await studyFingerprint(studyId, false);
    t0 = performance.now();
    const computed = (async () => {
      await requestReport("agreement", studyId, options, fingerprint);
      for (;;) {
        const job = await client.reportJob.findFirst({ where: { studyId, fingerprint }, select: { status: true, computeMs: true } });
        if (job?.status === "DONE" || job?.status === "FAILED") return job;
        await sleep(250);
      }
    })();
    const during = await saveUntil(computed);
    const job = await computed;
    report(`worker computes the report (${job.status}, ${((job.computeMs ?? 0) / 1000).toFixed(1)} s)`, performance.now() - t0, during);

    // The same report computed by the web server (no size limit on in-place CIs here).
    t0 = performance.now();
    const inWeb = fetch(`${base}/api/studies/bench-analysis/agreement?seed=2`, { headers: { cookie: leadCookie } }).then(async (r) => `${r.status}, ${(await r.arrayBuffer()).byteLength} bytes`);
    const duringWeb = await saveUntil(inWeb);
    report(`web process computes it (${await inWeb})`, performance.now() - t0, duringWeb);
  } finally {
    for (const child of children) await stop(child);
    await client.$disconnect();
    await database.drop();
  }
}
