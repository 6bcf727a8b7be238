/** Metric runs: planned, enqueued in chunks on the job queue, computed by workers, resumable. */
export { createJobContext, fitStudyEmbedder, runEmbedder, type MetricJobContext } from "./context";
export { crscorePooling, DEFAULT_CHUNK_SIZE, planMetricRun, type MetricRunRequest } from "./plan";
export { bestRatedSystem, calibrateStudyTau, planTau, type TauCalibration, type TauRequest } from "./tau";
export { chunkJobId, enqueueChunks, type ChunkJobData } from "./chunks";
export { listMetricRuns, requestMetricRun, runParams, startMetricRun, type StartedRun } from "./runs";
export { processChunk } from "./process-chunk";
export { drainMetricRun, type ChunkJobOutput, type DrainOptions } from "./drain";
export { workMetricChunks, type WorkOptions } from "./work";
export { CRSCORE, CRSCORE_COLUMNS, EMBEDDING_SIM, isJudgeMetric, METRIC_JOB_NAMES, parseMetricNames, type MetricJobSpec, type RunParams, type SweTeam, type TauChoice } from "./specs";
export { apiKeyFor, JUDGE_CHUNK_SIZE, planLlm, parseSweTeam, SweCalibrationError, SWE_CALIBRATION_SIZE, type JudgeRunRequest } from "./judges";
export { scoreReview } from "./score";
