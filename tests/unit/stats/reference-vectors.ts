import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { hasSharedFile, sharedPath } from "../../shared-data";

/**
 * Reads ../shared/reference/metric-vectors.json in place (never copied into the project).
 * Tolerances are the file's own: 1e-9 relative for values, 1e-7 for p-values.
 */
export const VECTORS_FILE = ["reference", "metric-vectors.json"] as const;
export const hasVectors = hasSharedFile(...VECTORS_FILE);

export interface Vector<I = Record<string, unknown>, E = Record<string, unknown>> {
  input: I;
  expected: E;
  note?: string;
  source: string;
}

export function vectorGroup<I = Record<string, unknown>, E = Record<string, unknown>>(group: string): Vector<I, E>[] {
  if (!hasVectors) return [];
  const all = JSON.parse(readFileSync(sharedPath(...VECTORS_FILE), "utf8")) as Record<string, Vector<I, E>[]>;
  const vectors = all[group];
  if (!vectors) throw new Error(`metric-vectors.json has no group ${group}`);
  return vectors;
}

/** Value within `rel` relative error (absolute when the expected value is 0); `null` must match `null`. */
export function expectValue(actual: number | null | undefined, expected: number | null, rel = 1e-9): void {
  if (expected === null) {
    expect(actual).toBeNull();
    return;
  }
  expect(actual).toBeTypeOf("number");
  const diff = Math.abs((actual as number) - expected);
  expect(diff, `${actual} vs ${expected}`).toBeLessThanOrEqual(rel * (expected === 0 ? 1 : Math.abs(expected)));
}

/** p-value within 1e-7 absolute and 1e-7 relative (the latter matters for tiny p-values). */
export function expectPValue(actual: number | null | undefined, expected: number | null): void {
  if (expected === null) {
    expect(actual).toBeNull();
    return;
  }
  expect(actual).toBeTypeOf("number");
  const diff = Math.abs((actual as number) - expected);
  expect(diff, `p ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-7);
  expect(diff, `p ${actual} vs ${expected} (relative)`).toBeLessThanOrEqual(1e-7 * expected);
}
