/** Public API of the text-metric library (docs/metrics.md; the CRScore and GradedReviews papers). */
export { bleuFromStr, codeReviewerBleu, gradedReviewsBleu, mosesSmoothBleu, PY_FLOAT_MIN } from "./smooth-bleu";
export type { BleuFromStrResult, CodeReviewerBleuOptions } from "./smooth-bleu";
export {
  computeBleu,
  corpusBleu,
  sacreBleuStatistics,
  sentenceBleu,
  SACREBLEU_CORPUS_SIGNATURE,
  SACREBLEU_SENTENCE_SIGNATURE,
} from "./sacrebleu";
export type { BleuStatistics, SacreBleuScore } from "./sacrebleu";
export { chrfFromStatistics, chrfStatistics, corpusChrf, sentenceChrf, CHRF_SIGNATURE, CHRFPP_SIGNATURE } from "./chrf";
export type { ChrfWordOrder } from "./chrf";
export { lcsLength, rougeL, rougeTokenize } from "./rouge";
export type { RougeScore } from "./rouge";
export { porterStem } from "./porter";
export { meteor, singleMeteor } from "./meteor";
export { exactMatch, levenshtein, normalizedEditDistance } from "./edit-distance";
export type { EditUnit } from "./edit-distance";
export { cosineSimilarity, embeddingSim } from "./embedding";
export type { MaybeScore } from "./embedding";
export {
  bestMatches,
  bestMatchesOf,
  calibrateThreshold,
  countAboveSorted,
  crscore,
  crscoreFromCounts,
  crscoreFromBestMatches,
  CRSCORE_DEFAULT_TAU,
  isCrscorePaperModel,
  meanSentenceBest,
  pairwiseSimilarities,
  sortAllBestMatches,
  splitReviewSentences,
  thresholdSweep,
} from "./crscore";
export type {
  BestMatches,
  CalibrationResult,
  CrscoreInput,
  CrscoreResult,
  CrscoreVectors,
  SimilarityMatrix,
  SortedBestMatches,
} from "./crscore";
export { getReferenceMetric, REFERENCE_METRICS } from "./registry";
export type { MetricName, ReferenceMetric } from "./registry";
export { CODEREVIEWER_STOPWORDS } from "./stopwords";
export { normalizeMteval11a, tokenize13a } from "./mteval";
export { pyRound, wordpunctTokenize } from "./python-compat";
