/**
 * The agreement coefficients reported for every question, each with its exact method name,
 * at the question's level of measurement: Cohen's kappa (quadratic weights for ordinal
 * scales; the mean over rater pairs when there are more than two raters), Fleiss' kappa,
 * Krippendorff's alpha (nominal or ordinal, CRScore §4.2 reports ordinal alphas), Gwet's AC1
 * (nominal) or AC2 (ordinal, quadratic weights) and percent agreement.
 */
import { type AgreementResult, cohenKappa, fleissKappa, gwetAc, type ItemResamples, type ItemSubsets, krippendorffAlpha, type Level, pairConfusions, type PairConfusions, pairKappa, percentAgreement, type AnswerTable, type WeightScheme } from "@/lib/agreement";
import type { Question } from "./questions";

/** "alpha" is Krippendorff's alpha at the question's level; "alpha-interval" etc. at another level. */
export type CoefficientKey = "percent" | "cohen" | "fleiss" | "alpha" | "gwet" | `alpha-${Level}`;

/**
 * The levels of measurement at which a question's alpha is reported: Likert scores
 * and grades at the ordinal level (CRScore §4.2) and the interval level; labels (claim codes,
 * filters) at the nominal level only. `requested` adds levels (nominal, ratio) on request;
 * interval and ratio need a numeric scale.
 */
export function alphaLevels(question: Pick<Question, "level" | "scale">, requested: readonly Level[] = []): Level[] {
  const numeric = question.scale.every((v) => typeof v === "number");
  const levels: Level[] = [question.level, ...(question.level === "ordinal" && numeric ? (["interval"] as const) : []), ...requested];
  return [...new Set(levels)].filter((l) => numeric || l === "nominal" || (l === "ordinal" && question.level === "ordinal"));
}

export interface CoefficientDefinition {
  key: CoefficientKey;
  method: string;
  compute: (table: AnswerTable) => AgreementResult;
  /**
   * The coefficient's value on the loaded item resample of a table (lib/agreement
   * ItemResamples): `resampled(new ItemResamples(table).load(picks))` equals
   * `compute(resampleItems(table, picks)).value` exactly, without building the resampled
   * table. For bootstrap CIs.
   */
  resampled: (resample: ItemResamples) => number | null;
  /**
   * The coefficient of the loaded item subset of a table (lib/agreement ItemSubsets):
   * `ofSubset(new ItemSubsets(table).load(items))` equals `compute(resampleItems(table, items))`
   * (value, n and reason) exactly, without building the subset's table. For windows.
   */
  ofSubset: (subset: ItemSubsets) => AgreementResult;
  /**
   * Passes over the ratings one computation takes (rater pairs for the mean pairwise kappa):
   * the cost that sets a default CI's number of resamples (affordableResamples). Resampled
   * coefficients are far cheaper, but keep this cost so seeded CIs stay what they were.
   */
  passes: number;
}

/**
 * Light's (1971) mean of Cohen's kappa over the rater pairs with a defined kappa; n = those
 * pairs. For more than two raters, as SWE-Judge RQ2 averages pairwise human-human kappas.
 * Each pair's kappa is cohenKappa's, from its confusion counts (all pairs tallied in one pass;
 * `confusions` of a subset of the items give the subset's).
 */
export function meanPairwiseCohen(table: AnswerTable, weights: WeightScheme, confusions: PairConfusions = pairConfusions(table)): AgreementResult {
  const raters = table.raters.length;
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < raters; i++) {
    for (let j = i + 1; j < raters; j++) {
      const kappa = pairKappa(table, i, j, weights, [table.raters[i], table.raters[j]], confusions).value;
      if (kappa === null) continue;
      sum += kappa;
      pairs++;
    }
  }
  return pairs === 0 ? { value: null, reason: "no pair of raters has a defined kappa (no common items, or one category only)", n: 0 } : { value: sum / pairs, n: pairs };
}

/** meanPairwiseCohen of a loaded item resample (the same sum over pairs, in the same order). */
export function resampledMeanPairwiseCohen(resample: ItemResamples, weights: WeightScheme): number | null {
  const { raters } = resample.table;
  const pairs: [string, string][] = [];
  for (let i = 0; i < raters.length; i++) for (let j = i + 1; j < raters.length; j++) pairs.push([raters[i], raters[j]]);
  let sum = 0;
  let defined = 0;
  for (const kappa of resample.cohenKappas(pairs, weights)) {
    if (kappa === null) continue;
    sum += kappa;
    defined++;
  }
  return defined === 0 ? null : sum / defined;
}

const weightName = (weights: WeightScheme) => (weights === "unweighted" ? "unweighted" : `${weights} weights`);

/** The coefficients of a question for a table with `raterCount` raters; `names` name raters in reasons and notes (default their ids). */
export function coefficientDefinitions(question: Question, raterCount: number, requestedLevels: readonly Level[] = [], names?: ReadonlyMap<string, string>): CoefficientDefinition[] {
  const { level, weights } = question;
  const pairNames = (t: AnswerTable): [string, string] | undefined => (names && t.raters.length === 2 ? [names.get(t.raters[0]) ?? t.raters[0], names.get(t.raters[1]) ?? t.raters[1]] : undefined);
  // Alphas at further levels share the resamples; their cost is not counted, so seeded CIs keep their resample counts.
  const otherAlphas: CoefficientDefinition[] = alphaLevels(question, requestedLevels)
    .filter((l) => l !== level)
    .map((l) => ({ key: `alpha-${l}`, method: `Krippendorff's alpha, ${l} (coincidence matrix; n = items with two or more ratings)`, compute: (t) => krippendorffAlpha(t, { level: l }), resampled: (r) => r.krippendorffAlpha(l), ofSubset: (s) => s.krippendorffAlpha(l), passes: 0 }));
  const cohen: CoefficientDefinition =
    raterCount > 2
      ? {
          key: "cohen",
          method: `Mean pairwise Cohen's kappa, ${weightName(weights)} (Light 1971: mean over the rater pairs with a defined kappa; n = pairs)`,
          compute: (t) => meanPairwiseCohen(t, weights),
          resampled: (r) => resampledMeanPairwiseCohen(r, weights),
          ofSubset: (s) => meanPairwiseCohen(s.table, weights, s.pairConfusions()),
          passes: (raterCount * (raterCount - 1)) / 2,
        }
      : {
          key: "cohen",
          method: `Cohen's kappa, ${weightName(weights)} (sklearn cohen_kappa_score; n = items rated by both)`,
          compute: (t) => cohenKappa(t, { weights, names: pairNames(t) }),
          resampled: (r) => (r.table.raters.length === 2 ? r.cohenKappa([r.table.raters[0], r.table.raters[1]], weights) : null),
          ofSubset: (s) => s.cohenKappa(weights, pairNames(s.table)),
          passes: 1,
        };
  return [
    { key: "percent", method: "Percent agreement (share of agreeing rater pairs per item, mean over items with two or more ratings)", compute: (t) => percentAgreement(t), resampled: (r) => r.percentAgreement(), ofSubset: (s) => s.percentAgreement(), passes: 1 },
    cohen,
    { key: "fleiss", method: "Fleiss' kappa, unweighted (statsmodels fleiss_kappa; Gwet's generalisation for missing ratings)", compute: (t) => fleissKappa(t), resampled: (r) => r.fleissKappa(), ofSubset: (s) => s.fleissKappa(), passes: 1 },
    { key: "alpha", method: `Krippendorff's alpha, ${level} (coincidence matrix; n = items with two or more ratings)`, compute: (t) => krippendorffAlpha(t, { level }), resampled: (r) => r.krippendorffAlpha(level), ofSubset: (s) => s.krippendorffAlpha(level), passes: 1 },
    weights === "unweighted"
      ? { key: "gwet", method: "Gwet's AC1 (irrCAC gwet.ac1.raw, categories of the codebook)", compute: (t) => gwetAc(t), resampled: (r) => r.gwetAc(), ofSubset: (s) => s.gwetAc(), passes: 1 }
      : { key: "gwet", method: `Gwet's AC2, ${weightName(weights)} (irrCAC gwet.ac1.raw, categories of the scale)`, compute: (t) => gwetAc(t, { weights }), resampled: (r) => r.gwetAc(weights), ofSubset: (s) => s.gwetAc(weights), passes: 1 },
    ...otherAlphas,
  ];
}
