import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { hasSharedFile, sharedPath } from "../../shared-data";

/** True when ../shared/reference/metric-vectors.json is present (otherwise suites skip, or fail under CI). */
export const HAS_VECTORS = hasSharedFile("reference", "metric-vectors.json");

export interface Vector<I, E> {
  input: I;
  expected: E;
  note?: string;
  source: string;
  published?: Record<string, number | string>;
}

let file: Record<string, unknown[]> | undefined;

/** One group of metric-vectors.json, read in place. The caller states the shape of its group. */
export function loadVectors<I, E>(group: string): Vector<I, E>[] {
  // Skipped suites are still collected: without the file there is nothing to test.
  if (!HAS_VECTORS) return [];
  file ??= JSON.parse(readFileSync(sharedPath("reference", "metric-vectors.json"), "utf8")) as Record<string, unknown[]>;
  const vectors = file[group];
  if (!Array.isArray(vectors) || vectors.length === 0) throw new Error(`no vectors in group ${group}`);
  return vectors as Vector<I, E>[];
}

/**
 * |actual − expected| ≤ rel·|expected| (1e-9 by default, README tolerance). Purely relative, so an
 * expected 1e-80 is not passed by 0 and an expected 0 needs an exact 0. `null` expected means undefined.
 */
export function expectClose(actual: number | null, expected: number | null, rel = 1e-9): void {
  if (expected === null) {
    expect(actual).toBeNull();
    return;
  }
  expect(actual).not.toBeNull();
  const diff = Math.abs((actual as number) - expected);
  expect(diff, `${actual} vs ${expected}`).toBeLessThanOrEqual(rel * Math.abs(expected));
}
