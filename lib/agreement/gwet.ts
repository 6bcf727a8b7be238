import { type AgreementComponents, agreementComponents, type UnitCounts, unitCounts } from "./counts";
import type { ChanceCorrectedResult } from "./fleiss";
import { unpairedReason } from "./reasons";
import { asTable, type AnswersInput, type TableOptions } from "./table";
import type { WeightScheme } from "./types";
import { agreementWeights, scalePositions } from "./weights";

export interface GwetResult extends ChanceCorrectedResult {
  /** "AC1" unweighted, "AC2" weighted (irrCAC naming). */
  name: "AC1" | "AC2";
  /** Standard error (irrCAC, infinite population); null with fewer than two rated items. */
  standardError: number | null;
}

/**
 * Gwet's AC1 (unweighted) and AC2 (weighted) for ragged ratings, as irrCAC `gwet`
 * (kgwet/irrCAC R `gwet.ac1.raw`, Python port afergadis/irrCAC):
 * p_a = mean over items with r_i >= 2 of Σ_k r_ik(r*_ik - 1)/(r_i(r_i - 1)), r*_ik = Σ_l w_kl r_il;
 * π_k = mean over rated items of r_ik/r_i; p_e = T_w/(q(q-1)) Σ_k π_k(1 - π_k), T_w = Σ w_kl;
 * AC = (p_a - p_e)/(1 - p_e). Weights use category values (labels: 1..q), not indices.
 * q is the scale length, so declare the `scale` when some categories are unused
 * (q moves AC1 from 0.6552 to 0.7468). With q = 1, irrCAC patches p_e to
 * 1 - 1e-15; here the coefficient is null with a reason instead.
 */
export function gwetAc(input: AnswersInput, options: TableOptions & { weights?: WeightScheme } = {}): GwetResult {
  const table = asTable(input, options);
  const scheme = options.weights ?? "unweighted";
  const counts = unitCounts(table);
  const weights = agreementWeights(scheme, scalePositions(table.scale));
  const c = agreementComponents(counts, weights);
  const result = gwetFromParts(c, scheme, weights, () => unpairedReason(table));
  if (result.value === null || result.pe === null) return result;
  return { ...result, standardError: standardError(counts, c, result.value, result.pe, gwetChanceFactor(weights, table.scale.length)) };
}

/**
 * Gwet's AC1/AC2 from the components p_a (weighted by `weights`, the agreement weights of
 * `scheme` on the scale's q categories) and π (see agreementComponents), as gwetAc reports it
 * but without the standard error (null).
 */
export function gwetFromParts(c: Pick<AgreementComponents, "pa" | "pi" | "paired">, scheme: WeightScheme, weights: readonly (readonly number[])[], noPairsReason: () => string): GwetResult {
  const q = weights.length;
  const name = scheme === "unweighted" ? "AC1" : "AC2";
  const undefinedResult = (reason: string, n = 0): GwetResult => ({ value: null, reason, n, pa: null, pe: null, name, standardError: null });
  if (c.pa === null) return undefinedResult(noPairsReason());
  if (q < 2) return undefinedResult("the scale has only one category, so chance agreement is undefined (declare the scale)", c.paired);
  const { pe, value } = gwetFromComponents(c.pa, c.pi, gwetChanceFactor(weights, q));
  if (value === null) return { ...undefinedResult("chance agreement is 1, so the coefficient is undefined", c.paired), pa: c.pa, pe };
  return { value, n: c.paired, pa: c.pa, pe, name, standardError: null };
}

/** T_w/(q(q-1)), the factor of Gwet's chance agreement p_e = T_w/(q(q-1)) Σ_k π_k(1 - π_k). */
export function gwetChanceFactor(weights: readonly (readonly number[])[], q: number): number {
  const totalWeight = weights.reduce((s, row) => s + row.reduce((a, w) => a + w, 0), 0);
  return totalWeight / (q * (q - 1));
}

/** AC1/AC2 = (p_a - p_e)/(1 - p_e) from p_a and the prevalences π; null when p_e >= 1. */
export function gwetFromComponents(pa: number, pi: Float64Array, peFactor: number): { pe: number; value: number | null } {
  let spread = 0;
  for (const p of pi) spread += p * (1 - p);
  const pe = peFactor * spread;
  return { pe, value: pe >= 1 ? null : (pa - pe) / (1 - pe) };
}

/**
 * irrCAC's linearisation variance of AC1/AC2 (Gwet 2008, eq. 28; `gwet.ac1.raw`, f = 0):
 * v = Σ_i (AC*_i - AC)²/(n(n-1)) over the n rated items, with
 * AC_i = (n/n₂)(p_a,i - p_e·[r_i >= 2])/(1 - p_e), p_e,i = (T_w/(q(q-1))) Σ_k r_ik(1 - π_k)/r_i,
 * AC*_i = AC_i - 2(1 - AC)(p_e,i - p_e)/(1 - p_e).
 */
function standardError(counts: UnitCounts, c: AgreementComponents, value: number, pe: number, peFactor: number): number | null {
  const n = c.rated;
  if (n < 2) return null;
  let ss = 0;
  for (let u = 0; u < counts.total.length; u++) {
    const r = counts.total[u];
    if (r === 0) continue;
    let unitPe = 0;
    for (let e = counts.start[u]; e < counts.start[u + 1]; e++) unitPe += counts.count[e] * (1 - c.pi[counts.category[e]]);
    unitPe *= peFactor / r;
    const unitAc = ((n / c.paired) * (c.unitAgreement[u] - (r >= 2 ? pe : 0))) / (1 - pe);
    const linearised = unitAc - (2 * (1 - value) * (unitPe - pe)) / (1 - pe);
    ss += (linearised - value) ** 2;
  }
  return Math.sqrt(ss / (n * (n - 1)));
}
