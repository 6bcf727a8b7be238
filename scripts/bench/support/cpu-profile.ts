/**
 * Where a V8 CPU profile's time went (idle left out): self time by package (or file) and by
 * function. Node's `--cpu-prof` files and Chromium's (the DevTools protocol's Profiler) have the
 * same shape.
 */
import path from "node:path";

export interface CpuProfile {
  nodes: { id: number; hitCount?: number; callFrame: { functionName: string; url: string } }[];
  startTime: number;
  endTime: number;
}

/** The package of a script's URL, else a short name for it (a Next.js chunk, a node core module, native code). */
function whereOf(url: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith("node:")) return "node (core)";
  if (url === "") return "(native, gc, idle)";
  if (/\.next\/server\/chunks/.test(url)) return "app bundle (.next/server)";
  if (/\/_next\/static\/chunks\//.test(url)) return `chunk ${path.basename(url.split("?")[0])}`;
  return path.basename(url.split("?")[0]);
}

/** Self milliseconds by package and by function over `profiles`, with their total. */
export function selfTimes(profiles: readonly CpuProfile[]): { byPackage: Map<string, number>; byFunction: Map<string, number>; totalMs: number; seconds: number } {
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let totalMs = 0;
  let seconds = 0;
  for (const profile of profiles) {
    const hits = profile.nodes.reduce((n, node) => n + (node.hitCount ?? 0), 0);
    const msPerHit = (profile.endTime - profile.startTime) / 1000 / Math.max(1, hits);
    seconds = Math.max(seconds, (profile.endTime - profile.startTime) / 1e6);
    for (const node of profile.nodes) {
      if (node.callFrame.functionName === "(idle)") continue;
      const ms = (node.hitCount ?? 0) * msPerHit;
      const pkg = whereOf(node.callFrame.url);
      const fn = `${node.callFrame.functionName || "(anonymous)"} ${pkg}`;
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms);
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
      totalMs += ms;
    }
  }
  return { byPackage, byFunction, totalMs, seconds };
}

/** The `n` largest of some totals as report lines: share, milliseconds, name. */
export function topLines(totals: ReadonlyMap<string, number>, totalMs: number, n = 12): string[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, ms]) => `  ${((100 * ms) / Math.max(1, totalMs)).toFixed(1).padStart(5)} %  ${ms.toFixed(0).padStart(7)} ms  ${name}`);
}
