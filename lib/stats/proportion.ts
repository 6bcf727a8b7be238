/**
 * A proportion's confidence interval: Wilson's score interval (Wilson 1927; Agresti & Coull 1998
 * recommend it over the Wald interval for small n and shares near 0 or 1), as statsmodels'
 * `proportion_confint(method="wilson")` computes it, with the normal quantile of Wichura's
 * AS 241 (PPND16, about 16 digits).
 */

/** The standard normal quantile Φ⁻¹(p), 0 < p < 1 (Wichura 1988, AS 241 PPND16). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), got ${p}`);
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (
      (q *
        (((((((r * 2509.0809287301226727 + 33430.575583588128105) * r + 67265.770927008700853) * r + 45921.953931549871457) * r + 13731.693765509461125) * r + 1971.5909503065514427) * r + 133.14166789178437745) * r +
          3.387132872796366608)) /
      (((((((r * 5226.495278852545925 + 28729.085735721942674) * r + 39307.89580009271061) * r + 21213.794301586595867) * r + 5394.1960214247511077) * r + 687.1870074920579083) * r + 42.313330701600911252) * r + 1)
    );
  }
  let r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  let value: number;
  if (r <= 5) {
    r -= 1.6;
    value =
      (((((((r * 7.7454501427834140764e-4 + 0.0227238449892691845833) * r + 0.24178072517745061177) * r + 1.27045825245236838258) * r + 3.64784832476320460504) * r + 5.7694972214606914055) * r + 4.6303378461565452959) * r +
        1.42343711074968357734) /
      (((((((r * 1.05075007164441684324e-9 + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r + 0.14810397642748007459) * r + 0.68976733498510000455) * r + 1.6763848301838038494) * r + 2.05319162663775882187) * r + 1);
  } else {
    r -= 5;
    value =
      (((((((r * 2.01033439929228813265e-7 + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r + 0.026532189526576123093) * r + 0.29656057182850489123) * r + 1.7848265399172913358) * r + 5.4637849111641143699) * r +
        6.6579046435011037772) /
      (((((((r * 2.04426310338993978564e-15 + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r + 7.868691311456132591e-4) * r + 0.0148753612908506148525) * r + 0.13692988092273580531) * r + 0.59983220655588793769) * r + 1);
  }
  return q < 0 ? -value : value;
}

/** Wilson's score interval of `successes` out of `n` at the confidence level; null when n is 0. */
export function wilsonInterval(successes: number, n: number, confidenceLevel = 0.95): [number, number] | null {
  if (n === 0) return null;
  const z = normalQuantile(1 - (1 - confidenceLevel) / 2);
  const share = successes / n;
  const z2n = (z * z) / n;
  const center = (share + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((share * (1 - share)) / n + z2n / (4 * n));
  return [Math.max(0, center - half), Math.min(1, center + half)];
}
