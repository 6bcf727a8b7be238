import { quantileSorted } from "./quantile";
import { type Random, seededRandom } from "./random";
import { normalCdf, normalQuantile } from "./special/normal";
import type { NumericSample } from "./types";
import { assertFiniteSample } from "./validate";

export type BootstrapMethod = "percentile" | "basic" | "bca";

/** A statistic of one or more samples; `null` when undefined on a resample (e.g. constant data). */
export type SampleStatistic = (...samples: Float64Array[]) => number | null;

export interface BootstrapOptions {
  /** Default 9999 (SciPy). Ignored when `resampleIndices` is given. */
  nResamples?: number;
  /** Default 0.95. */
  confidenceLevel?: number;
  /** Default "percentile". SciPy's default is "BCa". */
  method?: BootstrapMethod;
  /** Resample observations jointly across samples (needed for correlations). Default false. */
  paired?: boolean;
  /** Seed of the xoshiro128** generator (see random.ts). Default 0. */
  seed?: number;
  /**
   * Explicit resamples, one row of n indices each, instead of the RNG: reproduces a given
   * bootstrap distribution (as SciPy's `bootstrap_result=`). One sample or paired data only.
   */
  resampleIndices?: readonly (readonly number[])[];
}

export interface BootstrapResult {
  low: number | null;
  high: number | null;
  /** The statistic on the original data, θ̂. */
  statistic: number | null;
  /** Standard deviation of the bootstrap distribution (ddof = 1), as SciPy's standard_error. */
  standardError: number | null;
  nResamples: number;
  method: BootstrapMethod;
  confidenceLevel: number;
  /** BCa internals: bias correction z0, acceleration â and the adjusted quantile levels. */
  bca?: { z0: number; acceleration: number; levels: [number, number] };
  reason?: string;
}

function standardDeviation(values: Float64Array): number {
  let mean = 0;
  for (const v of values) mean += v;
  mean /= values.length;
  let ss = 0;
  for (const v of values) ss += (v - mean) ** 2;
  return Math.sqrt(ss / (values.length - 1));
}

/** One resample's indices: n uniform draws in [0, n) with replacement, in order. */
function drawIndices(random: Random, into: Uint32Array): void {
  const n = into.length;
  for (let i = 0; i < n; i++) into[i] = Math.floor(random() * n);
}

/**
 * Draws the bootstrap distributions θ*_b of several statistics from one stream of resamples:
 * statistic k sees resamples 0 .. counts[k]-1 (a statistic's distribution does not depend on
 * the others or on how many resamples they take). Unpaired samples are resampled
 * independently (SciPy `paired=False`); paired samples share one index row per resample.
 * Each resample goes through `prepare` once, and the statistics read what it returns.
 * Buffers are reused between resamples, so nothing may keep references to them.
 */
function bootstrapDistributions<P>(
  samples: Float64Array[],
  prepare: (...samples: Float64Array[]) => P,
  statistics: readonly ((prepared: P) => number | null)[],
  counts: readonly number[],
  paired: boolean,
  random: Random,
  rows: readonly (readonly number[])[] | undefined,
): (Float64Array | { undefinedCount: number })[] {
  const buffers = samples.map((s) => new Float64Array(s.length));
  const indices = samples.map((s) => new Uint32Array(s.length));
  const out = counts.map((n) => new Float64Array(n));
  const undefinedCount = counts.map(() => 0);
  const total = Math.max(0, ...counts);
  for (let b = 0; b < total; b++) {
    if (rows || paired) {
      const shared = indices[0];
      if (rows) for (let i = 0; i < shared.length; i++) shared[i] = rows[b][i];
      else drawIndices(random, shared);
      for (let k = 0; k < samples.length; k++) gather(samples[k], shared, buffers[k]);
    } else {
      for (let k = 0; k < samples.length; k++) {
        drawIndices(random, indices[k]);
        gather(samples[k], indices[k], buffers[k]);
      }
    }
    const prepared = prepare(...buffers);
    for (let s = 0; s < statistics.length; s++) {
      if (b >= counts[s]) continue;
      const value = statistics[s](prepared);
      if (value === null || !Number.isFinite(value)) undefinedCount[s]++;
      else out[s][b] = value;
    }
  }
  return out.map((distribution, s) => (undefinedCount[s] > 0 ? { undefinedCount: undefinedCount[s] } : distribution));
}

function gather(sample: Float64Array, indices: Uint32Array, into: Float64Array): void {
  for (let i = 0; i < indices.length; i++) into[i] = sample[indices[i]];
}

/**
 * Jackknife acceleration â of BCa (Efron & Tibshirani 1993, eq. 14.15; SciPy `_bca_interval`):
 * leaving out one observation at a time (from all samples at once when paired, from each
 * sample in turn otherwise), U_i = (n-1)(mean θ_(·) - θ_(i)) and
 * â = Σ_j ΣU³/n_j³ / (6·(Σ_j ΣU²/n_j²)^{3/2}).
 */
function jackknifeAcceleration(samples: Float64Array[], statistic: SampleStatistic, paired: boolean): number | null {
  const groups = paired ? [samples.map((_, k) => k)] : samples.map((_, k) => [k]);
  let num = 0;
  let den = 0;
  for (const group of groups) {
    const n = samples[group[0]].length;
    const thetas = new Float64Array(n);
    for (let leave = 0; leave < n; leave++) {
      const args = samples.map((s, k) => (group.includes(k) ? Float64Array.from(s.filter((_, i) => i !== leave)) : s));
      const value = statistic(...args);
      if (value === null || !Number.isFinite(value)) return null;
      thetas[leave] = value;
    }
    const mean = thetas.reduce((a, v) => a + v, 0) / n;
    let u2 = 0;
    let u3 = 0;
    for (const t of thetas) {
      const u = (n - 1) * (mean - t);
      u2 += u * u;
      u3 += u * u * u;
    }
    num += u3 / n ** 3;
    den += u2 / n ** 2;
  }
  const a = num / (6 * den ** 1.5);
  return Number.isFinite(a) ? a : null;
}

/**
 * The BCa interval (Efron & Tibshirani 1993, §14.3; SciPy `_bca_interval`):
 * z0 = Φ⁻¹((#{θ* < θ̂} + #{θ* <= θ̂})/(2B)), â from the jackknife, and the type-7 quantiles
 * of the sorted θ* at Φ(z0 + (z0+z)/(1-â(z0+z))) for z = z_α and z_{1-α}.
 */
function bcaInterval(
  samples: Float64Array[],
  statistic: SampleStatistic,
  paired: boolean,
  sorted: Float64Array,
  theta: number,
  alpha: number,
): { low: number; high: number; details: NonNullable<BootstrapResult["bca"]> } | { reason: string } {
  let below = 0;
  let atOrBelow = 0;
  for (const v of sorted) {
    if (v < theta) below++;
    if (v <= theta) atOrBelow++;
  }
  const share = (below + atOrBelow) / (2 * sorted.length);
  if (share === 0 || share === 1) return { reason: "BCa is undefined: every bootstrap statistic lies on one side of the estimate" };
  const z0 = normalQuantile(share);
  const acceleration = jackknifeAcceleration(samples, statistic, paired);
  if (acceleration === null) return { reason: "BCa is undefined: the jackknife statistics are undefined or all equal" };
  const level = (z: number) => normalCdf(z0 + (z0 + z) / (1 - acceleration * (z0 + z)));
  const zAlpha = normalQuantile(alpha);
  const levels: [number, number] = [level(zAlpha), level(-zAlpha)];
  if (!levels.every((l) => l >= 0 && l <= 1)) return { reason: "BCa is undefined: the adjusted quantile levels are not probabilities" };
  return { low: quantileSorted(sorted, levels[0]), high: quantileSorted(sorted, levels[1]), details: { z0, acceleration, levels } };
}

/**
 * Bootstrap confidence interval of `statistic`, as scipy.stats.bootstrap,
 * with a seeded xoshiro128** generator instead of NumPy's (so intervals agree with SciPy's
 * only to Monte-Carlo error, ~0.01 at 9999 resamples; with `resampleIndices` they agree
 * exactly). Percentile: type-7 quantiles at α and 1-α, α = (1-level)/2. Basic:
 * 2θ̂ - (upper, lower). BCa: see bcaInterval. Undefined statistics (on the data or on any
 * resample, as SciPy's NaN) give null bounds with a reason.
 *
 * @example
 * const mean = (x: Float64Array) => x.reduce((a, v) => a + v, 0) / x.length;
 * bootstrapCi([[0.42, 0.51, 0.38, 0.77, 0.64]], mean, { seed: 1 }); // percentile 95 % CI of the mean
 * bootstrapCi([x, y], (a, b) => spearman(a, b).statistic, { paired: true, method: "bca" });
 */
export function bootstrapCi(data: readonly NumericSample[], statistic: SampleStatistic, options: BootstrapOptions = {}): BootstrapResult {
  return bootstrapCis(data, [{ statistic }], options)[0];
}

/** One statistic of bootstrapCis, optionally with its own number of resamples. */
export interface BootstrapStatistic {
  statistic: SampleStatistic;
  /** Default options.nResamples. Ignored when `resampleIndices` is given. */
  nResamples?: number;
}

/**
 * Bootstrap CIs of several statistics of the same data from one stream of resamples: result k
 * equals `bootstrapCi(data, statistics[k].statistic, { ...options, nResamples: statistics[k].nResamples })`
 * (with a seed, the first B resamples of a stream do not depend on how many follow), but
 * each resample is drawn once for all of them.
 */
export function bootstrapCis(data: readonly NumericSample[], statistics: readonly BootstrapStatistic[], options: BootstrapOptions = {}): BootstrapResult[] {
  return bootstrapCisPrepared(
    data,
    (...samples) => samples,
    statistics.map((s) => ({ statistic: (samples: Float64Array[]) => s.statistic(...samples), nResamples: s.nResamples })),
    options,
  );
}

/** A statistic of prepared samples (see bootstrapCisPrepared), optionally with its own number of resamples. */
export interface PreparedStatistic<P> {
  statistic: (prepared: P) => number | null;
  /** Default options.nResamples. Ignored when `resampleIndices` is given. */
  nResamples?: number;
}

/**
 * bootstrapCis for statistics that share work on each resample (e.g. the multiplicities of
 * resampled indices, or sums several coefficients read): `prepare` is called once with the
 * original data, once with each resample and, for BCa, once with each jackknife sample, and
 * the statistics are evaluated on what it returns. Result k equals the bootstrapCi of
 * `(...samples) => statistics[k].statistic(prepare(...samples))`. What `prepare` returns may
 * be reused from call to call: statistics read it at once and keep no reference to it.
 */
export function bootstrapCisPrepared<P>(
  data: readonly NumericSample[],
  prepare: (...samples: Float64Array[]) => P,
  statistics: readonly PreparedStatistic<P>[],
  options: BootstrapOptions = {},
): BootstrapResult[] {
  const method = options.method ?? "percentile";
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const paired = options.paired ?? false;
  const rows = options.resampleIndices;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidence level must be in (0, 1), got ${confidenceLevel}`);
  if (data.length === 0) throw new RangeError("bootstrap needs at least one sample");
  data.forEach((s, k) => assertFiniteSample(`sample ${k}`, s));
  if (paired && data.some((s) => s.length !== data[0].length)) throw new RangeError("paired samples must have equal length");
  if (rows && data.length > 1 && !paired) throw new RangeError("resampleIndices need a single sample or paired samples");
  if (rows?.some((r) => r.length !== data[0].length || r.some((i) => !Number.isInteger(i) || i < 0 || i >= data[0].length))) {
    throw new RangeError("every resample row must hold n indices in [0, n)");
  }

  const samples = data.map((s) => Float64Array.from(s));
  const alpha = (1 - confidenceLevel) / 2;
  const tooSmall = samples.some((s) => s.length < 2);
  const original = tooSmall ? null : prepare(...samples);
  type Pending = { statistic: (prepared: P) => number | null; nResamples: number; base: Pick<BootstrapResult, "method" | "confidenceLevel" | "nResamples">; undefinedResult: (reason: string, theta?: number | null) => BootstrapResult; theta: number };
  const started = statistics.map(({ statistic, nResamples: own }): { done: BootstrapResult } | Pending => {
    const nResamples = rows ? rows.length : (own ?? options.nResamples ?? 9999);
    const base = { method, confidenceLevel, nResamples };
    const undefinedResult = (reason: string, theta: number | null = null): BootstrapResult => ({ ...base, low: null, high: null, statistic: theta, standardError: null, reason });
    if (tooSmall) return { done: undefinedResult("every sample needs at least 2 observations") };
    if (nResamples < 2) return { done: undefinedResult("needs at least 2 resamples") };
    const theta = statistic(original as P);
    if (theta === null || !Number.isFinite(theta)) return { done: undefinedResult("the statistic is undefined on the original data") };
    return { statistic, nResamples, base, undefinedResult, theta };
  });
  const pending = started.flatMap((p) => ("done" in p ? [] : [p]));
  const distributions = bootstrapDistributions(
    samples,
    prepare,
    pending.map((p) => p.statistic),
    pending.map((p) => p.nResamples),
    paired,
    seededRandom(options.seed ?? 0),
    rows,
  );

  return started.map((p) => {
    if ("done" in p) return p.done;
    const { statistic, nResamples, base, undefinedResult, theta } = p;
    const distribution = distributions[pending.indexOf(p)];
    if (!(distribution instanceof Float64Array)) {
      return undefinedResult(`the statistic is undefined on ${distribution.undefinedCount} of ${nResamples} resamples`, theta);
    }
    const standardError = standardDeviation(distribution);
    const sorted = Float64Array.from(distribution).sort();

    if (method === "percentile" || method === "basic") {
      const lower = quantileSorted(sorted, alpha);
      const upper = quantileSorted(sorted, 1 - alpha);
      const [low, high] = method === "percentile" ? [lower, upper] : [2 * theta - upper, 2 * theta - lower];
      return { ...base, low, high, statistic: theta, standardError };
    }

    const bca = bcaInterval(samples, (...args) => statistic(prepare(...args)), paired, sorted, theta, alpha);
    if ("reason" in bca) return { ...undefinedResult(bca.reason, theta), standardError };
    return { ...base, low: bca.low, high: bca.high, statistic: theta, standardError, bca: bca.details };
  });
}
