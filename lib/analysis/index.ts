/** Study-level analyses shared by the dashboards and the CLI: agreement and metric-human validity reports. */
export { coefficientReports, questionAgreement, tablesCoefficientReports, type AgreementOptions, type AgreementReport, type CoefficientReport, type QuestionAgreement, type TaskAgreement } from "./agreement-report";
export { ALL_ITEMS, itemSetKeys, itemSetStatement, parseItemFile, parseItemIds, resolveItemIds, restrictToItemSet, type ItemSetFilter, type ItemSetStatement, type ResolvableChange, type ResolvedMember } from "./item-sets";
export { humanMetricAgreement, levelCorrelations, levelFreeSections, metricInfo, systemRanking, type CorrelationLevel, type ValidityOptions, type ValidityReport, type LevelFreeSource, type ReviewPoint } from "./validity-report";
export { claimQualityRow, CLAIM_VERDICT_RULE, type ClaimQualityReport, type ClaimQualityRow } from "./claim-quality";
export { coefficientDefinitions, meanPairwiseCohen, resampledMeanPairwiseCohen, type CoefficientKey } from "./coefficients";
export { correlationSet, type CorrelationSet, type CorrelationStat } from "./correlations";
export { type StudyItem } from "./gather";
export { numericValue, reviewQuestionKeys, type HumanScores } from "./human-scores";
export { CLAIM_CODE_SCALE, type Question } from "./questions";
export { taskQuestions } from "@/lib/tasks";
export { quantileMap } from "./quantile-map";
export { affordableResamples, bootstrapSettings, DEFAULT_BOOTSTRAP, itemBootstrapCi, itemBootstrapCis, resampleItems, type BootstrapSettings, type Interval, type ItemStatistic } from "./resample";
export { groupByLevel, humanLevel, ksMatrix, summarizeLevel, type LevelSummary } from "./score-levels";
export { claimLinkPairs, linkScores, table4Rows, type LinkPair, type Table4Row } from "./claim-links";
export { table4Report, type Table4Report } from "./table4";
export { referenceTau, sweepMatches, TABLE_18_TAUS, thresholdSweep, type SweepMatches, type SweepRow } from "./threshold-sweep";
export { cellCounts, type PairCells, pairCells, resampleKendall, resamplePearson, resampleSpearman } from "./rank-bootstrap";
