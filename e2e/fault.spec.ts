/**
 * Faults while annotators save: `npm start` on its own data folder and ports,
 * six annotators saving claim judgements through the real HTTP route without pause; then
 * `kill -9` of a web server process, then of the PostgreSQL postmaster. Saves resume without
 * help (the other web process serves while the killed one is replaced; the web
 * server is not restarted for the database's death: it reconnects), health never says 500 (503
 * while the database is down, when a poll lands then), every acknowledged save is in the
 * database afterwards, and SIGTERM ends everything within 10 s.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, request, test, type APIRequestContext } from "@playwright/test";
import { createClient } from "@/lib/db/client";
import { serverAnswers } from "@/lib/db/embedded-postgres";
import { embeddedServerUrl } from "@/lib/db/embedded-server";
import { freePort } from "@/lib/db/test-database";
import { addAccount } from "@/lib/data/accounts";
import { startProduct, stopAllProducts, type Started } from "./product";

const ANNOTATORS = 6;
/**
 * Recovery takes 1-7 s on this machine kind when it is moderately busy (target: 15 s); the bound
 * is looser so a CI run sharing two cores with other work proves "no human needed" without
 * flaking. The measured times are printed.
 */
const RECOVERY_LIMIT_MS = 30_000;
const PASSWORD = "fault-annotator-1";

test.describe.configure({ timeout: 180_000 });
test.afterEach(stopAllProducts);

interface Annotator {
  label: string;
  api: APIRequestContext;
  assignmentId: string;
  claims: string[];
  /** Each acknowledged save: its marker (the note) and when the answer came. */
  acknowledged: { marker: string; at: number }[];
  /** The last answer that was neither 200 nor 409 (for the failure message). */
  lastRefusal?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The last pid the supervisor logged for `name` ("[start] web server running (pid N)"). */
function loggedPid(started: Started, name: string): number {
  const pids = [...started.output().matchAll(new RegExp(`${name} running \\(pid (\\d+)\\)`, "g"))].map((m) => Number(m[1]));
  expect(pids.length, `no pid of ${name} in the log`).toBeGreaterThan(0);
  return pids.at(-1)!;
}

/** Saves without think time until `stop()` says so; a lost answer is retried, a 409 resyncs the version. */
async function saveLoop(annotator: Annotator, stop: () => boolean): Promise<void> {
  const versions = new Map<string, number>();
  for (let n = 0; !stop(); n++) {
    const targetId = annotator.claims[n % annotator.claims.length];
    const marker = `${annotator.label}-${n}`;
    const body = { kind: "judgement", assignmentId: annotator.assignmentId, targetId, baseVersion: versions.get(targetId) ?? 0, value: { code: "CORRECT", necessary: true, errorType: null, note: marker } };
    const response = await annotator.api.post("/api/annotations", { data: body, timeout: 5_000, failOnStatusCode: false }).catch(() => null);
    if (response?.status() === 200) {
      versions.set(targetId, ((await response.json()) as { version: number }).version);
      annotator.acknowledged.push({ marker, at: Date.now() });
    } else if (response?.status() === 409) {
      // A save whose answer was lost did reach the database: continue from its version.
      const { conflict } = (await response.json()) as { conflict: { current: { version: number } | null } };
      versions.set(targetId, conflict.current?.version ?? 0);
    } else {
      annotator.lastRefusal = response ? `${response.status()} ${(await response.text().catch(() => "")).slice(0, 200)}` : "no answer";
      await sleep(100);
    }
  }
}

async function waitFor(check: () => boolean, explain: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs / 1000} s: ${explain()}`);
    await sleep(50);
  }
}

/** Time from `since` until every annotator has had a save acknowledged again. */
async function recovery(annotators: Annotator[], since: number): Promise<number> {
  const firstAfter = (a: Annotator) => a.acknowledged.find((ack) => ack.at > since)?.at;
  await waitFor(() => annotators.every((a) => firstAfter(a) !== undefined), () => `saves did not resume: ${annotators.map((a) => `${a.label}: ${a.lastRefusal}`).join("; ")}`);
  return Math.max(...annotators.map((a) => firstAfter(a)!)) - since;
}

test("kill -9 of the web server and of PostgreSQL during saves: no acknowledged save lost, recovery without help", async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "crjudge-fault-"));
  chmodSync(dataDir, 0o755);
  const [port, pgPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const product = await startProduct({ CRJUDGE_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), NEXTAUTH_URL: base, CRJUDGE_SEED_DEMO: "true" }, port);
  const db = createClient(embeddedServerUrl({ dataDir: path.join(dataDir, "postgres"), port: pgPort, database: "crjudge" })!);
  const annotators: Annotator[] = [];
  try {
    // Six annotators, members of the demo study, each with a claim-verification assignment on its item with most claims.
    const study = await db.study.findUniqueOrThrow({ where: { slug: "demo" } });
    const changes = await db.codeChange.findMany({ where: { studyId: study.id }, include: { pseudoReferences: true } });
    const change = changes.sort((a, b) => b.pseudoReferences.length - a.pseudoReferences.length)[0];
    const claims = change.pseudoReferences.map((r) => r.id);
    for (let i = 0; i < ANNOTATORS; i++) {
      const email = `fault-${i}@e2e.test`;
      const account = await addAccount({ email, name: `Fault ${i}`, role: "ANNOTATOR", password: PASSWORD }, db);
      await db.studyMember.create({ data: { studyId: study.id, accountId: account.id, role: "ANNOTATOR" } });
      const assignment = await db.assignment.create({ data: { studyId: study.id, annotatorId: account.id, codeChangeId: change.id, task: "CLAIM_VERIFICATION", position: 0 } });
      const api = await request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
      const csrf = ((await (await api.get("/api/auth/csrf")).json()) as { csrfToken: string }).csrfToken;
      await api.post("/api/auth/callback/credentials", { form: { csrfToken: csrf, email, password: PASSWORD, json: "true" } });
      expect((await api.get("/api/me/assignments")).status()).toBe(200);
      annotators.push({ label: `a${i}`, api, assignmentId: assignment.id, claims, acknowledged: [] });
    }

    let stopSaving = false;
    const loops = annotators.map((a) => saveLoop(a, () => stopSaving));
    await waitFor(() => annotators.every((a) => a.acknowledged.length >= 3), () => annotators.map((a) => `${a.label}: ${a.lastRefusal}`).join("; "));

    // 1. A web server process (Next, in one of the two cluster workers) dies mid-saves.
    const web = loggedPid(product, "web worker 1");
    const webKilled = Date.now();
    process.kill(web, "SIGKILL");
    const webRecovery = await recovery(annotators, webKilled);
    expect(webRecovery).toBeLessThan(RECOVERY_LIMIT_MS);
    await waitFor(() => loggedPid(product, "web worker 1") !== web, () => "the killed web worker was not replaced");
    const webServers = [loggedPid(product, "web worker 1"), loggedPid(product, "web worker 2")];
    await sleep(1_000);

    // 2. The PostgreSQL postmaster dies mid-saves; health answers 503 (never 500) while it is down.
    const postmaster = Number(readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
    const healthStatuses = new Set<number>();
    let watching = true;
    const watchHealth = (async () => {
      while (watching) {
        const response = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
        healthStatuses.add(response?.status ?? 0);
        await sleep(50);
      }
    })();
    const pgKilled = Date.now();
    process.kill(postmaster, "SIGKILL");
    const pgRecovery = await recovery(annotators, pgKilled);
    watching = false;
    await watchHealth;
    expect(pgRecovery).toBeLessThan(RECOVERY_LIMIT_MS);
    // Only 200 or 503, never 500 nor a dropped request. Whether a poll lands in the outage is
    // timing: on a loaded machine PostgreSQL can be back before one does (seen once in CI), so the
    // 503 itself is checked deterministically in tests/integration/health.test.ts.
    expect([...healthStatuses].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    // The web server reconnected by itself: the same processes serve.
    expect([loggedPid(product, "web worker 1"), loggedPid(product, "web worker 2")]).toEqual(webServers);
    expect(product.output()).toContain("PostgreSQL exited");

    await sleep(1_000);
    stopSaving = true;
    await Promise.all(loops);

    // Every acknowledged save is in the history as an accepted change (not a refused conflict).
    const markers = annotators.flatMap((a) => a.acknowledged.map((ack) => ack.marker));
    const stored = await db.$queryRaw<{ note: string }[]>`SELECT "newValue"->>'note' AS note FROM "AnnotationHistory" WHERE kind = 'CLAIM_JUDGEMENT' AND action IN ('CREATE', 'UPDATE')`;
    const notes = new Set(stored.map((row) => row.note));
    expect(markers.filter((marker) => !notes.has(marker))).toEqual([]);
    console.log(`fault test: ${markers.length} acknowledged saves, all present; recovery after kill -9 of the web server ${webRecovery} ms, of PostgreSQL ${pgRecovery} ms`);
    await db.$disconnect();

    // SIGTERM ends the web server, the worker and PostgreSQL within 10 s.
    const stopAsked = Date.now();
    product.process.kill("SIGTERM");
    const code = await new Promise((resolve) => (product.process.exitCode !== null ? resolve(product.process.exitCode) : product.process.once("exit", resolve)));
    const stopMs = Date.now() - stopAsked;
    console.log(`fault test: SIGTERM to exit ${stopMs} ms`);
    expect(code).toBe(0);
    expect(stopMs).toBeLessThan(10_000);
    expect(await serverAnswers(pgPort)).toBe(false);
    expect(await fetch(`${base}/api/health`).catch(() => null)).toBeNull();
  } finally {
    for (const annotator of annotators) await annotator.api.dispose();
    await db.$disconnect();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
