/**
 * scipy's Spearman and Kendall on the same pairs in the same run, for the ratio the bench
 * prints (issue 15 item 7). Needs Debian's python3-scipy; the product itself never runs Python.
 * Returns null, with the reason, when it is not installed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface ScipyTiming {
  statistic: number;
  pValue: number;
  cpuMs: number;
  wallMs: number;
}

export type ScipyCorrelations = { scipy: string; spearman: ScipyTiming; kendall: ScipyTiming } | { skipped: string };

export function scipyCorrelations(x: Float64Array, y: Float64Array, runs: number): ScipyCorrelations {
  const folder = mkdtempSync(path.join(tmpdir(), "crjudge-bench-scipy-"));
  try {
    const file = path.join(folder, "pairs.f64");
    const data = new Float64Array(x.length + y.length);
    data.set(x);
    data.set(y, x.length);
    writeFileSync(file, new Uint8Array(data.buffer));
    const result = spawnSync("python3", [path.join(import.meta.dirname, "scipy_correlations.py"), file, String(runs)], { encoding: "utf8" });
    if (result.error) return { skipped: `python3 not runnable (${result.error.message})` };
    if (result.status !== 0) return { skipped: /No module named/.test(result.stderr) ? "python3-scipy is not installed (apt-get install python3-scipy)" : `scipy failed: ${result.stderr.trim()}` };
    return JSON.parse(result.stdout) as ScipyCorrelations;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
