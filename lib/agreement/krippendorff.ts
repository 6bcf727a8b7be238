import { type UnitCounts, unitCounts } from "./counts";
import { unpairedReason } from "./reasons";
import { asTable, type RatingsInput, type TableOptions } from "./table";
import type { AgreementResult, Level, RatingValue } from "./types";

export interface AlphaResult extends AgreementResult {
  level: Level;
  /** n in Krippendorff's notation: the number of pairable values (ratings of items with >= 2 ratings). */
  pairableValues: number;
  /** D_o = Σ o_ck δ²_ck / n. */
  observedDisagreement: number | null;
  /** D_e = Σ n_c n_k δ²_ck / (n(n-1)). α = 1 - D_o/D_e. */
  expectedDisagreement: number | null;
}

/**
 * Krippendorff's squared difference δ²(c, k) between scale categories (Krippendorff 2011,
 * "Computing Krippendorff's Alpha-Reliability"; metrics-spec §6c), as a q×q matrix:
 * nominal [c≠k]; ordinal (Σ_{g=c..k} n_g - (n_c + n_k)/2)² over the scale order, with n_g
 * the pairable-value marginals; interval (c - k)²; ratio ((c - k)/(c + k))², 0 when c + k = 0.
 */
export function differenceMatrix(level: Level, scale: readonly RatingValue[], marginals: ArrayLike<number>): number[][] {
  const q = scale.length;
  if ((level === "interval" || level === "ratio") && !scale.every((v) => typeof v === "number")) {
    throw new TypeError(`the ${level} level needs numeric ratings; labels only support nominal (or ordinal with a declared scale)`);
  }
  const x = scale as readonly number[];
  // cumulative[g] = Σ_{h<g} n_h, so Σ_{g=c..k} n_g = cumulative[k+1] - cumulative[c] for c <= k.
  const cumulative = new Float64Array(q + 1);
  for (let g = 0; g < q; g++) cumulative[g + 1] = cumulative[g] + marginals[g];
  return Array.from({ length: q }, (_, c) =>
    Array.from({ length: q }, (_, k) => {
      if (c === k) return 0;
      switch (level) {
        case "nominal":
          return 1;
        case "ordinal": {
          const [lo, hi] = c < k ? [c, k] : [k, c];
          return (cumulative[hi + 1] - cumulative[lo] - (marginals[c] + marginals[k]) / 2) ** 2;
        }
        case "interval":
          return (x[c] - x[k]) ** 2;
        case "ratio":
          return x[c] + x[k] === 0 ? 0 : ((x[c] - x[k]) / (x[c] + x[k])) ** 2;
      }
    }),
  );
}

/**
 * The coincidence matrix o_ck = Σ_u n_uc (n_uk - [c=k]) / (m_u - 1) over units with m_u >= 2
 * values (Krippendorff 2011 §B), q×q over the distinct scale values only (row-major), built
 * from per-unit category counts in O(Σ_u d_u²) for d_u distinct values per unit: no pairs
 * of ratings are enumerated, so 10^6 ratings take milliseconds.
 */
export function coincidences(counts: UnitCounts): { o: Float64Array; units: number } {
  const q = counts.categories;
  const o = new Float64Array(q * q);
  let units = 0;
  for (let u = 0; u < counts.total.length; u++) {
    const from = counts.start[u];
    const to = counts.start[u + 1];
    const m = counts.total[u];
    if (m < 2) continue;
    units++;
    for (let e = from; e < to; e++) {
      const c = counts.category[e];
      const nc = counts.count[e];
      for (let f = from; f < to; f++) {
        const k = counts.category[f];
        o[c * q + k] += (nc * (counts.count[f] - (e === f ? 1 : 0))) / (m - 1);
      }
    }
  }
  return { o, units };
}

/**
 * Krippendorff's alpha for ragged ratings by the coincidence-matrix method (Krippendorff 2011;
 * reference pln-fing-udelar/fast-krippendorff; metrics-spec §6c):
 * α = 1 - (n - 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck, n_c the coincidence marginals, n their total.
 * Items with fewer than two ratings are ignored. The level is required: the krippendorff
 * package defaults to "interval", CRScore reports ordinal alphas. The value domain is the
 * scale (declared, or the sorted observed values). With a single distinct pairable value
 * D_e = 0 and α is undefined (the package raises): null with a reason.
 * Time O(N + Σ_u d_u² + q²), memory O(N + q²) for N ratings and q distinct values.
 */
export function krippendorffAlpha(input: RatingsInput, options: TableOptions & { level: Level }): AlphaResult {
  const table = asTable(input, options);
  const { o, units } = coincidences(unitCounts(table));
  return alphaFromCoincidences(o, units, options.level, table.scale, () => unpairedReason(table));
}

/** Krippendorff's alpha from the coincidence matrix o (q×q, row-major) of `units` pairable units (see krippendorffAlpha). */
export function alphaFromCoincidences(o: Float64Array, units: number, level: Level, scale: readonly RatingValue[], noPairsReason: () => string): AlphaResult {
  const q = scale.length;
  const marginals = new Float64Array(q);
  for (let c = 0; c < q; c++) for (let k = 0; k < q; k++) marginals[c] += o[c * q + k];
  const n = marginals.reduce((s, v) => s + v, 0);
  const base = { level, n: units, pairableValues: Math.round(n) };
  if (units === 0) return { ...base, value: null, reason: noPairsReason(), observedDisagreement: null, expectedDisagreement: null };

  const delta = differenceMatrix(level, scale, marginals);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < q; c++) {
    for (let k = 0; k < q; k++) {
      observed += o[c * q + k] * delta[c][k];
      expected += marginals[c] * marginals[k] * delta[c][k];
    }
  }
  const dObserved = observed / n;
  const dExpected = expected / (n * (n - 1));
  if (expected === 0) {
    return { ...base, value: null, reason: "all pairable ratings have the same value, so expected disagreement is 0 and alpha is undefined", observedDisagreement: dObserved, expectedDisagreement: 0 };
  }
  return { ...base, value: 1 - dObserved / dExpected, observedDisagreement: dObserved, expectedDisagreement: dExpected };
}
