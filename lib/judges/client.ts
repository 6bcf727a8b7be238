/**
 * Client of an OpenAI-compatible chat-completions endpoint (`POST …/v1/chat/completions` with
 * `{model, messages, temperature}` → `{choices: [{message: {content}}]}`), as served by OpenAI,
 * vLLM, Ollama and llama.cpp. Temperature 0 by default (SWE-Judge §4.4), a timeout per attempt,
 * retries with exponential backoff on 429, 5xx, timeouts and network errors (a bounded number
 * of attempts), and a limit on requests in flight shared by everything using the client.
 * Reproducible runs: a seed sent with every request, a response cache (./cache) so the same
 * request is never sent twice, token usage and estimated cost (./prices) of every answer, a
 * budget (./budget) that stops a run, and answers cut off at the token limit
 * (`finish_reason: "length"`) asked again, with twice the limit when one is set.
 */
import { z } from "zod";
import { chatCompletionsEndpoint, displayEndpoint, resolveLlmConfig, type LlmEnv, type LlmSettings } from "./config";
import { LlmRequestError } from "./errors";
import { backoffDelay, parseRetryAfter } from "@/lib/http/retry";
import { checkBudget, type LlmBudget, spend } from "./budget";
import { cacheKey, type ChatCache } from "./cache";
import { createLimiter } from "./limiter";
import { estimateCost, type ModelPrice, type TokenUsage } from "./prices";
import type { ChatMessage } from "./types";
import { env } from "@/lib/env";

export interface ChatClientOptions extends LlmSettings {
  /** Sampling temperature. Default 0. */
  temperature?: number;
  /** Per-attempt timeout, headers and body. Default 60 s. */
  timeoutMs?: number;
  /** Attempts per request, the first included. Default 4. */
  maxAttempts?: number;
  /** Delay before the first retry, doubled on each further one (with jitter). Default 500 ms. */
  backoffMs?: number;
  /** Upper bound of any delay, a server's Retry-After included. Default 30 s. */
  maxBackoffMs?: number;
  /** Requests in flight at once, retries and their backoff included. Default 4. */
  maxConcurrency?: number;
  /** `max_tokens` of every request; unset by default (the server's own limit). */
  maxTokens?: number;
  /** `seed` of every request (servers that support it sample reproducibly); unset by default. */
  seed?: number;
  /** Answers by request: a cached request is not sent. */
  cache?: ChatCache;
  /** Spending limit shared by the run's requests. */
  budget?: LlmBudget;
  /** Price table for cost estimates. Default MODEL_PRICES. */
  prices?: Readonly<Record<string, ModelPrice>>;
  /** Times a truncated answer (`finish_reason: "length"`) is asked again before failing. Default 2. */
  lengthRetries?: number;
}

export interface ChatRequest {
  messages: readonly ChatMessage[];
  /** Hash of the prompt template the messages come from (part of the cache key and stored with the answer). */
  promptVersion?: string;
  /** Tells apart requests meant to be sampled separately (a trial, a re-ask): part of the cache key. */
  sample?: string;
  /** Cancels the request (and its retries); the abort reason is rethrown as is. */
  signal?: AbortSignal;
}

export interface ChatCompletion {
  /** The first choice's message text ("" when the server sent null). */
  content: string;
  /** The model the server says answered (falls back to the requested one). */
  model: string;
  finishReason: string | null;
  /** Attempts this answer took, 1 when no retry was needed (0 from the cache). */
  attempts: number;
  /** Tokens of every request this answer took; null when the server reported none. */
  usage: TokenUsage | null;
  /** Estimated USD of those requests; null for a model without a listed price. */
  costUsd: number | null;
  /** Whether the answer came from the cache (no request sent). */
  cached: boolean;
}

export interface ChatClient {
  /** The endpoint without credentials. */
  readonly endpoint: string;
  readonly model: string;
  readonly temperature: number;
  readonly seed: number | null;
  complete(request: ChatRequest): Promise<ChatCompletion>;
}

const responseSchema = z.object({
  model: z.string().optional(),
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullable().optional() }), finish_reason: z.string().nullable().optional() }))
    .min(1),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullable().optional(),
});

type Answer = Omit<ChatCompletion, "attempts" | "costUsd" | "cached">;

const addUsage = (a: TokenUsage | null, b: TokenUsage | null): TokenUsage | null =>
  a && b ? { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens } : (a ?? b);

/** One failed attempt: what to say, whether a retry may help, and how long the server asked to wait. */
interface AttemptFailure {
  message: string;
  status: number | null;
  retryable: boolean;
  retryAfterMs: number | null;
}

class AttemptError extends Error {
  constructor(readonly failure: AttemptFailure) {
    super(failure.message);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Creates a client; throws LlmNotConfiguredError when neither `options` nor `env` names an endpoint. */
export function createChatClient(options: ChatClientOptions = {}, llmEnv: LlmEnv = env()): ChatClient {
  const config = resolveLlmConfig(options, llmEnv);
  const endpoint = chatCompletionsEndpoint(config.url);
  const parsedUrl = new URL(endpoint);
  if (parsedUrl.username || parsedUrl.password) throw new RangeError("the LLM URL must not contain user:password; pass the key as LLM_API_KEY");
  const shown = displayEndpoint(endpoint);
  const temperature = options.temperature ?? 0;
  const seed = options.seed ?? null;
  const lengthRetries = options.lengthRetries ?? 2;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxAttempts = options.maxAttempts ?? 4;
  const backoffMs = options.backoffMs ?? 500;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`maxAttempts must be a positive integer, got ${maxAttempts}`);
  const limit = createLimiter(options.maxConcurrency ?? 4);
  const headers = { "content-type": "application/json", ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) };

  /** One HTTP exchange; throws AttemptError, or the caller's abort reason. */
  async function attempt(messages: readonly ChatMessage[], signal: AbortSignal | undefined, maxTokens: number | undefined): Promise<Answer> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const body = JSON.stringify({ model: config.model, messages, temperature, ...(seed !== null ? { seed } : {}), ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}) });
    let status: number | null = null;
    try {
      const response = await fetch(endpoint, { method: "POST", headers, body, signal: combined });
      status = response.status;
      if (!response.ok) {
        const text = (await response.text()).replace(/\s+/g, " ").trim().slice(0, 300);
        const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
        throw new AttemptError({ message: `HTTP ${status}${text ? `: ${text}` : ""}`, status, retryable: isRetryableStatus(status), retryAfterMs });
      }
      const parsed = responseSchema.safeParse(parseJson(await response.text()));
      if (!parsed.success) throw new AttemptError({ message: "the answer is not a chat completion (no choices[0].message)", status, retryable: false, retryAfterMs: null });
      const choice = parsed.data.choices[0];
      const usage = parsed.data.usage ? { promptTokens: parsed.data.usage.prompt_tokens, completionTokens: parsed.data.usage.completion_tokens } : null;
      return { content: choice.message.content ?? "", model: parsed.data.model ?? config.model, finishReason: choice.finish_reason ?? null, usage };
    } catch (error) {
      if (error instanceof AttemptError) throw error;
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) throw new AttemptError({ message: `timed out after ${timeoutMs} ms`, status, retryable: true, retryAfterMs: null });
      throw new AttemptError({ message: `network error: ${(error as Error).message}`, status, retryable: true, retryAfterMs: null });
    }
  }

  async function withRetries(request: ChatRequest, maxTokens: number | undefined): Promise<Answer & { attempts: number }> {
    for (let attempts = 1; ; attempts++) {
      try {
        return { ...(await attempt(request.messages, request.signal, maxTokens)), attempts };
      } catch (error) {
        if (!(error instanceof AttemptError)) throw error;
        const { failure } = error;
        if (!failure.retryable || attempts >= maxAttempts) {
          const tries = attempts === 1 ? "" : ` after ${attempts} attempts`;
          throw new LlmRequestError(`LLM request to ${shown} failed${tries}: ${failure.message}`, shown, failure.status, attempts, failure.retryable);
        }
        const delay = failure.retryAfterMs !== null ? Math.min(failure.retryAfterMs, maxBackoffMs) : backoffDelay(attempts, backoffMs, maxBackoffMs);
        await sleep(delay, request.signal);
      }
    }
  }

  /** Sends the request until its answer is not cut off, counting every answer against the budget. */
  async function ask(request: ChatRequest): Promise<Omit<ChatCompletion, "cached">> {
    let maxTokens = options.maxTokens;
    let attempts = 0;
    let usage: TokenUsage | null = null;
    let costUsd: number | null = 0;
    for (let asked = 1; ; asked++) {
      if (options.budget) checkBudget(options.budget);
      const answer = await limit(() => withRetries(request, maxTokens));
      const cost = answer.usage ? estimateCost(answer.model, answer.usage, options.prices) : null;
      if (options.budget) spend(options.budget, answer.usage, cost);
      attempts += answer.attempts;
      usage = addUsage(usage, answer.usage);
      costUsd = costUsd === null || cost === null ? null : costUsd + cost;
      if (answer.finishReason !== "length") return { ...answer, attempts, usage, costUsd };
      if (asked > lengthRetries) {
        throw new LlmRequestError(`LLM answer from ${shown} was cut off at the token limit (finish_reason "length") ${asked} times${maxTokens !== undefined ? `, the last time at max_tokens ${maxTokens}` : ""}`, shown, null, attempts, false);
      }
      if (maxTokens !== undefined) maxTokens *= 2;
    }
  }

  async function complete(request: ChatRequest): Promise<ChatCompletion> {
    const cache = options.cache;
    const promptVersion = request.promptVersion ?? "";
    const params = { temperature, seed, maxTokens: options.maxTokens ?? null, sample: request.sample ?? "" };
    const key = cache ? cacheKey({ model: config.model, promptVersion, messages: request.messages, params }) : "";
    const hit = cache ? await cache.get(key) : null;
    if (hit) {
      if (options.budget) options.budget.cachedAnswers++;
      const usage = hit.promptTokens !== null && hit.completionTokens !== null ? { promptTokens: hit.promptTokens, completionTokens: hit.completionTokens } : null;
      return { content: hit.content, model: hit.model, finishReason: hit.finishReason, attempts: 0, usage, costUsd: hit.costUsd, cached: true };
    }
    const answer = await ask(request);
    await cache?.put(key, {
      requestedModel: config.model,
      model: answer.model,
      promptVersion,
      params,
      content: answer.content,
      finishReason: answer.finishReason,
      promptTokens: answer.usage?.promptTokens ?? null,
      completionTokens: answer.usage?.completionTokens ?? null,
      costUsd: answer.costUsd,
      attempts: answer.attempts,
    });
    return { ...answer, cached: false };
  }

  return {
    endpoint: shown,
    model: config.model,
    temperature,
    seed,
    complete,
  };
}
