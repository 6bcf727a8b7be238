/** Planning a metric run: which metrics, which embedder, which CRScore threshold, which LLM endpoint and SWE-Judge team. */
import { type Embedder, resolveEmbeddingConfig } from "@/lib/embeddings";
import { calibrateThreshold, CRSCORE_DEFAULT_TAU, pairwiseSimilarities, splitReviewSentences } from "@/lib/metrics";
import type { JudgeMetricName } from "@/lib/judges";
import { fitStudyEmbedder, type MetricJobContext, rememberEmbedder, runEmbedder } from "./context";
import { JUDGE_CHUNK_SIZE, judgeJobSpec, type JudgeRunRequest, planLlm } from "./judges";
import { loadReviewsToScore } from "./reviews";
import { CRSCORE, isJudgeMetric, type MetricJobSpec, metricJobSpec, needsEmbeddings, parseMetricNames, type RunEmbedding, type RunParams, type TauSource } from "./specs";
import { AppError } from "@/lib/errors";

export interface MetricRunRequest {
  /** Metric names (see METRIC_JOB_NAMES). */
  metrics: readonly string[];
  /** Reviews per job. Default DEFAULT_CHUNK_SIZE, or JUDGE_CHUNK_SIZE (10) with an LLM judge. */
  chunkSize?: number;
  /** CRScore threshold; default calibrated on the study (CRScore §3.3). */
  tau?: number;
  /** Embeddings endpoint; default EMBEDDINGS_URL / EMBEDDINGS_MODEL, else the offline TF-IDF default. The key is the context's. */
  embedding?: { url?: string; model?: string };
  /** LLM judges: endpoint (default LLM_URL / LLM_MODEL), its key (never stored) and SWE-Judge's team. */
  llm?: JudgeRunRequest;
}

/**
 * Reviews per job when no LLM judge runs: large enough that a job's fixed costs (queue fetch,
 * two reads, one write, about 10 ms) stay under 10 µs per review, small enough that a study of
 * a few thousand reviews still spreads over several workers and a chunk of CRScore (about a
 * millisecond per review offline) ends in seconds.
 */
export const DEFAULT_CHUNK_SIZE = 1000;

/**
 * τ as CRScore §3.3 selects it, on this study with this embedder: the mean, over all sentences
 * of all reviews (the human references included) of changes with pseudo-references, of each
 * sentence's best similarity to a pseudo-reference of its change. The paper calibrated on GPT-3.5
 * reviews of the CodeReviewer test set with mxbai-embed-large-v1 (τ = 0.7314); another embedder
 * needs its own τ, which is why the offline default is always calibrated. Rounded to 4 decimals,
 * the precision the signature records. Without any such sentence the paper's τ is kept (every
 * score is then undefined anyway).
 */
export async function calibrateStudyTau(context: MetricJobContext, studyId: string, embedder: Embedder): Promise<{ value: number; source: TauSource }> {
  const reviews = (await loadReviewsToScore({ studyId }, context.client, { codeChanges: false })).filter((r) => r.pseudoReferences.length > 0);
  const sentences = reviews.map((r) => splitReviewSentences(r.text));
  const embedded = await embedder.embed([...sentences.flat(), ...reviews.flatMap((r) => r.pseudoReferences)]);
  const calibration = calibrateThreshold(reviews.map((r, i) => pairwiseSimilarities(sentences[i], r.pseudoReferences, embedded.similarity)));
  if (calibration.tau === null) return { value: CRSCORE_DEFAULT_TAU, source: "paper-default" };
  return { value: Number(calibration.tau.toFixed(4)), source: "calibrated" };
}

/** The embedder of a run and its description for MetricRun.params; the context keeps it for the run's chunks. */
async function planEmbedder(context: MetricJobContext, studyId: string, overrides: MetricRunRequest["embedding"]): Promise<{ embedder: Embedder; embedding: RunEmbedding }> {
  const config = resolveEmbeddingConfig(overrides);
  if (config.kind === "http") {
    const embedding = { model: config.model, offline: false, url: config.url, corpusFingerprint: null };
    return { embedder: await runEmbedder(context, studyId, embedding), embedding };
  }
  const { embedder, fingerprint } = await fitStudyEmbedder(studyId, context.client);
  const embedding = { model: config.model, offline: true, url: null, corpusFingerprint: fingerprint };
  rememberEmbedder(context, studyId, embedding, embedder);
  return { embedder, embedding };
}

/** Resolves a request into run parameters (fitting and calibrating what CRScore and embeddingSim need). */
export async function planMetricRun(context: MetricJobContext, studyId: string, request: MetricRunRequest): Promise<RunParams> {
  const names = parseMetricNames(request.metrics);
  const chunkSize = request.chunkSize ?? (names.some(isJudgeMetric) ? JUDGE_CHUNK_SIZE : DEFAULT_CHUNK_SIZE);
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new AppError("INVALID_INPUT", { message: `chunk size must be a positive integer, got ${chunkSize}` });
  if (request.tau !== undefined && !Number.isFinite(request.tau)) throw new AppError("INVALID_INPUT", { message: `tau must be a number, got ${request.tau}` });

  // Before anything slow: a run with a judge and no endpoint fails at once.
  const llm = names.some(isJudgeMetric) ? planLlm(context, request.llm) : null;

  let embedding: RunEmbedding | null = null;
  let tau: { value: number; source: TauSource } | null = null;
  if (names.some(needsEmbeddings)) {
    const planned = await planEmbedder(context, studyId, request.embedding);
    embedding = planned.embedding;
    if (names.includes(CRSCORE)) tau = request.tau !== undefined ? { value: request.tau, source: "given" } : await calibrateStudyTau(context, studyId, planned.embedder);
  }
  const specs: MetricJobSpec[] = [];
  for (const name of names) specs.push(llm && isJudgeMetric(name) ? await judgeJobSpec(context, studyId, name as JudgeMetricName, llm, request.llm) : metricJobSpec(name, embedding, tau));
  return { specs, embedding, chunkSize };
}
