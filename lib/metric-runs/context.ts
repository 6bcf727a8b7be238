/**
 * What metric jobs share within one process: the endpoints' API keys
 * (never stored with a run), the embedders already built, so a CLI run fits the offline
 * TF-IDF model once for planning and all its chunks, and the LLM judges with their clients.
 */
import { embeddingCacheStore } from "@/lib/data/embedding-cache";
import { studyCorpus } from "@/lib/data/reviews-to-score";
import { createHttpEmbedder, createTfidfEmbedder, type Embedder, type EmbeddingPooling, fitTfidf, type HttpEmbedderOptions } from "@/lib/embeddings";
import type { ChatClient, ChatClientOptions, JudgeMetric, LlmEnv } from "@/lib/judges";
import type { RunEmbedding } from "./specs";
import { AppError, InvariantError } from "@/lib/errors";
import { env } from "@/lib/env";

export interface MetricJobContext {
  /** Key for the embeddings endpoint; default EMBEDDINGS_API_KEY. */
  apiKey?: string;
  /** Batching, retry and timeout settings of the endpoint client (its defaults otherwise). */
  http?: Pick<HttpEmbedderOptions, "textsPerRequest" | "maxRetries" | "backoffMs" | "timeoutMs">;
  readonly embedders: Map<string, Promise<Embedder>>;
  /**
   * Keys of chat-completions endpoints by URL, as runs were requested with them (never stored).
   * LLM_API_KEY is sent to LLM_URL only: a run's URL comes from the database.
   */
  readonly llmApiKeys: Map<string, string>;
  /** Retry, timeout and concurrency settings of the chat client (its defaults otherwise). */
  llmHttp?: Pick<ChatClientOptions, "timeoutMs" | "maxAttempts" | "backoffMs" | "maxBackoffMs" | "maxConcurrency">;
  /** LLM_URL, LLM_MODEL and LLM_API_KEY; the process's (lib/env.ts) by default. */
  env: LlmEnv;
  /** Chat clients by endpoint, model and key (one concurrency limit each), and judges by endpoint and signature. */
  readonly chatClients: Map<string, ChatClient>;
  readonly judges: Map<string, JudgeMetric>;
}

export function createJobContext(options: Partial<Pick<MetricJobContext, "apiKey" | "http" | "llmHttp" | "env">> = {}): MetricJobContext {
  return {
    apiKey: options.apiKey,
    http: options.http,
    embedders: new Map(),
    llmApiKeys: new Map(),
    llmHttp: options.llmHttp,
    env: options.env ?? env(),
    chatClients: new Map(),
    judges: new Map(),
  };
}

/** Fits the offline TF-IDF embedder on the study's texts. */
export async function fitStudyEmbedder(studyId: string): Promise<{ embedder: Embedder; fingerprint: string }> {
  const model = fitTfidf(await studyCorpus(studyId));
  return { embedder: createTfidfEmbedder(model), fingerprint: model.fingerprint };
}

const embedderKey = (studyId: string, embedding: RunEmbedding, pooling: EmbeddingPooling) => [studyId, embedding.model, embedding.url, embedding.corpusFingerprint, embedding.offline ? "" : pooling].join("|");

/**
 * The embedder a run was planned with. The offline model is refitted on the study's texts and
 * must have the planned fingerprint: if texts were added or edited since, its vectors differ,
 * and the run must be planned again (which gives it a new signature). An endpoint's texts are
 * embedded with `pooling` (CRScore's own, see lib/embeddings/token-pooling.ts).
 */
export function runEmbedder(context: MetricJobContext, studyId: string, embedding: RunEmbedding, pooling: EmbeddingPooling = "sentence"): Promise<Embedder> {
  const key = embedderKey(studyId, embedding, pooling);
  let embedder = context.embedders.get(key);
  if (!embedder) {
    embedder = embedding.offline ? refit(studyId, embedding) : Promise.resolve(httpEmbedder(context, embedding, pooling));
    context.embedders.set(key, embedder);
    embedder.catch(() => context.embedders.delete(key));
  }
  return embedder;
}

async function refit(studyId: string, embedding: RunEmbedding): Promise<Embedder> {
  const { embedder, fingerprint } = await fitStudyEmbedder(studyId);
  if (fingerprint !== embedding.corpusFingerprint) throw new AppError("CONFLICT", { message: "the study's texts changed since this metric run was planned, so the TF-IDF fit differs; start the run again" });
  return embedder;
}

function httpEmbedder(context: MetricJobContext, embedding: RunEmbedding, pooling: EmbeddingPooling): Embedder {
  if (!embedding.url) throw new InvariantError(`run embedding ${embedding.model} has no endpoint URL`);
  return createHttpEmbedder({ ...context.http, url: embedding.url, model: embedding.model, apiKey: context.apiKey ?? env().EMBEDDINGS_API_KEY, store: embeddingCacheStore, pooling });
}

/** Registers an embedder built while planning, so the run's chunks reuse it. */
export function rememberEmbedder(context: MetricJobContext, studyId: string, embedding: RunEmbedding, embedder: Embedder): void {
  context.embedders.set(embedderKey(studyId, embedding, "sentence"), Promise.resolve(embedder));
}
