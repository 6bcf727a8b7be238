/**
 * `npm run bench`: runs every benchmark module in scripts/bench/ (each exports a default
 * async function that prints its own figures) and reports wall time and peak memory on stderr.
 * `npm run bench -- NAME... [--option value]` runs the named ones; options are the modules' own
 * (they read process.argv). Speed and memory are measured here, never in timed tests.
 */
// First: the benchmarks load lib/db and lib/data, which import "server-only" (scripts/server-only.mjs);
// the processes they start (the CLI and worker from their sources) get the hook through NODE_OPTIONS.
import "./server-only.mjs";
import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "@/lib/cli/args";

process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --import=${pathToFileURL(path.join(import.meta.dirname, "server-only.mjs")).href}`.trim();
const dir = path.join(import.meta.dirname, "bench");
const only = parseArgs(process.argv.slice(2)).positional;
const modules = readdirSync(dir)
  .filter((f) => f.endsWith(".ts"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

for (const file of modules) {
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: () => Promise<void> };
  console.log(`\n## ${file}`);
  const t0 = performance.now();
  await mod.default();
  const rss = process.memoryUsage().rss / 2 ** 20;
  // On stderr, so that a module's last line on stdout stays its own (bench load ends with JSON).
  console.error(`(${file}: ${((performance.now() - t0) / 1000).toFixed(2)} s, rss ${rss.toFixed(0)} MiB)`);
}
