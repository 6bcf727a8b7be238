/** Runs the command line against the integration tests' database, as `npm run cli -- ARGS` would. */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { inject } from "vitest";

const run = promisify(execFile);

type CliResult = { code: number; stdout: string; stderr: string };

async function runAgainstTestDatabase(file: string, args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(file, args, { env: { ...process.env, DATABASE_URL: inject("databaseUrl") } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as CliResult;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The CLI from its sources (`tsx scripts/cli.ts ARGS`) against the test database; the exit code, stdout and stderr. */
export const cli = (...args: string[]) => runAgainstTestDatabase(path.resolve("node_modules/.bin/tsx"), ["scripts/cli.ts", ...args]);

/** The same from the prebuilt bundle, as `npm run cli -- ARGS` runs it (scripts/run.mjs, which rebuilds a stale bundle). */
export const bundledCli = (...args: string[]) => runAgainstTestDatabase(process.execPath, ["scripts/run.mjs", "cli", ...args]);
