/**
 * `npm start` as an account runs it: embedded PostgreSQL when DATABASE_URL is unset, data kept
 * across a stop and restart, clean shutdown on SIGTERM; an external DATABASE_URL starts no
 * embedded server.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { serverAnswers } from "@/lib/db/embedded-postgres";
import { freePort } from "@/lib/db/test-database";
import { signIn, testDb } from "./fixtures";
import { startProduct, stopAllProducts, stopProduct } from "./product";

const lead = { email: "restart.lead@e2e.test", password: "restart-lead-pw" };

async function createAnnotator(page: Page, base: string, email: string) {
  await page.goto(`${base}/admin/accounts`);
  const form = page.getByRole("form", { name: "Create account" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill("kept-password-1");
  await form.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("status")).toHaveText("Account created.");
}

test.describe.configure({ timeout: 300_000 });

test.afterEach(stopAllProducts);

test("the embedded default keeps every row across a restart and stops cleanly", async ({ page }) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "crjudge-restart-"));
  chmodSync(dataDir, 0o755);
  const pgPort = await freePort();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { CRJUDGE_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), NEXTAUTH_URL: base, LEAD_EMAIL: lead.email, LEAD_PASSWORD: lead.password };
  try {
    const first = await startProduct(env, port);
    expect(first.output()).toContain("embedded PostgreSQL");
    expect(first.output()).toContain("seeded the demo study");
    await signIn(page, lead, base);
    await createAnnotator(page, base, "kept@e2e.test");
    expect(await stopProduct(first)).toBe(0);
    expect(await serverAnswers(pgPort)).toBe(false);

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
    expect(await serverAnswers(pgPort)).toBe(false);
    const studies = await testDb().study.count();
    expect(studies).toBeGreaterThan(0);
    expect(await stopProduct(started)).toBe(0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
