export type { NumericSample, TestResult } from "./types";
export { pearson, spearman } from "./correlation";
export { kendallTauB, type KendallResult } from "./kendall";
export { ks2samp, type KsResult } from "./ks";
export { rankAverage } from "./rank";
