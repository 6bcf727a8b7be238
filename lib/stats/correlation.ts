import { rankAverageInto } from "./rank";
import { regularizedIncompleteBeta } from "./special/incomplete-beta";
import { studentTTwoSidedPValue } from "./special/t-distribution";
import type { NumericSample, TestResult } from "./types";
import { assertPaired } from "./validate";
import { workFloat64 } from "./work-arrays";

type Coefficient = { r: number } | { reason: string };

function isConstant(values: NumericSample): boolean {
  for (let i = 1; i < values.length; i++) if (values[i] !== values[0]) return false;
  return true;
}

// The two loops in functions of their own: code after a long loop in the same function would
// first run without type feedback once V8 compiles the loop while it runs, and deoptimise.

function means(x: NumericSample, y: NumericSample): Float64Array {
  let mx = 0;
  let my = 0;
  for (let i = 0; i < x.length; i++) {
    mx += x[i];
    my += y[i];
  }
  return Float64Array.of(mx / x.length, my / x.length);
}

/** Σdx², Σdy², Σdx·dy about the means. */
function centredSums(x: NumericSample, y: NumericSample, mx: number, my: number): Float64Array {
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < x.length; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  return Float64Array.of(sxx, syy, sxy);
}

/**
 * Product-moment correlation Σdx·dy / sqrt(Σdx²·Σdy²) of centred values, clipped to [-1, 1]
 * as SciPy does. Shared by Pearson (raw values) and Spearman (average ranks). Constant
 * input is detected exactly, as SciPy's `(x == x[0]).all()` check.
 */
function productMoment(x: NumericSample, y: NumericSample): Coefficient {
  const n = x.length;
  if (n < 2) return { reason: `needs at least 2 pairs, got ${n}` };
  if (isConstant(x)) return { reason: "x is constant, so the correlation is undefined" };
  if (isConstant(y)) return { reason: "y is constant, so the correlation is undefined" };
  const m = means(x, y);
  const [sxx, syy, sxy] = centredSums(x, y, m[0], m[1]);
  // sqrt(sxx·syy) is exact when x and y coincide, so identical rankings give exactly ±1;
  // the product only overflows for values beyond ~1e77, where the two roots are used instead.
  const product = sxx * syy;
  const r = sxy / (Number.isFinite(product) ? Math.sqrt(product) : Math.sqrt(sxx) * Math.sqrt(syy));
  return { r: Math.max(-1, Math.min(1, r)) };
}

/**
 * Pearson's r with the two-sided p-value of scipy.stats.pearsonr (SciPy 1.10):
 * under bivariate normality r follows Beta(n/2-1, n/2-1) on [-1, 1], so
 * p = 2·I_{(1-|r|)/2}(n/2-1, n/2-1) (`2*special.btdtr(ab, ab, 0.5 - abs(r)/2)`).
 * n = 2 gives r = ±1 and p = 1, as in SciPy. Constant input or n < 2 → null with a reason.
 */
export function pearson(x: NumericSample, y: NumericSample): TestResult {
  assertPaired(x, y);
  const n = x.length;
  const c = productMoment(x, y);
  if ("reason" in c) return { statistic: null, pValue: null, n, reason: c.reason };
  if (n === 2) return { statistic: pearsonOfTwo(x, y), pValue: 1, n };
  const ab = n / 2 - 1;
  const absR = Math.abs(c.r);
  const pValue = Math.min(1, 2 * regularizedIncompleteBeta(0.5 - absR / 2, ab, ab, 0.5 + absR / 2));
  return { statistic: c.r, pValue, n };
}

const pearsonOfTwo = (x: NumericSample, y: NumericSample) => Math.sign(x[1] - x[0]) * Math.sign(y[1] - y[0]);

/**
 * Pearson's r alone, as pearson(x, y).statistic (null where that is null), without the
 * p-value and the input checks: for many resamples of already checked data.
 */
export function pearsonStatistic(x: NumericSample, y: NumericSample): number | null {
  const c = productMoment(x, y);
  if ("reason" in c) return null;
  return x.length === 2 ? pearsonOfTwo(x, y) : c.r;
}

/**
 * Spearman's ρ as scipy.stats.spearmanr: the Pearson correlation of average
 * ranks (ties share their mean rank). Two-sided p from Student's t with df = n-2,
 * t = ρ·sqrt(df/((1+ρ)(1-ρ))); no exact p and no tie correction, as in SciPy.
 * ρ = ±1 gives p = 0; n = 2 gives ρ = ±1 with an undefined p (df = 0; SciPy returns NaN).
 *
 * @example spearman([1, 2, 3], [1, 3, 2]) → { statistic: 0.5, pValue: 0.6667, n: 3 }
 */
export function spearman(x: NumericSample, y: NumericSample): TestResult {
  assertPaired(x, y);
  const n = x.length;
  return spearmanOf(n, rankMoment(rankAverageInto(x, workFloat64("spearman.x", n)), rankAverageInto(y, workFloat64("spearman.y", n))));
}

/** spearman of samples given by their average ranks (rankAverage), for callers that know them without sorting. */
export function spearmanOfRanks(rx: NumericSample, ry: NumericSample): TestResult {
  assertPaired(rx, ry);
  return spearmanOf(rx.length, productMoment(rx, ry));
}

/**
 * productMoment of the average ranks of n values, in one pass: their mean is (n+1)/2 exactly,
 * and every deviation, product and partial sum is a multiple of 1/4 well below 2^51 (for n up to
 * about 200,000), so the sums are exact and equal productMoment's; the ranks are constant
 * exactly when their sum of squares is 0.
 */
function rankMoment(rx: Float64Array, ry: Float64Array): Coefficient {
  const n = rx.length;
  if (n < 2) return { reason: `needs at least 2 pairs, got ${n}` };
  const [sxx, syy, sxy] = centredSums(rx, ry, (n + 1) / 2, (n + 1) / 2);
  if (sxx === 0) return { reason: "x is constant, so the correlation is undefined" };
  if (syy === 0) return { reason: "y is constant, so the correlation is undefined" };
  return { r: Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy))) };
}

/** Spearman's ρ and p from the correlation of n pairs' ranks. */
function spearmanOf(n: number, c: Coefficient): TestResult {
  if ("reason" in c) return { statistic: null, pValue: null, n, reason: c.reason };
  const df = n - 2;
  if (df === 0) return { statistic: c.r, pValue: null, n, reason: "p-value undefined for 2 pairs (0 degrees of freedom)" };
  const t = c.r * Math.sqrt(df / ((c.r + 1) * (1 - c.r)));
  return { statistic: c.r, pValue: studentTTwoSidedPValue(t, df), n };
}
