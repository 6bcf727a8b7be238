/**
 * Agreement coefficients of bootstrap resamples of items, without building the resampled
 * tables. A resample is a list of item indices into table.items (repeats allowed) and stands
 * for the table of those items in that order, each with all its ratings (lib/analysis
 * resampleItems). Each coefficient's per-item ingredients are computed once from the table:
 * - percent agreement, Fleiss, Gwet: the item's number of ratings r, its share of agreeing
 *   rater pairs and its category shares r_k/r (agreementComponents);
 * - Krippendorff's alpha: the item's coincidence contributions n_c(n_k - [c=k])/(m-1);
 * - Cohen's kappa: the pair's category indices (a, b) on the item, when both rated it.
 * A resample then adds them up over its picks, in pick order: floating-point sums run in the
 * order the coefficient itself would run them over the resampled table's items, and Cohen's
 * confusion counts are integers, so every value equals the coefficient of the resampled table
 * to the last bit (tests/unit/agreement/resampled.test.ts checks it). One resample costs
 * O(picks · distinct categories per item) instead of O(ratings) plus building a table.
 */
import { pairAgreement } from "./cohen";
import { agreementComponents, unitCounts } from "./counts";
import { fleissFromComponents } from "./fleiss";
import { gwetChanceFactor, gwetFromComponents } from "./gwet";
import { alphaFromCoincidences } from "./krippendorff";
import type { RatingTable } from "./table";
import type { Level, WeightScheme } from "./types";
import { agreementWeights, scalePositions } from "./weights";

/**
 * A coefficient of item resamples of one table: `picks` holds item indices (integral numbers);
 * null where the coefficient of the resampled table is undefined.
 */
export type ResampledCoefficient = (picks: ArrayLike<number>) => number | null;

const noReason = () => "";

/** Per-item ingredients of agreementComponents, summed over a resample's picks. */
class ComponentSums {
  private readonly total: Int32Array;
  private readonly start: Int32Array;
  private readonly category: Int32Array;
  /** count/r of each (item, category) entry, as agreementComponents adds it to π. */
  private readonly share: Float64Array;
  private readonly unitAgreement: Float64Array;
  readonly pi: Float64Array;

  constructor(table: RatingTable, weights: readonly (readonly number[])[] | null) {
    const counts = unitCounts(table);
    this.total = counts.total;
    this.start = counts.start;
    this.category = counts.category;
    this.share = new Float64Array(counts.count.length);
    for (let u = 0; u < counts.total.length; u++) {
      for (let e = counts.start[u]; e < counts.start[u + 1]; e++) this.share[e] = counts.count[e] / counts.total[u];
    }
    this.unitAgreement = agreementComponents(counts, weights).unitAgreement;
    this.pi = new Float64Array(counts.categories);
  }

  /** p_a, π (into this.pi) and the number of paired items of the resample, as agreementComponents. */
  sum(picks: ArrayLike<number>, withPi: boolean): { pa: number | null; paired: number } {
    const { total, start, category, share, unitAgreement, pi } = this;
    pi.fill(0);
    let paSum = 0;
    let paired = 0;
    let rated = 0;
    for (let i = 0; i < picks.length; i++) {
      const u = picks[i];
      const r = total[u];
      if (r === 0) continue;
      rated++;
      if (withPi) for (let e = start[u]; e < start[u + 1]; e++) pi[category[e]] += share[e];
      if (r < 2) continue;
      paSum += unitAgreement[u];
      paired++;
    }
    if (withPi) for (let k = 0; k < pi.length; k++) pi[k] /= rated;
    return { pa: paired > 0 ? paSum / paired : null, paired };
  }
}

/** Percent agreement (percentAgreement) of item resamples. */
export function resampledPercentAgreement(table: RatingTable): ResampledCoefficient {
  const sums = new ComponentSums(table, null);
  return (picks) => sums.sum(picks, false).pa;
}

/** Fleiss' kappa (fleissKappa, method "fleiss") of item resamples. */
export function resampledFleissKappa(table: RatingTable): ResampledCoefficient {
  const sums = new ComponentSums(table, null);
  return (picks) => {
    const { pa, paired } = sums.sum(picks, true);
    return fleissFromComponents({ pa, pi: sums.pi, paired }, table.scale.length, "fleiss", noReason).value;
  };
}

/** Gwet's AC1 or AC2 (gwetAc) of item resamples. */
export function resampledGwetAc(table: RatingTable, scheme: WeightScheme = "unweighted"): ResampledCoefficient {
  const q = table.scale.length;
  const weights = agreementWeights(scheme, scalePositions(table.scale));
  const sums = new ComponentSums(table, weights);
  const peFactor = q < 2 ? 0 : gwetChanceFactor(weights, q);
  return (picks) => {
    const { pa } = sums.sum(picks, true);
    if (pa === null || q < 2) return null;
    return gwetFromComponents(pa, sums.pi, peFactor).value;
  };
}

/** Krippendorff's alpha (krippendorffAlpha) of item resamples. */
export function resampledKrippendorffAlpha(table: RatingTable, level: Level): ResampledCoefficient {
  const counts = unitCounts(table);
  const q = counts.categories;
  const items = counts.total.length;
  // Per item with two or more ratings, its coincidence cells and contributions, in the order
  // coincidences() adds them (each cell once per item, so per-cell sums keep the item order).
  const cellStart = new Int32Array(items + 1);
  const cells: number[] = [];
  const contributions: number[] = [];
  for (let u = 0; u < items; u++) {
    const from = counts.start[u];
    const to = counts.start[u + 1];
    const m = counts.total[u];
    if (m >= 2) {
      for (let e = from; e < to; e++) {
        const c = counts.category[e];
        const nc = counts.count[e];
        for (let f = from; f < to; f++) {
          cells.push(c * q + counts.category[f]);
          contributions.push((nc * (counts.count[f] - (e === f ? 1 : 0))) / (m - 1));
        }
      }
    }
    cellStart[u + 1] = cells.length;
  }
  const cell = Int32Array.from(cells);
  const contribution = Float64Array.from(contributions);
  const pairable = Uint8Array.from(counts.total, (m) => (m >= 2 ? 1 : 0));
  const o = new Float64Array(q * q);
  return (picks) => {
    o.fill(0);
    let units = 0;
    for (let i = 0; i < picks.length; i++) {
      const u = picks[i];
      if (!pairable[u]) continue;
      units++;
      for (let x = cellStart[u]; x < cellStart[u + 1]; x++) o[cell[x]] += contribution[x];
    }
    return alphaFromCoincidences(o, units, level, table.scale, noReason).value;
  };
}

/**
 * Cohen's kappa (cohenKappa) of two raters of the table on item resamples; both must be
 * raters of the table, else every resample gives null.
 */
export function resampledCohenKappa(table: RatingTable, raters: readonly [string, string], scheme: WeightScheme = "unweighted"): ResampledCoefficient {
  const ra = table.raters.indexOf(raters[0]);
  const rb = table.raters.indexOf(raters[1]);
  if (ra < 0 || rb < 0 || ra === rb) return () => null;
  const q = table.scale.length;
  // Per item: a·q + b for the pair's ratings a, b, or -1 unless both rated it.
  const code = new Int32Array(table.items.length).fill(-1);
  for (let u = 0; u < table.items.length; u++) {
    let va = -1;
    let vb = -1;
    for (let e = table.itemStart[u]; e < table.itemStart[u + 1]; e++) {
      if (table.rater[e] === ra) va = table.value[e];
      else if (table.rater[e] === rb) vb = table.value[e];
    }
    if (va >= 0 && vb >= 0) code[u] = va * q + vb;
  }
  const counts = new Float64Array(q * q);
  return (picks) => {
    counts.fill(0);
    let n = 0;
    for (let i = 0; i < picks.length; i++) {
      const c = code[picks[i]];
      if (c < 0) continue;
      counts[c]++;
      n++;
    }
    if (n === 0) return null;
    const { po, pe } = pairAgreement(counts, n, q, table.scaleDeclared, scheme);
    return pe >= 1 ? null : (po - pe) / (1 - pe);
  };
}
