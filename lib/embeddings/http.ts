/**
 * Client of an OpenAI-compatible embeddings endpoint (`POST {base}/embeddings` with
 * `{model, input: string[]}` → `{data: [{embedding, index}]}`), as served by OpenAI, vLLM,
 * Ollama and text-embeddings-inference: batched, retried with exponential backoff on 429, 5xx,
 * network errors and timeouts, and cached by (model, SHA-256 of the text).
 */
import { z } from "zod";
import { cosineSimilarity } from "@/lib/metrics";
import { textHash } from "./hash";
import { embeddedTexts, type Embedder } from "./types";

/** Cached vectors by (model, text hash); see cache.ts for the database store. */
export interface EmbeddingStore {
  get(model: string, hashes: readonly string[]): Promise<Map<string, number[]>>;
  put(model: string, entries: readonly { hash: string; vector: number[] }[]): Promise<void>;
}

export interface HttpEmbedderOptions {
  /** Base URL such as `https://api.openai.com/v1`, or the full `…/embeddings` endpoint. */
  url: string;
  model: string;
  apiKey?: string;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /** Retries after the first attempt of a request. Default 5. */
  maxRetries?: number;
  /** Per-attempt timeout. Default 30 s. */
  timeoutMs?: number;
  /** First backoff delay, doubled on every retry (a `Retry-After` header takes precedence). Default 500 ms. */
  backoffMs?: number;
  store?: EmbeddingStore;
}

export class EmbeddingRequestError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

const responseSchema = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int().nonnegative() })),
});

/** `{base}/embeddings` unless the URL already names the endpoint. */
export function embeddingsEndpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return trimmed.endsWith("/embeddings") ? trimmed : `${trimmed}/embeddings`;
}

function retryAfterMs(header: string | null): number | null {
  if (header === null) return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}

/** One request for one batch; throws EmbeddingRequestError saying whether a retry may help. */
async function requestBatch(endpoint: string, options: HttpEmbedderOptions, batch: readonly string[]): Promise<number[][]> {
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      body: JSON.stringify({ model: options.model, input: batch, encoding_format: "float" }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    throw new EmbeddingRequestError(timedOut ? `embeddings request timed out after ${options.timeoutMs ?? 30_000} ms` : `embeddings request failed: ${(error as Error).message}`, true);
  }
  if (!response.ok) {
    const body = (await response.text().catch(() => "")).slice(0, 300);
    const retryable = response.status === 429 || response.status >= 500;
    throw new EmbeddingRequestError(`embeddings endpoint answered ${response.status}: ${body}`, retryable, retryAfterMs(response.headers.get("retry-after")));
  }
  let parsed: z.infer<typeof responseSchema>;
  try {
    parsed = responseSchema.parse(await response.json());
  } catch (error) {
    throw new EmbeddingRequestError(`embeddings endpoint returned an unexpected body: ${(error as Error).message}`, false);
  }
  const vectors: number[][] = new Array(batch.length);
  for (const { embedding, index } of parsed.data) if (index < batch.length) vectors[index] = embedding;
  if (parsed.data.length !== batch.length || vectors.some((v) => v === undefined)) {
    throw new EmbeddingRequestError(`embeddings endpoint returned ${parsed.data.length} vectors for ${batch.length} texts`, false);
  }
  return vectors;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `attempt`, retrying retryable failures after backoffMs · 2^k (or the server's Retry-After). */
async function withRetry<T>(attempt: () => Promise<T>, maxRetries: number, backoffMs: number): Promise<T> {
  for (let k = 0; ; k++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof EmbeddingRequestError) || !error.retryable || k >= maxRetries) throw error;
      await sleep(error.retryAfterMs ?? backoffMs * 2 ** k);
    }
  }
}

/** Embedder over an OpenAI-compatible endpoint; `embedVectors` exposes the raw vectors. */
export function createHttpEmbedder(options: HttpEmbedderOptions): Embedder & { embedVectors(texts: readonly string[]): Promise<number[][]> } {
  const endpoint = embeddingsEndpoint(options.url);
  const batchSize = options.batchSize ?? 64;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);

  async function embedVectors(texts: readonly string[]): Promise<number[][]> {
    const distinct = [...new Set(texts)];
    const hashes = new Map(distinct.map((t) => [t, textHash(t)]));
    const cached = (await options.store?.get(options.model, [...hashes.values()])) ?? new Map<string, number[]>();
    const missing = distinct.filter((t) => !cached.has(hashes.get(t) as string));
    for (let start = 0; start < missing.length; start += batchSize) {
      const batch = missing.slice(start, start + batchSize);
      const vectors = await withRetry(() => requestBatch(endpoint, options, batch), options.maxRetries ?? 5, options.backoffMs ?? 500);
      const entries = batch.map((t, i) => ({ hash: hashes.get(t) as string, vector: vectors[i] }));
      for (const { hash, vector } of entries) cached.set(hash, vector);
      await options.store?.put(options.model, entries);
    }
    return texts.map((t) => cached.get(hashes.get(t) as string) as number[]);
  }

  return {
    model: options.model,
    offline: false,
    embedVectors,
    async embed(texts) {
      const vectors = await embedVectors(texts);
      return embeddedTexts(new Map(texts.map((t, i) => [t, vectors[i]])), cosineSimilarity);
    },
  };
}
