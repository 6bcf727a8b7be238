/**
 * The agreement coefficients reported for every question, each with its exact method name,
 * at the question's level of measurement: Cohen's kappa (quadratic weights for ordinal
 * scales; the mean over rater pairs when there are more than two raters), Fleiss' kappa,
 * Krippendorff's alpha (nominal or ordinal, CRScore §4.2 reports ordinal alphas), Gwet's AC1
 * (nominal) or AC2 (ordinal, quadratic weights) and percent agreement.
 */
import {
  type AgreementResult,
  cohenKappa,
  fleissKappa,
  gwetAc,
  krippendorffAlpha,
  percentAgreement,
  type RatingTable,
  resampledCohenKappa,
  type ResampledCoefficient,
  resampledFleissKappa,
  resampledGwetAc,
  resampledKrippendorffAlpha,
  resampledPercentAgreement,
  type WeightScheme,
} from "@/lib/agreement";
import type { Question } from "./questions";

export type CoefficientKey = "percent" | "cohen" | "fleiss" | "alpha" | "gwet";

export interface CoefficientDefinition {
  key: CoefficientKey;
  method: string;
  compute: (table: RatingTable) => AgreementResult;
  /**
   * The coefficient's value on item resamples of `table` (see lib/agreement/resampled.ts):
   * `resample(table)(picks)` equals `compute(resampleItems(table, picks)).value` exactly,
   * without building the resampled table. For bootstrap CIs.
   */
  resample: (table: RatingTable) => ResampledCoefficient;
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
 */
export function meanPairwiseCohen(table: RatingTable, weights: WeightScheme): AgreementResult {
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < table.raters.length; i++) {
    for (let j = i + 1; j < table.raters.length; j++) {
      const kappa = cohenKappa(table, { raters: [table.raters[i], table.raters[j]], weights }).value;
      if (kappa === null) continue;
      sum += kappa;
      pairs++;
    }
  }
  return pairs === 0 ? { value: null, reason: "no pair of raters has a defined kappa (no common items, or one category only)", n: 0 } : { value: sum / pairs, n: pairs };
}

/** meanPairwiseCohen of item resamples of `table` (the same sum over pairs, in the same order). */
export function resampledMeanPairwiseCohen(table: RatingTable, weights: WeightScheme): ResampledCoefficient {
  const pairs: ResampledCoefficient[] = [];
  for (let i = 0; i < table.raters.length; i++) {
    for (let j = i + 1; j < table.raters.length; j++) pairs.push(resampledCohenKappa(table, [table.raters[i], table.raters[j]], weights));
  }
  return (picks) => {
    let sum = 0;
    let defined = 0;
    for (const pair of pairs) {
      const kappa = pair(picks);
      if (kappa === null) continue;
      sum += kappa;
      defined++;
    }
    return defined === 0 ? null : sum / defined;
  };
}

const weightName = (weights: WeightScheme) => (weights === "unweighted" ? "unweighted" : `${weights} weights`);

/** The coefficients of a question for a table with `raterCount` raters. */
export function coefficientDefinitions(question: Question, raterCount: number): CoefficientDefinition[] {
  const { level, weights } = question;
  const cohen: CoefficientDefinition =
    raterCount > 2
      ? {
          key: "cohen",
          method: `Mean pairwise Cohen's kappa, ${weightName(weights)} (Light 1971: mean over the rater pairs with a defined kappa; n = pairs)`,
          compute: (t) => meanPairwiseCohen(t, weights),
          resample: (t) => resampledMeanPairwiseCohen(t, weights),
          passes: (raterCount * (raterCount - 1)) / 2,
        }
      : { key: "cohen", method: `Cohen's kappa, ${weightName(weights)} (sklearn cohen_kappa_score; n = items rated by both)`, compute: (t) => cohenKappa(t, { weights }),
          resample: (t) => (t.raters.length === 2 ? resampledCohenKappa(t, [t.raters[0], t.raters[1]], weights) : () => null),
          passes: 1,
        };
  return [
    { key: "percent", method: "Percent agreement (share of agreeing rater pairs per item, mean over items with two or more ratings)", compute: (t) => percentAgreement(t), resample: resampledPercentAgreement, passes: 1 },
    cohen,
    { key: "fleiss", method: "Fleiss' kappa, unweighted (statsmodels fleiss_kappa; Gwet's generalisation for missing ratings)", compute: (t) => fleissKappa(t), resample: resampledFleissKappa, passes: 1 },
    { key: "alpha", method: `Krippendorff's alpha, ${level} (coincidence matrix; n = items with two or more ratings)`, compute: (t) => krippendorffAlpha(t, { level }), resample: (t) => resampledKrippendorffAlpha(t, level), passes: 1 },
    weights === "unweighted"
      ? { key: "gwet", method: "Gwet's AC1 (irrCAC gwet.ac1.raw, categories of the codebook)", compute: (t) => gwetAc(t), resample: (t) => resampledGwetAc(t), passes: 1 }
      : { key: "gwet", method: `Gwet's AC2, ${weightName(weights)} (irrCAC gwet.ac1.raw, categories of the scale)`, compute: (t) => gwetAc(t, { weights }), resample: (t) => resampledGwetAc(t, weights), passes: 1 },
  ];
}
