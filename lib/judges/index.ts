/**
 * LLM-judge metrics for code review comments: GradedReviews LLM-based Scoring (§5.2), SWE-Judge
 * (strategies, team selection, scale mapping) and CRScore's LaaJ baseline (D.4), over an
 * OpenAI-compatible chat-completions client. No offline judge: without LLM_URL every entry
 * point that needs the model throws LlmNotConfiguredError.
 */
export type { ChatMessage, JsonObject, JsonValue, JudgeContext, JudgeResult, Scale } from "./types";
export { FIVE_POINT } from "./types";
export { JudgeParseError, LlmNotConfiguredError, LlmRequestError } from "./errors";
export { chatCompletionsEndpoint, llmJudgeAvailability, resolveLlmConfig, type LlmConfig, type LlmEnv, type LlmSettings } from "./config";
export { createLimiter, type Limiter } from "./limiter";
export { backoffDelay, parseRetryAfter } from "@/lib/http/retry";
export { createBudget, checkBudget, LlmBudgetError, type LlmBudget } from "./budget";
export { cacheKey, sha256, type CachedAnswer, type CacheEntry, type ChatCache } from "./cache";
export { estimateCost, MODEL_PRICES, modelPrice, type ModelPrice, type TokenUsage } from "./prices";
export { createChatClient, type ChatClient, type ChatClientOptions, type ChatCompletion, type ChatRequest } from "./client";
export { GRADE_1_5, PERCENT, parseJsonScore, parseScore, type ScoreRange } from "./parse";
export { askParsed, type Asked } from "./ask";
export {
  aggregateTrialGrades,
  capModelGrade,
  gradeAgainstReference,
  gradedReviewsMessages,
  GRADEDREVIEWS_CRITERIA,
  GRADEDREVIEWS_PROMPT_VERSION,
  type GradedReviewsInput,
  type GradedReviewsOptions,
} from "./gradedreviews";
export {
  directAssessMessages,
  equivalenceMessages,
  generateTestsMessages,
  keyPointsCoverageMessages,
  keyPointsMessages,
  passTestsMessages,
  rethinkMessages,
  SWE_JUDGE_PROMPT_VERSION,
  SWE_STRATEGIES,
  SWE_STRATEGY_LABELS,
  type SweJudgeInput,
  type SweStrategy,
} from "./swe-judge-prompts";
export {
  averagedCorrelation,
  calibrationSample,
  candidateTeams,
  ensembleScore,
  mapToScale,
  selectTeam,
  scaleOfQuestion,
  toScalePoint,
  type AnnotatedSample,
  type Correlations,
  type StrategyScores,
  type TeamSelection,
  type TeamTrial,
} from "./swe-judge-team";
export { calibrateSweJudge, runStrategies, sweJudgeScore, type Calibration, type CalibrationItem, type StepCache, type StrategyRun, type SweRunOptions } from "./swe-judge";
export { CRSCORE_DIMENSIONS, CRSCORE_JUDGE_PROMPT_VERSION, crscoreJudgeMessages, rateReviewDimension, type CrscoreDimension, type CrscoreJudgeInput } from "./crscore-judge";
export {
  createJudgeMetric,
  crscoreJudgeMetric,
  gradedReviewsMetric,
  JUDGE_METRIC_NAMES,
  sweJudgeMetric,
  type GradedReviewsMetricOptions,
  type JudgeMetric,
  type JudgeMetricName,
  type JudgeMetricOptions,
  type SweJudgeMetricOptions,
} from "./metrics";
