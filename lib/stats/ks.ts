import { offThread } from "@/lib/process/off-thread";
import { kolmogorovSf } from "./kolmogorov";
import type { NumericSample, TestResult } from "./types";
import { assertFiniteSample } from "./validate";

export interface KsResult extends TestResult {
  /** How the p-value was obtained (SciPy `method='auto'`). */
  method: "exact" | "asymptotic" | null;
}

/** SciPy's `MAX_AUTO_N`: 'auto' attempts the exact p-value when max(n1, n2) <= 10 000. */
const MAX_AUTO_N = 10_000;

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** Round half to even, as NumPy's np.round (used by ks_2samp on n1·n2/(n1+n2)). */
function roundHalfEven(v: number): number {
  const r = Math.round(v);
  return Math.abs(v % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * The exact two-sided p-value of ks2samp for samples of n1 and n2 values (gcd g) whose D is
 * h/lcm(n1, n2), as SciPy's `_attempt_exact_2kssamp` computes it. Self-contained (it refers to
 * nothing outside its body but JavaScript's globals), so that it also runs on a worker thread
 * from its source text (ks2sampOffThread).
 */
export function exactKsPValue(n1: number, n2: number, g: number, h: number): number {
  /**
   * Exact P(D_{n,n} >= h/n) for equal sample sizes (SciPy `_compute_prob_outside_square`):
   * 2·Σ_k (-1)^{k+1} C(2n, n-kh)/C(2n, n), summed Horner-style to avoid cancellation.
   */
  function probOutsideSquare(n: number, h: number): number {
    let p = 0;
    for (let k = Math.floor(n / h); k >= 0; k--) {
      let p1 = 1;
      for (let j = 0; j < h; j++) p1 = ((n - k * h - j) * p1) / (n + k * h + j + 1);
      p = p1 * (1 - p);
    }
    return 2 * p;
  }

  /**
   * Exact p = 1 - A/C(m+n, n), where A counts the monotone lattice paths from
   * (0,0) to (m,n) with |i·n/g - j·m/g| < h at every point. As SciPy's
   * `_compute_outer_prob_inside_method` (Viehmann 2021, arXiv:2102.08037), the recursion carries
   * the complement directly: Q(i,j) = share of paths to (i,j) that have left the band, with
   * Q = 1 outside it and Q(i,j) = (Q(i-1,j)·i + Q(i,j-1)·j)/(i+j) inside. Values stay in [0,1]
   * (no overflow) and tiny p-values keep their relative precision (no 1 - x cancellation).
   *
   * O(m · band width), up to O(m·n) as in SciPy. Each cell is the same arithmetic as SciPy's
   * column-by-column loop, so the result is the same to the last bit; but the columns are
   * computed four at a time on a skewed wavefront (column i+t at row j - t), which gives the
   * processor four independent chains of divisions instead of one. For clearly different samples
   * the values in the middle of the band underflow to 0, and a cell whose left and lower
   * neighbours are 0 is 0: while the last column has a long run of zeros (as also near the
   * origin, where no path has left the band yet), columns are computed one at a time and skip
   * the rows where the previous column was 0 (columnSkippingZeros).
   */
  function probOutsideLattice(n1: number, n2: number, g: number, h: number): number {
    const m = Math.max(n1, n2);
    const n = Math.min(n1, n2);
    const mg = m / g;
    const ng = n / g;
    // Column i of Q lives in a[lo(i) .. hi(i)-1]: the band [lo, hi) only moves up as i grows,
    // so one array holds the newest column at every row; rows at or above hi(i) were never
    // written and still hold 1 (outside the band), rows below lo(i) are never read again.
    const lower = (i: number) => Math.min(Math.max(Math.floor((ng * i - h) / mg) + 1, 0), n);
    const upper = (i: number) => Math.min(Math.ceil((ng * i + h) / mg), n + 1);
    const a = new Float64Array(n + 1).fill(1);
    a.fill(0, 0, upper(0));
    // The last computed column's longest run of zeros.
    let zeros = { start: 0, end: upper(0) };
    let i = 1;
    while (i <= m) {
      if (worthSkipping(zeros, upper(i - 1) - lower(i - 1)) || i + 3 > m) {
        const lo = lower(i);
        const hi = upper(i);
        if (hi <= lo) return 1;
        zeros = columnSkippingZeros(a, i, lo, hi, zeros);
        i++;
        continue;
      }
      const i0 = i;
      const i1 = i + 1;
      const i2 = i + 2;
      const i3 = i + 3;
      const lo0 = lower(i0);
      const lo1 = lower(i1);
      const lo2 = lower(i2);
      const lo3 = lower(i3);
      const hi0 = upper(i0);
      const hi1 = upper(i1);
      const hi2 = upper(i2);
      const hi3 = upper(i3);
      if (hi0 <= lo0 || hi1 <= lo1 || hi2 <= lo2 || hi3 <= lo3) return 1;
      let q0 = lo0 === 0 ? 0 : 1;
      let q1 = lo1 === 0 ? 0 : 1;
      let q2 = lo2 === 0 ? 0 : 1;
      let q3 = lo3 === 0 ? 0 : 1;
      // Step s: column i0 at row s, i1 at s-1, i2 at s-2, i3 at s-3. Each reads the row as the
      // previous column left it one step earlier, so the four updates are independent.
      for (let s = lo0; s < hi3 + 3; s++) {
        if (s < hi0) {
          q0 = (a[s] * i0 + q0 * s) / (i0 + s);
          a[s] = q0;
        }
        const s1 = s - 1;
        if (s1 >= lo1 && s1 < hi1) {
          q1 = (a[s1] * i1 + q1 * s1) / (i1 + s1);
          a[s1] = q1;
        }
        const s2 = s - 2;
        if (s2 >= lo2 && s2 < hi2) {
          q2 = (a[s2] * i2 + q2 * s2) / (i2 + s2);
          a[s2] = q2;
        }
        const s3 = s - 3;
        if (s3 >= lo3 && s3 < hi3) {
          q3 = (a[s3] * i3 + q3 * s3) / (i3 + s3);
          a[s3] = q3;
        }
      }
      zeros = zeroRun(a, lo3, hi3);
      i += 4;
    }
    return a[n];
  }

  /**
   * Whether a run of zeros in a column `band` rows wide is worth computing the next column alone
   * to skip it: the four-column wavefront does a cell about four times faster, so it pays once
   * the zeros are three quarters of the band.
   */
  const worthSkipping = (zeros: { start: number; end: number }, band: number) => zeros.end - zeros.start >= Math.max(64, 0.75 * band);

  /**
   * The run of zeros in a[lo .. hi) around its middle row (empty when that row is not 0): a run
   * worth skipping covers three quarters of the band, so it holds the middle row.
   */
  function zeroRun(a: Float64Array, lo: number, hi: number): { start: number; end: number } {
    const middle = (lo + hi) >>> 1;
    if (a[middle] !== 0) return { start: 0, end: 0 };
    let start = middle;
    let end = middle + 1;
    while (start > lo && a[start - 1] === 0) start--;
    while (end < hi && a[end] === 0) end++;
    return { start, end };
  }

  /**
   * Column i of probOutsideLattice's recursion over rows [lo, hi), where a[zeros.start ..
   * zeros.end) holds zeros from the previous column: once the running value is 0 at a row inside
   * that run, every row up to its end is 0 as well ((0·i + 0·j)/(i + j)), so they are skipped
   * (a[] already holds those zeros). Returns this column's run of zeros, for the next.
   */
  function columnSkippingZeros(a: Float64Array, i: number, lo: number, hi: number, zeros: { start: number; end: number }): { start: number; end: number } {
    let q = lo === 0 ? 0 : 1;
    let runStart = -1;
    let best = { start: 0, end: 0 };
    for (let j = lo; j < hi; j++) {
      q = (a[j] * i + q * j) / (i + j);
      a[j] = q;
      if (q !== 0) {
        if (runStart >= 0 && j - runStart > best.end - best.start) best = { start: runStart, end: j };
        runStart = -1;
        continue;
      }
      if (runStart < 0) runStart = j;
      if (j + 1 >= zeros.start && j + 1 < zeros.end) j = Math.min(zeros.end, hi) - 1;
    }
    if (runStart >= 0 && hi - runStart > best.end - best.start) best = { start: runStart, end: hi };
    return best;
  }

  return n1 === n2 ? probOutsideSquare(n1, h) : probOutsideLattice(n1, n2, g, h);
}

/** Two samples' sizes and D·n1·n2: the largest |i·n2 - j·n1| over the pooled values v, with i = #{a <= v} and j = #{b <= v} (integers, so exact). */
interface KsDistance {
  n1: number;
  n2: number;
  maxDiff: number;
}

function ksDistance(a: NumericSample, b: NumericSample): KsDistance {
  assertFiniteSample("a", a);
  assertFiniteSample("b", b);
  const n1 = a.length;
  const n2 = b.length;
  const s1 = Float64Array.from(a).sort();
  const s2 = Float64Array.from(b).sort();
  let i = 0;
  let j = 0;
  let maxDiff = 0;
  while (i < n1 || j < n2) {
    const v = j >= n2 || (i < n1 && s1[i] <= s2[j]) ? s1[i] : s2[j];
    while (i < n1 && s1[i] === v) i++;
    while (j < n2 && s2[j] === v) j++;
    maxDiff = Math.max(maxDiff, Math.abs(i * n2 - j * n1));
  }
  return { n1, n2, maxDiff };
}

/** The arguments of the exact p-value (exactKsPValue) the test computes for the distance; null when it computes none (an empty sample, D = 0, or more than MAX_AUTO_N values). */
function exactArguments({ n1, n2, maxDiff }: KsDistance): [number, number, number, number] | null {
  if (n1 === 0 || n2 === 0 || maxDiff === 0 || Math.max(n1, n2) > MAX_AUTO_N) return null;
  const g = gcd(n1, n2);
  return [n1, n2, g, maxDiff / g];
}

/** The test's result from the distance and the exact p-value of its exactArguments (null when there are none). */
function ksResult({ n1, n2, maxDiff }: KsDistance, exactP: number | null): KsResult {
  const n = n1 + n2;
  if (n1 === 0 || n2 === 0) return { statistic: null, pValue: null, n, method: null, reason: "both samples need at least one value" };
  const d = maxDiff / (n1 * n2);
  if (Math.max(n1, n2) <= MAX_AUTO_N) {
    const g = gcd(n1, n2);
    const lcm = (n1 / g) * n2;
    const h = maxDiff / g; // = round(D·lcm), exactly
    const statistic = h / lcm;
    if (h === 0) return { statistic, pValue: 1, n, method: "exact" };
    if (exactP !== null && exactP >= 0 && exactP <= 1) return { statistic, pValue: exactP, n, method: "exact" };
    // SciPy falls back to the asymptotic p when the exact computation fails.
  }
  const en = (Math.max(n1, n2) * Math.min(n1, n2)) / n;
  return { statistic: d, pValue: Math.min(1, Math.max(0, kolmogorovSf(roundHalfEven(en), d))), n, method: "asymptotic" };
}

/**
 * Two-sample Kolmogorov-Smirnov test, two-sided, as scipy.stats.ks_2samp(method='auto')
 * (GradedReviews Table 6 uses the statistic). D = max |F1 - F2| over the
 * pooled values with right-continuous ECDFs. The p-value is exact when max(n1, n2) <= 10 000
 * (then D is reported as h/lcm(n1,n2), as SciPy does), otherwise kstwo.sf(D, round(n1·n2/(n1+n2))).
 * Ties are allowed; the exact p assumes continuous data, as in SciPy.
 */
export function ks2samp(a: NumericSample, b: NumericSample): KsResult {
  const distance = ksDistance(a, b);
  const exact = exactArguments(distance);
  return ksResult(distance, exact && exactKsPValue(...exact));
}

const exactKsPValueOffThread = offThread(exactKsPValue);

/**
 * ks2samp of each pair, with the exact p-values computed on a worker thread: between samples of a
 * few thousand values each takes up to 20 ms of divisions (the validity report's KS matrix, about
 * 90 ms of its 500), which the calling thread spends on other work meanwhile. The same results.
 */
export async function ks2sampOffThread(pairs: readonly (readonly [NumericSample, NumericSample])[]): Promise<KsResult[]> {
  const distances = pairs.map(([a, b]) => ksDistance(a, b));
  const pValues = await Promise.all(
    distances.map((distance) => {
      const exact = exactArguments(distance);
      return exact && exactKsPValueOffThread(...exact);
    }),
  );
  return distances.map((distance, k) => ksResult(distance, pValues[k]));
}
