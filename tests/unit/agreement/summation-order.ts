import { expect } from "vitest";

/**
 * Resampled agreement coefficients (lib/agreement/resampled.ts) add each item type's
 * contribution once, times its count, where the coefficient of the resampled table adds the
 * items one by one: the same terms summed in another order, so a value, and a CI endpoint (a
 * quantile of such values), may differ in its last bits (the sums' rounding), never more.
 * Matches `expected` to within 5e-14 (the coefficients here lie around [-1, 1], where a double's
 * last bit is at most 2.2e-16); null must be null.
 */
export function nearly(expected: number | null): unknown {
  return expected === null ? null : expect.closeTo(expected, 13);
}

/** An interval whose endpoints are `nearly` those given. */
export function nearlyInterval<T extends { low: number | null; high: number | null }>(ci: T | null): unknown {
  return ci && { ...ci, low: nearly(ci.low), high: nearly(ci.high) };
}
