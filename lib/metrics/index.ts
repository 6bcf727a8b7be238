/** Public API of the text-metric library (see metrics-spec.md sections 1-5 and the CRScore / GradedReviews papers). */
export { bleuFromStr, codeReviewerBleu, gradedReviewsBleu, mosesSmoothBleu, PY_FLOAT_MIN } from "./smooth-bleu";
export type { BleuFromStrResult, CodeReviewerBleuOptions } from "./smooth-bleu";
export { CODEREVIEWER_STOPWORDS } from "./stopwords";
export { normalizeMteval11a, tokenize13a } from "./mteval";
export { pyRound, splitPuncts, wordpunctTokenize } from "./python-compat";
