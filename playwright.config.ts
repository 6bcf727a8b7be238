import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";
// The tests read and write the database through lib/db and lib/data, which import "server-only":
// resolved here and in every process started from here as in Next's server code (scripts/server-only.mjs).
import "./scripts/server-only.mjs";

process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --import=${new URL("scripts/server-only.mjs", import.meta.url).href}`.trim();

const port = Number(process.env.E2E_PORT ?? 3100);
// Debian's Chromium when present (Playwright cannot download browsers on these machines).
const chromium = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-gpu", "--no-first-run"],
    },
  },
});
