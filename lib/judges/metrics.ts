/**
 * The LLM judges as metrics, described like the reference metrics of lib/metrics/registry.ts:
 * a stable name, a label, a signature recording everything that changes a value (model,
 * prompt version, procedure settings, `impl`), the range, and an async `score`. Creating a
 * judge without a configured endpoint throws LlmNotConfiguredError; there is no offline judge.
 */
import { createChatClient, type ChatClient, type ChatClientOptions } from "./client";
import type { LlmEnv } from "./config";
import { env } from "@/lib/env";
import { CRSCORE_JUDGE_PROMPT_VERSION, rateReviewDimension, type CrscoreDimension } from "./crscore-judge";
import { GRADEDREVIEWS_PROMPT_VERSION, gradeAgainstReference } from "./gradedreviews";
import { SWE_JUDGE_PROMPT_VERSION, SWE_STRATEGIES, type SweStrategy } from "./swe-judge-prompts";
import { sweJudgeScore, type StepCache } from "./swe-judge";
import { FIVE_POINT, type JudgeContext, type JudgeResult, type Scale } from "./types";
import { AppError } from "@/lib/errors";

const IMPL = "impl:1";

export const JUDGE_METRIC_NAMES = ["llm-judge-gradedreviews", "swe-judge", "llm-judge-crscore-rel", "llm-judge-crscore-con", "llm-judge-crscore-comp"] as const;
export type JudgeMetricName = (typeof JUDGE_METRIC_NAMES)[number];

export interface JudgeMetric {
  readonly name: JudgeMetricName;
  readonly label: string;
  readonly signature: string;
  /** Closed range of possible values. */
  readonly range: readonly [min: number, max: number];
  readonly higherIsBetter: true;
  /** Inputs without which `score` gives null ("no-reference-review", "no-code-change"). */
  readonly needs: { readonly reference: boolean; readonly codeChange: boolean };
  /** Scores `candidate`; throws LlmRequestError when the endpoint keeps failing, or the abort reason. */
  readonly score: (candidate: string, reference: string | null, context?: JudgeContext) => Promise<JudgeResult>;
}

const missing = (reason: string): JudgeResult => ({ value: null, reason, detail: {} });

/** The part of every judge's signature naming the model and its sampling. */
const modelSignature = (client: ChatClient, prompt: string) => `model:${client.model}|prompt:${prompt}|temp:${client.temperature}${client.seed === null ? "" : `|seed:${client.seed}`}`;

export interface GradedReviewsMetricOptions {
  trials?: number;
  attemptsPerTrial?: number;
  includeCode?: boolean;
}

/** GradedReviews §5.2 LLM-based Scoring, 1-5 against the reference. */
export function gradedReviewsMetric(client: ChatClient, options: GradedReviewsMetricOptions = {}): JudgeMetric {
  const trials = options.trials ?? 3;
  const attempts = options.attemptsPerTrial ?? 3;
  const includeCode = options.includeCode ?? false;
  return {
    name: "llm-judge-gradedreviews",
    label: "LLM score (GradedReviews)",
    signature: `${modelSignature(client, GRADEDREVIEWS_PROMPT_VERSION)}|code:${includeCode ? "yes" : "no"}|trials:${trials}|attempts:${attempts}|exact:whitespace|${IMPL}`,
    range: [1, 5],
    higherIsBetter: true,
    needs: { reference: true, codeChange: includeCode },
    score: async (candidate, reference, context = {}) => {
      if (reference === null) return missing("no-reference-review");
      if (includeCode && !context.codeChange) return missing("no-code-change");
      return gradeAgainstReference(client, { generated: candidate, reference, codeChange: context.codeChange }, { trials, attemptsPerTrial: attempts, includeCode, signal: context.signal });
    },
  };
}

export interface SweJudgeMetricOptions {
  /** The selected team (see calibrateSweJudge); default all six strategy variants, the paper's "w/o Team Selection". */
  team?: readonly SweStrategy[];
  /** The human scale the 0-100 ensemble is mapped onto. Default 1-5. */
  scale?: Scale;
  attempts?: number;
  /** First-step answers shared across reviews of the same change; default one cache per metric. */
  stepCache?: StepCache;
}

/** SWE-Judge (§3) with a fixed team, mapped onto the human scale. */
export function sweJudgeMetric(client: ChatClient, options: SweJudgeMetricOptions = {}): JudgeMetric {
  const team = [...(options.team ?? SWE_STRATEGIES)];
  if (team.length === 0 || team.some((s) => !SWE_STRATEGIES.includes(s)) || new Set(team).size !== team.length) throw new RangeError(`invalid SWE-Judge team: ${team.join(", ")}`);
  const scale = options.scale ?? FIVE_POINT;
  const attempts = options.attempts ?? 3;
  const stepCache = options.stepCache ?? new Map<string, Promise<string>>();
  return {
    name: "swe-judge",
    label: `SWE-Judge (${team.join("+")})`,
    signature: `${modelSignature(client, SWE_JUDGE_PROMPT_VERSION)}|team:${team.join("+")}|scale:${scale.min}-${scale.max}|attempts:${attempts}|${IMPL}`,
    range: [scale.min, scale.max],
    higherIsBetter: true,
    needs: { reference: true, codeChange: true },
    score: async (candidate, reference, context = {}) => {
      if (reference === null) return missing("no-reference-review");
      if (!context.codeChange) return missing("no-code-change");
      return sweJudgeScore(client, { generated: candidate, reference, codeChange: context.codeChange }, team, scale, { attempts, stepCache, signal: context.signal });
    },
  };
}

const CRSCORE_NAMES: Readonly<Record<CrscoreDimension, JudgeMetricName>> = {
  relevance: "llm-judge-crscore-rel",
  conciseness: "llm-judge-crscore-con",
  comprehensiveness: "llm-judge-crscore-comp",
};

/** CRScore's reference-free LaaJ baseline (D.4) for one dimension, 1-5 from the review and the code change. */
export function crscoreJudgeMetric(client: ChatClient, dimension: CrscoreDimension = "relevance", options: { attempts?: number } = {}): JudgeMetric {
  const attempts = options.attempts ?? 3;
  return {
    name: CRSCORE_NAMES[dimension],
    label: `LLM judge ${dimension} (CRScore LaaJ)`,
    signature: `${modelSignature(client, CRSCORE_JUDGE_PROMPT_VERSION)}|dim:${dimension}|attempts:${attempts}|${IMPL}`,
    range: [1, 5],
    higherIsBetter: true,
    needs: { reference: false, codeChange: true },
    score: async (candidate, _reference, context = {}) => {
      if (!context.codeChange) return missing("no-code-change");
      return rateReviewDimension(client, { review: candidate, codeChange: context.codeChange, language: context.language }, dimension, { attempts, signal: context.signal });
    },
  };
}

export interface JudgeMetricOptions {
  /** A client to share between judges; otherwise one is created from `llm` and the environment. */
  client?: ChatClient;
  llm?: ChatClientOptions;
  gradedReviews?: GradedReviewsMetricOptions;
  sweJudge?: SweJudgeMetricOptions;
  crscore?: { attempts?: number };
}

/** The judge called `name`; throws for an unknown name and LlmNotConfiguredError without an endpoint. */
export function createJudgeMetric(name: string, options: JudgeMetricOptions = {}, llmEnv: LlmEnv = env()): JudgeMetric {
  if (!(JUDGE_METRIC_NAMES as readonly string[]).includes(name)) throw new AppError("INVALID_INPUT", { message: `unknown LLM judge "${name}"; available: ${JUDGE_METRIC_NAMES.join(", ")}` });
  const client = options.client ?? createChatClient(options.llm, llmEnv);
  if (name === "llm-judge-gradedreviews") return gradedReviewsMetric(client, options.gradedReviews);
  if (name === "swe-judge") return sweJudgeMetric(client, options.sweJudge);
  const dimension = (Object.keys(CRSCORE_NAMES) as CrscoreDimension[]).find((d) => CRSCORE_NAMES[d] === name) as CrscoreDimension;
  return crscoreJudgeMetric(client, dimension, options.crscore);
}
