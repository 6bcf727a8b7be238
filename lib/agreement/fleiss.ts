import { type AgreementComponents, agreementComponents, type UnitCounts, unitCounts, unitCountsFromTable } from "./counts";
import { unpairedReason } from "./reasons";
import { asTable, type AnswersInput, type TableOptions } from "./table";
import type { AgreementResult } from "./types";

/** A chance-corrected coefficient (p_a - p_e)/(1 - p_e) with its two ingredients. */
export interface ChanceCorrectedResult extends AgreementResult {
  /** Observed agreement p_a. */
  pa: number | null;
  /** Chance agreement p_e. */
  pe: number | null;
}

/** statsmodels `fleiss_kappa(method=…)`: 'fleiss' (p_e = Σπ²) or 'randolph' (p_e = 1/k, free-marginal). */
export type FleissMethod = "fleiss" | "randolph";

function fleissFromCounts(counts: UnitCounts, method: FleissMethod, noPairsReason: () => string): ChanceCorrectedResult {
  return fleissFromComponents(agreementComponents(counts, null), counts.categories, method, noPairsReason);
}

/** Fleiss' kappa from the unweighted components p_a, π (see agreementComponents) of a scale with q categories. */
export function fleissFromComponents(c: Pick<AgreementComponents, "pa" | "pi" | "paired">, categories: number, method: FleissMethod, noPairsReason: () => string): ChanceCorrectedResult {
  if (c.pa === null) return { value: null, reason: noPairsReason(), n: 0, pa: null, pe: null };
  const pe = method === "randolph" ? 1 / categories : c.pi.reduce((s, p) => s + p * p, 0);
  if (pe >= 1) {
    const why = method === "randolph" ? "the scale has one category" : "all ratings fall in one category";
    return { value: null, reason: `${why}, so chance agreement is 1 and kappa is undefined`, n: c.paired, pa: c.pa, pe };
  }
  return { value: (c.pa - pe) / (1 - pe), n: c.paired, pa: c.pa, pe };
}

/**
 * Fleiss' kappa of ragged ratings: κ = (p̄ - p_e)/(1 - p_e) with p̄ the mean per-item share
 * of agreeing rater pairs and p_e = Σ_k π_k², π_k the mean share of category k per item.
 * With the same number of raters per item this is statsmodels `fleiss_kappa`
 * (GradedReviews §4.3 reports it per batch); with missing ratings, which
 * statsmodels rejects, it is Gwet's generalisation (irrCAC `fleiss.kappa.raw`): p̄ over items
 * with two or more ratings, π over all rated items. Randolph's variant uses p_e = 1/q, so it
 * depends on unused categories: declare the `scale` for it.
 */
export function fleissKappa(input: AnswersInput, options: TableOptions & { method?: FleissMethod } = {}): ChanceCorrectedResult {
  const table = asTable(input, options);
  return fleissFromCounts(unitCounts(table), options.method ?? "fleiss", () => unpairedReason(table));
}

/**
 * Fleiss' kappa from an items × categories count table (statsmodels `fleiss_kappa` input).
 * Rows may have different totals (see fleissKappa).
 */
export function fleissKappaFromCounts(table: readonly (readonly number[])[], options: { method?: FleissMethod } = {}): ChanceCorrectedResult {
  return fleissFromCounts(unitCountsFromTable(table), options.method ?? "fleiss", () => (table.length === 0 ? "no ratings" : "no item has two or more ratings"));
}
