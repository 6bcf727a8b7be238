/** Background jobs: metric runs (plan, enqueue with pg-boss, compute chunks, resume), dashboard reports, large imports. */
export { createJobContext, type MetricJobContext } from "./context";
export { crscorePooling, DEFAULT_CHUNK_SIZE, planMetricRun, type MetricRunRequest } from "./plan";
export { bestRatedSystem, calibrateStudyTau, planTau, type TauCalibration, type TauRequest } from "./tau";
export { chunkJobId, enqueueChunks, IMPORT_QUEUE, jobIdOf, METRIC_QUEUE, PSEUDO_REFERENCE_QUEUE, REPORT_QUEUE, startQueue, STATIC_ANALYSIS_CHUNK, STATIC_ANALYSIS_QUEUE, type ChunkJobData } from "./queue";
export { enqueueImport, followImportJob, importInlineBytes, processImportJob, type ImportEvent, type ImportJobOptions } from "./import-jobs";
export { dashboardReport, fingerprintSize, processReportJob, reportInlineLimit, reportJobNote, requestReport, routeReport, waitForReport, type DashboardReport, type ReportJobState, type ReportKind } from "./report-jobs";
export { listMetricRuns, requestMetricRun, runParams, startMetricRun, type StartedRun } from "./runs";
export { processChunk } from "./process-chunk";
export { drainMetricRun, type ChunkJobOutput, type DrainOptions } from "./worker";
export { workImportJobs, workMetricChunks, workPseudoReferenceJobs, workReportJobs, type WorkOptions } from "./work";
export { CRSCORE, CRSCORE_COLUMNS, EMBEDDING_SIM, isJudgeMetric, METRIC_JOB_NAMES, parseMetricNames, type MetricJobSpec, type RunParams, type SweTeam } from "./specs";
export { apiKeyFor, JUDGE_CHUNK_SIZE, planLlm, parseSweTeam, SweCalibrationError, SWE_CALIBRATION_SIZE, type JudgeRunRequest } from "./judges";
export { scoreReview } from "./score";
export { importMetricScores, parseScoreFile, ScoreImportError, type ScoreImportResult } from "./import-scores";
