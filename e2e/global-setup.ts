/**
 * Browser tests run against the production build (`next start`) on a fresh, migrated test
 * database with the first accounts and the demo study, as a new user would have them.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { createClient } from "@/lib/db/client";
import { createTestDatabase } from "@/lib/db/test-database";
import { seedDemo } from "@/lib/data/demo-study";
import { ensureInitialAccounts } from "@/lib/data/accounts";
import { E2E_ACCOUNTS } from "./accounts";

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export default async function globalSetup() {
  const database = await createTestDatabase("crjudge_e2e");
  const client = createClient(database.url);
  await ensureInitialAccounts(client, {
    ADMIN_EMAIL: E2E_ACCOUNTS.admin.email,
    ADMIN_PASSWORD: E2E_ACCOUNTS.admin.password,
    LEAD_EMAIL: E2E_ACCOUNTS.lead.email,
    LEAD_PASSWORD: E2E_ACCOUNTS.lead.password,
  });
  await seedDemo(client);
  await client.$disconnect();

  const port = Number(process.env.E2E_PORT ?? 3100);
  const root = path.resolve(import.meta.dirname, "..");
  const server = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: database.url, AUTH_SECRET: "e2e-secret", NEXTAUTH_SECRET: "e2e-secret", NEXTAUTH_URL: `http://127.0.0.1:${port}`, NEXT_TELEMETRY_DISABLED: "1", CRJUDGE_IMPORT_MAX_MB: "4" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  process.env.E2E_DATABASE_URL = database.url;
  await waitForHealth(`http://127.0.0.1:${port}/api/health`, 60_000);

  return async () => {
    server.kill("SIGTERM");
    await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once("exit", resolve)));
    await database.drop();
  };
}
