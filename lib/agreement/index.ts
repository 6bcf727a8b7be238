export type { AgreementResult, Level, Rating, AnswerValue, WeightScheme } from "./types";
export { asTable, buildAnswerTable, answerTableFromColumns, selectRaters, type AnswerColumns, type AnswersInput, type AnswerTable, type TableOptions } from "./table";
export { ratingsFromMatrix, type MatrixLayout } from "./matrix";
export { agreementWeights, scalePositions } from "./weights";
export { pairConfusions, pairedValues, type PairConfusions, type PairedValues } from "./pairs";
export { leastAgreement, percentAgreement, perItemAgreement, type ItemAgreement } from "./percent-agreement";
export { cohenKappa, pairKappa, type CohenOptions, type CohenResult } from "./cohen";
export { fleissKappa, fleissKappaFromCounts, type ChanceCorrectedResult, type FleissMethod } from "./fleiss";
export { krippendorffAlpha, differenceMatrix, type AlphaResult } from "./krippendorff";
export { gwetAc, type GwetResult } from "./gwet";
export { dawidSkene, type DawidSkeneOptions, type DawidSkeneResult } from "./dawid-skene";
export { pairwiseMatrix, type PairwiseCoefficient, type PairwiseMatrix } from "./pairwise";
export {
  ItemResamples,
  resampledCohenKappa,
  resampledFleissKappa,
  resampledGwetAc,
  resampledKrippendorffAlpha,
  resampledPercentAgreement,
  type ResampledCoefficient,
  SharedResamples,
} from "./resampled";
export { ItemSubsets } from "./item-subsets";
