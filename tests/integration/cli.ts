/** Runs the command line against the integration tests' database, as `npm run cli -- ARGS` would. */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { inject } from "vitest";

const run = promisify(execFile);

/** `npm run cli -- ARGS` against the test database; the exit code, stdout and stderr. */
export async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(path.resolve("node_modules/.bin/tsx"), ["scripts/cli.ts", ...args], { env: { ...process.env, DATABASE_URL: inject("databaseUrl") } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
