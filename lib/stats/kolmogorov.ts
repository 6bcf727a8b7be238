/**
 * Survival function of the two-sided one-sample Kolmogorov-Smirnov statistic D_n,
 * P(D_n > x): a port of SciPy's `scipy.stats._ksstats._kolmogn(n, x, cdf=False)`
 * (= scipy.stats.kstwo.sf), which follows Simard & L'Ecuyer (2011), "Computing the
 * two-sided Kolmogorov-Smirnov distribution", J. Stat. Softw. 39(11): Ruben-Gambino closed
 * forms at the extremes, the Durbin matrix (Marsaglia-Tsang-Wang 2003) or Pomeranz (1974)
 * recursion for small n·x², twice the one-sided Smirnov tail for large n·x², and the
 * Pelz-Good (1976) expansion otherwise. ks_2samp uses it for its asymptotic p-value.
 */

const E128 = 2 ** 128;
const EM128 = 2 ** -128;
const LOG_2PI = Math.log(2 * Math.PI);
const SQRT_2PI = Math.sqrt(2 * Math.PI);
const PI2 = Math.PI ** 2;
const PI4 = Math.PI ** 4;
const PI6 = Math.PI ** 6;
const MIN_LOG = -708;
/** Cephes MINLOG = ln(2^-1022). */
const MIN_LOG_DOUBLE = -708.3964185322641;
const SMIRNOV_MAX_COMPUTE_N = 1_000_000;
/** SciPy `_STIRLING_COEFFS`, highest power first, in 1/n². */
const STIRLING_COEFFS = [
  -2.955065359477124183e-2, 6.4102564102564102564e-3, -1.9175269175269175269e-3, 8.4175084175084175084e-4,
  -5.952380952380952381e-4, 7.9365079365079365079e-4, -2.7777777777777777778e-3, 8.3333333333333333333e-2,
];

const clip = (p: number): number => Math.min(1, Math.max(0, p));

/** ln(n!/n^n) by Stirling's series (SciPy `_log_nfactorial_div_n_pow_n`). */
function logFactorialOverPower(n: number): number {
  const rn = 1 / n;
  let poly = 0;
  for (const c of STIRLING_COEFFS) poly = poly * (rn / n) + c;
  return Math.log(n) / 2 - n + LOG_2PI / 2 + rn * poly;
}

/**
 * One-sided Smirnov tail P(D_n^+ >= x) (scipy.special.smirnov), by the Birnbaum-Tingey
 * (1951) sum x·Σ_{j=0}^{⌊n(1-x)⌋} C(n,j) (1-x-j/n)^{n-j} (x+j/n)^{j-1}. All terms are
 * positive, so summing them in logarithms keeps relative accuracy for tiny tails (SciPy
 * uses double-double arithmetic instead; the two agree to ~3e-8 relative up to n = 10^6).
 * Like SciPy (cephes/kolmogorov.c), it returns 0 once -2nx² < ln(DBL_MIN) and, for
 * n > 10^6 (SMIRNOV_MAX_COMPUTE_N), uses the approximation exp(-(6nx+1)²/(18n)).
 */
export function smirnovSf(n: number, x: number): number {
  if (x <= 0) return 1;
  if (x >= 1) return 0;
  if (-2 * n * x * x < MIN_LOG_DOUBLE) return 0;
  if (n > SMIRNOV_MAX_COMPUTE_N) {
    const logp = -((6 * n * x + 1) ** 2) / 18 / n;
    return logp < -Math.LN2 ? Math.exp(logp) : 1 + Math.expm1(logp);
  }
  const last = Math.floor(n * (1 - x));
  let logBinom = 0;
  let sum = 0;
  for (let j = 0; j <= last; j++) {
    if (j > 0) logBinom += Math.log((n - j + 1) / j);
    const base = 1 - x - j / n;
    if (base <= 0) {
      if (n - j === 0) sum += Math.exp(logBinom + (j - 1) * Math.log(x + j / n));
      continue;
    }
    sum += Math.exp(logBinom + (n - j) * Math.log(base) + (j - 1) * Math.log(x + j / n));
  }
  return clip(x * sum);
}

/** Square matrix product of m×m row-major matrices. */
function matMul(a: Float64Array, b: Float64Array, m: number): Float64Array {
  const out = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    for (let k = 0; k < m; k++) {
      const aik = a[i * m + k];
      if (aik === 0) continue;
      for (let j = 0; j < m; j++) out[i * m + j] += aik * b[k * m + j];
    }
  }
  return out;
}

/** P(D_n <= d) by the Durbin matrix, Marsaglia-Tsang-Wang (2003) (SciPy `_kolmogn_DMTW`). */
function durbinMatrixCdf(n: number, d: number): number {
  if (d >= 1) return 1;
  const nd = n * d;
  if (nd <= 0.5) return 0;
  const k = Math.ceil(nd);
  const h = k - nd;
  const m = 2 * k - 1;
  const v = new Float64Array(m);
  const w = new Float64Array(m);
  let fac = 1;
  for (let j = 1; j <= m; j++) {
    w[j - 1] = fac;
    fac /= j;
    v[j - 1] = (1 - h ** j) * fac;
  }
  const tt = Math.max(2 * h - 1, 0) ** m - 2 * h ** m;
  v[m - 1] = (1 + tt) * fac;
  let H: Float64Array = new Float64Array(m * m);
  for (let i = 1; i < m; i++) for (let r = i - 1; r < m; r++) H[r * m + i] = w[r - (i - 1)];
  for (let r = 0; r < m; r++) H[r * m] = v[r];
  for (let c = 0; c < m; c++) H[(m - 1) * m + c] = v[m - 1 - c];

  let power: Float64Array = new Float64Array(m * m);
  for (let i = 0; i < m; i++) power[i * m + i] = 1;
  let nn = n;
  let exponent = 0;
  let hExponent = 0;
  while (nn > 0) {
    if (nn % 2) {
      power = matMul(power, H, m);
      exponent += hExponent;
    }
    H = matMul(H, H, m);
    hExponent *= 2;
    if (Math.abs(H[(k - 1) * m + (k - 1)]) > E128) {
      for (let i = 0; i < H.length; i++) H[i] /= E128;
      hExponent += 128;
    }
    nn = Math.floor(nn / 2);
  }
  let p = power[(k - 1) * m + (k - 1)];
  for (let i = 1; i <= n; i++) {
    p = (i * p) / n;
    if (Math.abs(p) < EM128) {
      p *= E128;
      exponent -= 128;
    }
  }
  return clip(p * 2 ** exponent);
}

/** Row bounds of the Pomeranz recursion (SciPy `_pomeranz_compute_j1j2`). */
function pomeranzBounds(i: number, n: number, ll: number, ceilf: number, roundf: number): [number, number] {
  let j1: number;
  let j2: number;
  if (i === 0) {
    j1 = -ll - ceilf - 1;
    j2 = ll + ceilf - 1;
  } else {
    const half = Math.floor((i + 1) / 2);
    if ((i + 1) % 2 === 0) {
      if (half === n + 1) {
        j1 = n - ll - ceilf - 1;
        j2 = n + ll + ceilf - 1;
      } else {
        j1 = half - 1 - ll - roundf - 1;
        j2 = half + ll - 1 + ceilf - 1;
      }
    } else {
      j1 = half - 1 - ll - 1;
      j2 = half + ll + roundf - 1;
    }
  }
  return [Math.max(j1 + 2, 0), Math.min(j2, n)];
}

/** P(D_n <= x) by the Pomeranz (1974) recursion (SciPy `_kolmogn_Pomeranz`). */
function pomeranzCdf(n: number, x: number): number {
  const t = n * x;
  const ll = Math.floor(t);
  const f = t - ll;
  const g = Math.min(f, 1 - f);
  const ceilf = f > 0 ? 1 : 0;
  const roundf = f > 0.5 ? 1 : 0;
  const npwrs = 2 * (ll + 1);
  const gpower = new Float64Array(npwrs);
  const twogpower = new Float64Array(npwrs);
  const onem2gpower = new Float64Array(npwrs);
  gpower[0] = twogpower[0] = onem2gpower[0] = 1;
  for (let m = 1; m < npwrs; m++) {
    gpower[m] = (gpower[m - 1] * (g / n)) / m;
    twogpower[m] = (twogpower[m - 1] * ((2 * g) / n)) / m;
    onem2gpower[m] = (onem2gpower[m - 1] * ((1 - 2 * g) / n)) / m;
  }
  let V0 = new Float64Array(npwrs);
  let V1 = new Float64Array(npwrs);
  V1[0] = 1;
  let V0s = 0;
  let V1s = 0;
  let exponent = 0;
  let [j1, j2] = pomeranzBounds(0, n, ll, ceilf, roundf);
  for (let i = 1; i < 2 * n + 2; i++) {
    const k1 = j1;
    [V0, V1] = [V1, V0];
    [V0s, V1s] = [V1s, V0s];
    V1.fill(0);
    [j1, j2] = pomeranzBounds(i, n, ll, ceilf, roundf);
    const pwrs = i === 1 || i === 2 * n + 1 ? gpower : i % 2 ? twogpower : onem2gpower;
    const ln2 = j2 - k1 + 1;
    if (ln2 > 0) {
      // Full convolution of V0[k1-V0s .. +ln2) (cut at the array end, as NumPy slicing does)
      // with pwrs[0..ln2), keeping entries j1-k1 .. j2-k1.
      const available = Math.min(ln2, npwrs - (k1 - V0s));
      const start = j1 - k1;
      const len = j2 - j1 + 1;
      let max = 0;
      for (let c = 0; c < len; c++) {
        const idx = start + c;
        let s = 0;
        for (let a = Math.max(0, idx - ln2 + 1); a <= Math.min(idx, available - 1); a++) s += V0[k1 - V0s + a] * pwrs[idx - a];
        V1[c] = s;
        if (s > max) max = s;
      }
      if (max > 0 && max < EM128) {
        for (let c = 0; c < len; c++) V1[c] *= E128;
        exponent -= 128;
      }
      V1s = V0s + j1 - k1;
    }
  }
  let ans = V1[n - V1s];
  for (let m = 1; m <= n; m++) {
    if (Math.abs(ans) > E128) {
      ans *= EM128;
      exponent += 128;
    }
    ans *= m;
  }
  return clip(ans * 2 ** exponent);
}

/** Pelz-Good (1976) asymptotic expansion of P(D_n <= x) (SciPy `_kolmogn_PelzGood`). */
function pelzGoodCdf(n: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const z = Math.sqrt(n) * x;
  const z2 = z ** 2;
  const z3 = z ** 3;
  const z4 = z ** 4;
  const z6 = z ** 6;
  const qlog = -PI2 / 8 / z2;
  if (qlog < MIN_LOG) return 0;
  let q = Math.exp(qlog);
  const k1a = -z2;
  const k1b = PI2 / 4;
  const k2a = 6 * z6 + 2 * z4;
  const k2b = ((2 * z4 - 5 * z2) * PI2) / 4;
  const k2c = (PI4 * (1 - 2 * z2)) / 16;
  const k3d = (PI6 * (5 - 30 * z2)) / 64;
  const k3c = (PI4 * (-60 * z2 + 212 * z4)) / 16;
  const k3b = (PI2 * (135 * z4 - 96 * z6)) / 4;
  const k3a = -30 * z6 - 90 * z ** 8;
  const K = [0, 0, 0, 0];
  const maxk = Math.ceil((16 * z) / Math.PI);
  for (let k = maxk; k > 0; k--) {
    const m = 2 * k - 1;
    const m2 = m ** 2;
    const m4 = m ** 4;
    const m6 = m ** 6;
    const qpower = q ** (8 * k);
    const coeffs = [1, k1a + k1b * m2, k2a + k2b * m2 + k2c * m4, k3a + k3b * m2 + k3c * m4 + k3d * m6];
    for (let i = 0; i < 4; i++) K[i] = K[i] * qpower + coeffs[i];
  }
  const denominators = [z, 6 * z4, 72 * z ** 7, 6480 * z ** 10];
  for (let i = 0; i < 4; i++) K[i] = (K[i] * q * SQRT_2PI) / denominators[i];
  q = Math.exp(-PI2 / 2 / z2);
  let k2extra = 0;
  let k3extra = 0;
  const sqrt3z = Math.sqrt(3) * z;
  for (let k = maxk; k > 0; k--) {
    const k2 = k * k;
    const qp = q ** k2;
    k2extra += k2 * qp;
    k3extra += (sqrt3z + Math.PI * k) * (sqrt3z - Math.PI * k) * k2 * qp;
  }
  K[2] += (k2extra * PI2 * SQRT_2PI) / (-36 * z3);
  K[3] += (k3extra * PI2 * SQRT_2PI) / (216 * z6);
  let sum = 0;
  for (let i = 0; i < 4; i++) sum += K[i] / n ** (i / 2);
  return sum;
}

/** P(D_n > x) for the two-sided one-sample KS statistic (scipy.stats.kstwo.sf(x, n)). */
export function kolmogorovSf(n: number, x: number): number {
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`kolmogorovSf needs a positive integer n, got ${n}`);
  if (x >= 1) return 0;
  if (x <= 0) return 1;
  const t = n * x;
  if (t <= 1) {
    // Ruben-Gambino: P(D_n <= x) = n!/n^n (2t-1)^n for 1/(2n) <= x <= 1/n.
    if (t <= 0.5) return 1;
    let cdf: number;
    if (n <= 140) {
      cdf = 1;
      for (let i = 1; i <= n; i++) cdf *= i * (1 / n) * (2 * t - 1);
    } else {
      cdf = Math.exp(logFactorialOverPower(n) + n * Math.log(2 * t - 1));
    }
    return clip(1 - cdf);
  }
  if (t >= n - 1) return clip(2 * (1 - x) ** n);
  if (x >= 0.5) return clip(2 * smirnovSf(n, x));
  const nx2 = t * x;
  if (n <= 140) {
    if (nx2 <= 0.754693) return clip(1 - durbinMatrixCdf(n, x));
    if (nx2 <= 4) return clip(1 - pomeranzCdf(n, x));
    return clip(2 * smirnovSf(n, x));
  }
  if (nx2 >= 370) return 0;
  if (nx2 >= 2.2) return clip(2 * smirnovSf(n, x));
  let cdf: number;
  if (nx2 >= 18) cdf = 1;
  else if (n <= 100000 && n * x ** 1.5 <= 1.4) cdf = durbinMatrixCdf(n, x);
  else cdf = pelzGoodCdf(n, x);
  return clip(1 - cdf);
}
