/**
 * scipy's Spearman and Kendall on the same pairs in the same run, for the ratio the bench
 * prints: a Python process that holds the pairs and runs one function per
 * request, so the bench alternates its own runs with scipy's and both meet the same moments of
 * the machine's load. Needs Debian's python3-scipy; the product itself never runs Python.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";

export interface ScipyRun {
  statistic: number;
  pValue: number;
  cpuMs: number;
  wallMs: number;
}

export interface Scipy {
  version: string;
  run(name: "spearman" | "kendall"): Promise<ScipyRun>;
  close(): void;
}

/** scipy holding the pairs (x, y), or why it cannot run (not installed). */
export async function startScipy(x: Float64Array, y: Float64Array): Promise<Scipy | { skipped: string }> {
  const folder = mkdtempSync(path.join(tmpdir(), "crjudge-bench-scipy-"));
  const file = path.join(folder, "pairs.f64");
  const data = new Float64Array(x.length + y.length);
  data.set(x);
  data.set(y, x.length);
  writeFileSync(file, new Uint8Array(data.buffer));
  const child = spawn("python3", [path.join(import.meta.dirname, "scipy_correlations.py"), file], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const close = () => {
    child.stdin.end();
    rmSync(folder, { recursive: true, force: true });
  };
  const next = async (): Promise<string | null> => {
    const line = await lines.next();
    return line.done ? null : line.value;
  };
  const first = await new Promise<string | null>((resolve) => {
    child.once("error", () => resolve(null));
    void next().then(resolve);
  });
  if (first === null) {
    close();
    return { skipped: /No module named/.test(stderr) ? "python3-scipy is not installed (apt-get install python3-scipy)" : `scipy failed: ${stderr.trim() || "python3 not runnable"}` };
  }
  return {
    version: (JSON.parse(first) as { scipy: string }).scipy,
    async run(name) {
      child.stdin.write(`${name}\n`);
      const line = await next();
      if (line === null) throw new Error(`scipy stopped: ${stderr.trim()}`);
      return JSON.parse(line) as ScipyRun;
    },
    close,
  };
}
