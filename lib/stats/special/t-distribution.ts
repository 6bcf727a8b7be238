import { regularizedIncompleteBeta } from "./incomplete-beta";

/**
 * Two-sided p-value of Student's t with `df` degrees of freedom: 2·P(T > |t|).
 * Equals I_{df/(df+t²)}(df/2, 1/2) (A&S 26.7.1; Cephes `stdtr`, which SciPy's t.sf uses).
 * The complement t²/(df+t²) is passed separately so p near 1 stays accurate for tiny t.
 * t = ±∞ gives 0.
 */
export function studentTTwoSidedPValue(t: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`t distribution needs df > 0, got ${df}`);
  if (!Number.isFinite(t)) return Number.isNaN(t) ? NaN : 0;
  const t2 = t * t;
  return regularizedIncompleteBeta(df / (df + t2), df / 2, 0.5, t2 / (df + t2));
}
