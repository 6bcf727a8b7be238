export type { NumericSample, TestResult } from "./types";
export { pearson, spearman } from "./correlation";
export { rankAverage } from "./rank";
