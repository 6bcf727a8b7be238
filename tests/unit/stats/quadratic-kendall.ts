import { erfc } from "@/lib/stats/special/erfc";

/** τ_b and SciPy's asymptotic p by enumerating all n(n-1)/2 pairs, tie groups counted in maps. */
export function quadraticKendall(x: ArrayLike<number>, y: ArrayLike<number>): { tau: number; p: number } {
  const n = x.length;
  let s = 0;
  let xTied = 0;
  let yTied = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      s += Math.sign(x[i] - x[j]) * Math.sign(y[i] - y[j]);
      if (x[i] === x[j]) xTied++;
      if (y[i] === y[j]) yTied++;
    }
  const total = (n * (n - 1)) / 2;
  const groups = (v: ArrayLike<number>) => [...Array.from(v).reduce((m, a) => m.set(a, (m.get(a) ?? 0) + 1), new Map<number, number>()).values()];
  const sum = (v: ArrayLike<number>, f: (t: number) => number) => groups(v).reduce((acc, t) => acc + f(t), 0);
  const v0 = n * (n - 1) * (2 * n + 5);
  const vt = (v: ArrayLike<number>) => sum(v, (t) => t * (t - 1) * (2 * t + 5));
  const v1 = sum(x, (t) => t * (t - 1)) * sum(y, (t) => t * (t - 1)) / (2 * n * (n - 1));
  const v2 = sum(x, (t) => t * (t - 1) * (t - 2)) * sum(y, (t) => t * (t - 1) * (t - 2)) / (9 * n * (n - 1) * (n - 2));
  const variance = (v0 - vt(x) - vt(y)) / 18 + v1 + v2;
  return { tau: s / Math.sqrt((total - xTied) * (total - yTied)), p: erfc(Math.abs(s) / Math.sqrt(variance) / Math.SQRT2) };
}
