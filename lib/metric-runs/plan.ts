/** Planning a metric run: which metrics, which embedder, which CRScore threshold, which LLM endpoint and SWE-Judge team. */
import { type Embedder, type EmbeddingConfig, type EmbeddingPooling, offersTokenEmbeddings, resolveEmbeddingConfig } from "@/lib/embeddings";
import type { JudgeMetricName } from "@/lib/judges";
import { fitStudyEmbedder, type MetricJobContext, rememberEmbedder, runEmbedder } from "./context";
import { JUDGE_CHUNK_SIZE, judgeJobSpec, type JudgeRunRequest, planLlm } from "./judges";
import { CRSCORE, isJudgeMetric, type MetricJobSpec, metricJobSpec, needsEmbeddings, parseMetricNames, type RunEmbedding, type RunParams, type TauChoice } from "./specs";
import { planTau, type TauRequest } from "./tau";
import { AppError } from "@/lib/errors";
import { env } from "@/lib/env";

export interface MetricRunRequest extends TauRequest {
  /** Metric names (see METRIC_JOB_NAMES). */
  metrics: readonly string[];
  /** Reviews per job. Default DEFAULT_CHUNK_SIZE, or JUDGE_CHUNK_SIZE (10) with an LLM judge. */
  chunkSize?: number;
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

/** The embedder of a run and its description for MetricRun.params; the context keeps it for the run's chunks. */
async function planEmbedder(context: MetricJobContext, studyId: string, config: EmbeddingConfig): Promise<{ embedder: Embedder; embedding: RunEmbedding }> {
  if (config.kind === "http") {
    const embedding = { model: config.model, offline: false, url: config.url, corpusFingerprint: null };
    return { embedder: await runEmbedder(context, studyId, embedding), embedding };
  }
  const { embedder, fingerprint } = await fitStudyEmbedder(studyId);
  const embedding = { model: config.model, offline: true, url: null, corpusFingerprint: fingerprint };
  rememberEmbedder(context, studyId, embedding, embedder);
  return { embedder, embedding };
}

/** CRScore's pooling on an endpoint: §3.3's token pooling without stopwords where the endpoint serves token embeddings, else its sentence embeddings. */
export async function crscorePooling(embedding: RunEmbedding, context: MetricJobContext): Promise<EmbeddingPooling> {
  if (embedding.offline || !embedding.url) return "sentence";
  return (await offersTokenEmbeddings({ url: embedding.url, apiKey: context.apiKey ?? env().EMBEDDINGS_API_KEY, timeoutMs: context.http?.timeoutMs })) ? "tokens-without-stopwords" : "sentence";
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
  let tau: TauChoice | null = null;
  let pooling: EmbeddingPooling = "sentence";
  if (names.some(needsEmbeddings)) {
    const config = resolveEmbeddingConfig(request.embedding);
    // The offline model is fitted (this process's CPU) while τ's calibration reads the study's reviews and ratings (the database's).
    const planning = planEmbedder(context, studyId, config).then(async (planned) => ({ ...planned, pooling: names.includes(CRSCORE) ? await crscorePooling(planned.embedding, context) : ("sentence" as const) }));
    if (names.includes(CRSCORE)) {
      const tauEmbedder = planning.then((p) => (p.embedding.offline ? p.embedder : runEmbedder(context, studyId, p.embedding, p.pooling)));
      // Awaited below, or left failing when τ's planning fails first.
      tauEmbedder.catch(() => undefined);
      tau = await planTau(context, studyId, config, tauEmbedder, request);
    }
    ({ embedding, pooling } = await planning);
  }
  const specs: MetricJobSpec[] = [];
  for (const name of names) specs.push(llm && isJudgeMetric(name) ? await judgeJobSpec(context, studyId, name as JudgeMetricName, llm, request.llm) : metricJobSpec(name, embedding, tau, pooling));
  return { specs, embedding, chunkSize };
}
