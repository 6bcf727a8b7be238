/**
 * Client of an OpenAI-compatible embeddings endpoint (`POST {base}/embeddings` with
 * `{model, input: string[]}` → `{data: [{embedding, index}]}`), as served by OpenAI, vLLM,
 * Ollama and text-embeddings-inference: batched, retried with exponential backoff on 429, 5xx,
 * network errors and timeouts, and cached by (model, SHA-256 of the text).
 */
import { z } from "zod";
import { cosineSimilarity } from "@/lib/metrics";
import { textHash } from "./hash";
import { poolWithoutStopwords } from "./token-pooling";
import { embeddedTexts, type Embedder } from "./types";

/**
 * How a text becomes one vector: the endpoint's own sentence embedding (`/v1/embeddings`), or
 * CRScore §3.3's mean of the token embeddings without stopwords (text-embeddings-inference's
 * `/embed_all` and `/tokenize`, see token-pooling.ts).
 */
export type EmbeddingPooling = "sentence" | "tokens-without-stopwords";

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
  textsPerRequest?: number;
  /** Retries after the first attempt of a request. Default 5. */
  maxRetries?: number;
  /** Per-attempt timeout. Default 30 s. */
  timeoutMs?: number;
  /** First backoff delay, doubled on every retry (a `Retry-After` header takes precedence). Default 500 ms. */
  backoffMs?: number;
  store?: EmbeddingStore;
  /** Default "sentence". */
  pooling?: EmbeddingPooling;
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

/** The server's root, where text-embeddings-inference serves `/embed_all` and `/tokenize`: the URL without `/embeddings` and `/v1`. */
export function tokenEndpointsRoot(url: string): string {
  return url
    .replace(/\/+$/, "")
    .replace(/\/embeddings$/, "")
    .replace(/\/v1$/, "");
}

/** The name the cache keeps vectors under: the model, with the pooling when it is not the endpoint's own. */
export function cachedModelName(model: string, pooling: EmbeddingPooling): string {
  return pooling === "sentence" ? model : `${model}|pool:${pooling}`;
}

function retryAfterMs(header: string | null): number | null {
  if (header === null) return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}

/** POSTs `body` as JSON; throws EmbeddingRequestError saying whether a retry may help. */
async function postJson(endpoint: string, options: HttpEmbedderOptions, body: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    throw new EmbeddingRequestError(timedOut ? `embeddings request timed out after ${options.timeoutMs ?? 30_000} ms` : `embeddings request failed: ${(error as Error).message}`, true);
  }
  if (!response.ok) {
    const text = (await response.text().catch(() => "")).slice(0, 300);
    const retryable = response.status === 429 || response.status >= 500;
    throw new EmbeddingRequestError(`embeddings endpoint answered ${response.status}: ${text}`, retryable, retryAfterMs(response.headers.get("retry-after")));
  }
  try {
    return await response.json();
  } catch (error) {
    throw new EmbeddingRequestError(`embeddings endpoint returned an unexpected body: ${(error as Error).message}`, false);
  }
}

function parseBody<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new EmbeddingRequestError(`${what} returned an unexpected body: ${parsed.error.issues[0]?.message ?? "invalid"}`, false);
  return parsed.data;
}

/** One `/v1/embeddings` request for one batch. */
async function requestBatch(endpoint: string, options: HttpEmbedderOptions, batch: readonly string[]): Promise<number[][]> {
  const parsed = parseBody(responseSchema, await postJson(endpoint, options, { model: options.model, input: batch, encoding_format: "float" }), "embeddings endpoint");
  const vectors: number[][] = new Array(batch.length);
  for (const { embedding, index } of parsed.data) if (index < batch.length) vectors[index] = embedding;
  if (parsed.data.length !== batch.length || vectors.some((v) => v === undefined)) {
    throw new EmbeddingRequestError(`embeddings endpoint returned ${parsed.data.length} vectors for ${batch.length} texts`, false);
  }
  return vectors;
}

const tokenVectorsSchema = z.array(z.array(z.array(z.number())));
const tokensSchema = z.array(z.array(z.object({ text: z.string(), special: z.boolean() })));

/** One batch pooled as CRScore §3.3 does: `/tokenize` and `/embed_all`, then the mean of the content tokens. */
async function requestPooledBatch(root: string, options: HttpEmbedderOptions, batch: readonly string[]): Promise<number[][]> {
  const [tokens, vectors] = await Promise.all([
    postJson(`${root}/tokenize`, options, { inputs: batch, add_special_tokens: true }).then((b) => parseBody(tokensSchema, b, "/tokenize")),
    postJson(`${root}/embed_all`, options, { inputs: batch, truncate: true }).then((b) => parseBody(tokenVectorsSchema, b, "/embed_all")),
  ]);
  if (tokens.length !== batch.length || vectors.length !== batch.length) throw new EmbeddingRequestError(`token endpoints returned ${tokens.length} token lists and ${vectors.length} vector lists for ${batch.length} texts`, false);
  return batch.map((text, i) => {
    if (tokens[i].length !== vectors[i].length) throw new EmbeddingRequestError(`/tokenize gave ${tokens[i].length} tokens but /embed_all ${vectors[i].length} vectors for a text (longer than the model's input?)`, false);
    return poolWithoutStopwords(text, tokens[i], vectors[i]);
  });
}

/**
 * Whether the endpoint serves token embeddings (text-embeddings-inference's `/embed_all`): one
 * request with one word. Any error answer means no; an unreachable server is an error.
 */
export async function offersTokenEmbeddings(options: Pick<HttpEmbedderOptions, "url" | "apiKey" | "timeoutMs">): Promise<boolean> {
  try {
    const body = await postJson(`${tokenEndpointsRoot(options.url)}/embed_all`, { ...options, model: "" }, { inputs: ["probe"], truncate: true });
    return tokenVectorsSchema.safeParse(body).success;
  } catch (error) {
    if (error instanceof EmbeddingRequestError && /answered \d+/.test(error.message)) return false;
    throw error;
  }
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
  const pooling = options.pooling ?? "sentence";
  const cacheModel = cachedModelName(options.model, pooling);
  const request = (batch: readonly string[]) => (pooling === "sentence" ? requestBatch(endpoint, options, batch) : requestPooledBatch(tokenEndpointsRoot(options.url), options, batch));
  const textsPerRequest = options.textsPerRequest ?? 64;
  if (!Number.isInteger(textsPerRequest) || textsPerRequest < 1) throw new RangeError(`textsPerRequest must be a positive integer, got ${textsPerRequest}`);

  async function embedVectors(texts: readonly string[]): Promise<number[][]> {
    const distinct = [...new Set(texts)];
    const hashes = new Map(distinct.map((t) => [t, textHash(t)]));
    const cached = (await options.store?.get(cacheModel, [...hashes.values()])) ?? new Map<string, number[]>();
    const missing = distinct.filter((t) => !cached.has(hashes.get(t) as string));
    for (let start = 0; start < missing.length; start += textsPerRequest) {
      const batch = missing.slice(start, start + textsPerRequest);
      const vectors = await withRetry(() => request(batch), options.maxRetries ?? 5, options.backoffMs ?? 500);
      const entries = batch.map((t, i) => ({ hash: hashes.get(t) as string, vector: vectors[i] }));
      for (const { hash, vector } of entries) cached.set(hash, vector);
      await options.store?.put(cacheModel, entries);
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
