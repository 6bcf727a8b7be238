/**
 * Quantile of ascending-sorted data by linear interpolation between order statistics
 * (Hyndman & Fan type 7, NumPy's default `method='linear'`, which SciPy's bootstrap uses).
 * The interpolation mirrors NumPy's `_lerp` (from the upper neighbour when the fraction is
 * >= 0.5) so results match NumPy to the last bit.
 *
 * @example quantileSorted([1, 2, 3, 4], 0.5) → 2.5
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) throw new RangeError("quantile of an empty sample");
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile level must be in [0, 1], got ${q}`);
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const t = h - lo;
  const a = sorted[lo];
  if (t === 0) return a;
  const b = sorted[lo + 1];
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}
