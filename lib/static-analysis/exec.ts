/** Running an analyzer as a child process: its output whatever its exit code (linters exit non-zero when they find something). */
import { execFile, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { SetupError } from "@/lib/errors";

export interface ExecResult {
  stdout: string;
  stderr: string;
  /** null when the program could not be started (not installed). */
  code: number | null;
}

const childEnv = (path?: string) => ({ ...process.env, PYTHONDONTWRITEBYTECODE: "1", ...(path === undefined ? {} : { PATH: path }) });

/**
 * Runs `file args` without a shell, `input` on its standard input; ENOENT gives code null rather
 * than an exception. `path` replaces PATH (where `file` is looked up), e.g. to probe a machine without Java.
 */
export function run(file: string, args: readonly string[], options: { timeoutMs?: number; cwd?: string; input?: string; path?: string } = {}): Promise<ExecResult> {
  const env = childEnv(options.path);
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

/** A child process that answers each line written to its standard input with one line on its standard output. */
export interface LineProcess {
  /** Writes `line` and resolves with its answer; rejects when the process ends without answering. */
  ask(line: string): Promise<string>;
  /** Closes the process's input and waits for it to exit. */
  end(): Promise<void>;
}

/** Starts `file args` without a shell; killed after `timeoutMs`. */
export function startLineProcess(file: string, args: readonly string[], options: { timeoutMs?: number } = {}): LineProcess {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const child = spawn(file, args, { env: childEnv(), stdio: ["pipe", "pipe", "pipe"] });
  const waiting: { resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  let stderr = "";
  let failure: Error | null = null;
  const fail = (error: Error) => {
    failure ??= error;
    for (const w of waiting.splice(0)) w.reject(failure);
  };
  const timer = setTimeout(() => {
    fail(new SetupError(`${file} did not finish within ${timeoutMs / 1000} s`));
    child.kill("SIGKILL");
  }, timeoutMs);
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr = (stderr + text).slice(-4000)));
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => waiting.shift()?.resolve(line));
  child.stdin.on("error", () => {});
  const exited = new Promise<void>((resolve) => {
    child.on("error", (error: NodeJS.ErrnoException) => {
      fail(new SetupError(error.code === "ENOENT" ? `${file} is not installed` : `${file} could not start: ${error.message}`));
      resolve();
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const detail = stderr.replace(/\s+/g, " ").trim().slice(-400);
      fail(new SetupError(`${file} ended (exit ${code}) without answering${detail ? `: ${detail}` : ""}`));
      resolve();
    });
  });
  return {
    ask: (line) =>
      new Promise((resolve, reject) => {
        if (failure) return reject(failure);
        waiting.push({ resolve, reject });
        child.stdin.write(`${line}\n`);
      }),
    end: async () => {
      child.stdin.end();
      await exited;
    },
  };
}
