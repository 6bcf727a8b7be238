import { existsSync } from "node:fs";
import path from "node:path";

/**
 * Files from ../shared (papers' data and reference vectors) are read in place, never copied.
 * In an account's clone they are absent: tests skip with a visible message. Under CI a missing
 * file is a failure. CRJUDGE_SHARED_DIR points elsewhere (e.g. to check the skipping).
 */
export const SHARED_DIR = path.resolve(process.env.CRJUDGE_SHARED_DIR ?? path.join(process.cwd(), "..", "shared"));

export function sharedPath(...parts: string[]): string {
  return path.join(SHARED_DIR, ...parts);
}

/** Returns true when the file exists; otherwise skips (locally) or throws (CI=true). */
export function hasSharedFile(...parts: string[]): boolean {
  const file = sharedPath(...parts);
  if (existsSync(file)) return true;
  if (process.env.CI === "true") throw new Error(`Required reference file missing under CI: ${file}`);
  console.warn(`SKIPPED: ${file} is not present (tests that need ../shared are skipped outside CI)`);
  return false;
}
