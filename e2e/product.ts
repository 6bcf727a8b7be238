/** `npm start` as an account runs it, for browser tests that start and stop the whole product. */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { expect } from "@playwright/test";

const root = path.resolve(import.meta.dirname, "..");

export interface Started {
  process: ChildProcess;
  output: () => string;
}

const running: Started[] = [];

/**
 * Starts scripts/start.ts with `env` (DATABASE_URL is not inherited) and waits until health
 * answers ok (`timeoutMs`: longer when start.ts may first have to build the app).
 */
export async function startProduct(env: Record<string, string | undefined>, port: number, timeoutMs = 150_000): Promise<Started> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: root,
    env: { ...inherited, PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const started = { process: child, output: () => output };
  running.push(started);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    const health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
    if (health?.ok) {
      expect(await health.json()).toEqual({ status: "ok" });
      return started;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`health did not answer in time:\n${output}`);
}

/** SIGTERM, then the exit code once it has exited. */
export async function stopProduct(started: Started): Promise<number | null> {
  if (started.process.exitCode !== null) return started.process.exitCode;
  started.process.kill("SIGTERM");
  return new Promise((resolve) => (started.process.exitCode !== null ? resolve(started.process.exitCode) : started.process.once("exit", resolve)));
}

/** Stops every product a test started (for afterEach: a failed assertion must not leave one behind). */
export async function stopAllProducts(): Promise<void> {
  for (const started of running.splice(0)) await stopProduct(started);
}
