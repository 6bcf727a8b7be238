/**
 * The production build that `npm start` and the load bench serve: `next build` when there is none
 * or when the app's sources (or package.json) are newer than it, so that neither serves old code.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "generated" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the app in `root` when its build is missing or stale; `log` says so first. */
export function buildIfStale(root: string, log: (line: string) => void): void {
  const buildId = path.join(root, ".next", "BUILD_ID");
  const sources = ["app", "components", "lib", "public"].map((d) => path.join(root, d)).filter(existsSync);
  const stale = !existsSync(buildId) || Math.max(...sources.map(newestSourceMtime), statSync(path.join(root, "package.json")).mtimeMs) > statSync(buildId).mtimeMs;
  if (!stale) return;
  log("building the app (next build)…");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error("next build failed");
}
