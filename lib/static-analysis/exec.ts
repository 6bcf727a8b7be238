/** Running an analyzer as a child process: its output whatever its exit code (linters exit non-zero when they find something). */
import { execFile } from "node:child_process";
import { SetupError } from "@/lib/errors";

export interface ExecResult {
  stdout: string;
  stderr: string;
  /** null when the program could not be started (not installed). */
  code: number | null;
}

/**
 * Runs `file args` without a shell, `input` on its standard input; ENOENT gives code null rather
 * than an exception. `path` replaces PATH (where `file` is looked up), e.g. to probe a machine without Java.
 */
export function run(file: string, args: readonly string[], options: { timeoutMs?: number; cwd?: string; input?: string; path?: string } = {}): Promise<ExecResult> {
  const env = { ...process.env, PYTHONDONTWRITEBYTECODE: "1", ...(options.path === undefined ? {} : { PATH: options.path }) };
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024, cwd: options.cwd, env }, (error, stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === "ENOENT") return resolve({ stdout: "", stderr: "", code: null });
      if (error && error.killed) return reject(new SetupError(`${file} did not finish within ${(options.timeoutMs ?? 120_000) / 1000} s`));
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ stdout, stderr, code });
    });
    // A program that exits without reading its input (or was not found) closes the pipe: its exit tells what happened.
    child.stdin?.on("error", () => {});
    child.stdin?.end(options.input);
  });
}

/** Parses a tool's JSON output, with the tool's own error text when it printed none. */
export function toolJson(tool: string, result: ExecResult): unknown {
  try {
    return JSON.parse(result.stdout);
  } catch {
    const detail = (result.stderr || result.stdout).replace(/\s+/g, " ").trim().slice(0, 400);
    throw new SetupError(`${tool} gave no JSON report (exit ${result.code})${detail ? `: ${detail}` : ""}`);
  }
}
