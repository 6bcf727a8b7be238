/**
 * `npm start` as a user runs it: embedded PostgreSQL when DATABASE_URL is unset, data kept
 * across a stop and restart, clean shutdown on SIGTERM; an external DATABASE_URL starts no
 * embedded server.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { canConnect, embeddedUrl } from "@/lib/db/embedded-postgres";
import { freePort } from "@/lib/db/test-database";
import { signIn, testDb } from "./fixtures";

const root = path.resolve(import.meta.dirname, "..");
const lead = { email: "restart.lead@e2e.test", password: "restart-lead-pw" };

interface Started {
  process: ChildProcess;
  output: () => string;
}

async function startProduct(env: Record<string, string | undefined>, port: number): Promise<Started> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: root,
    env: { ...inherited, PORT: String(port), LEAD_EMAIL: lead.email, LEAD_PASSWORD: lead.password, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    const health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
    if (health?.ok) {
      expect(await health.json()).toEqual({ status: "ok", db: "ok" });
      const started = { process: child, output: () => output };
      running.push(started);
      return started;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill("SIGTERM");
  throw new Error(`health did not answer in time:\n${output}`);
}

async function stopProduct(started: Started): Promise<number | null> {
  if (started.process.exitCode !== null) return started.process.exitCode;
  started.process.kill("SIGTERM");
  return new Promise((resolve) => (started.process.exitCode !== null ? resolve(started.process.exitCode) : started.process.once("exit", resolve)));
}

async function createAnnotator(page: Page, base: string, email: string) {
  await page.goto(`${base}/admin/users`);
  const form = page.getByRole("form", { name: "Create account" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill("kept-password-1");
  await form.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("status")).toHaveText("Account created.");
}

test.describe.configure({ timeout: 300_000 });

const running: Started[] = [];
test.afterEach(async () => {
  // A failed assertion must not leave a server (and its PostgreSQL) behind.
  for (const started of running.splice(0)) await stopProduct(started);
});

test("the embedded default keeps every row across a restart and stops cleanly", async ({ page }) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "crjudge-restart-"));
  chmodSync(dataDir, 0o755);
  const pgPort = await freePort();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { CRJUDGE_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), NEXTAUTH_URL: base };
  try {
    const first = await startProduct(env, port);
    expect(first.output()).toContain("embedded PostgreSQL");
    expect(first.output()).toContain("seeded the demo study");
    await signIn(page, lead, base);
    await createAnnotator(page, base, "kept@e2e.test");
    expect(await stopProduct(first)).toBe(0);
    expect(await canConnect(embeddedUrl(pgPort, "postgres"))).toBe(false);

    const second = await startProduct(env, port);
    expect(second.output()).not.toContain("seeded the demo study");
    await page.context().clearCookies();
    await signIn(page, { email: "kept@e2e.test", password: "kept-password-1" }, base);
    await expect(page).toHaveURL(`${base}/annotate`);
    expect(await stopProduct(second)).toBe(0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("with DATABASE_URL set, npm start uses that server and starts no embedded one", async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "crjudge-external-"));
  const port = await freePort();
  const pgPort = await freePort();
  try {
    const started = await startProduct({ DATABASE_URL: process.env.E2E_DATABASE_URL, CRJUDGE_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) }, port);
    expect(started.output()).toContain("using DATABASE_URL");
    expect(existsSync(path.join(dataDir, "postgres"))).toBe(false);
    expect(await canConnect(embeddedUrl(pgPort, "postgres"))).toBe(false);
    const studies = await testDb().study.count();
    expect(studies).toBeGreaterThan(0);
    expect(await stopProduct(started)).toBe(0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
