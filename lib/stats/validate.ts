import type { NumericSample } from "./types";

/**
 * One missing-value policy for all of lib/stats: inputs must be finite numbers, and paired
 * inputs must have equal length. Missing observations are dropped by the caller before the
 * call (as SciPy's nan_policy='omit' would), so a NaN here is a bug and throws.
 */
export function assertFiniteSample(name: string, values: NumericSample): void {
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) throw new RangeError(`${name}[${i}] is not a finite number: ${values[i]}`);
  }
}

export function assertPaired(x: NumericSample, y: NumericSample): void {
  if (x.length !== y.length) throw new RangeError(`paired samples differ in length: ${x.length} vs ${y.length}`);
  assertFiniteSample("x", x);
  assertFiniteSample("y", y);
}
