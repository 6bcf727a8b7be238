/**
 * Client of an OpenAI-compatible chat-completions endpoint (`POST …/v1/chat/completions` with
 * `{model, messages, temperature}` → `{choices: [{message: {content}}]}`), as served by OpenAI,
 * vLLM, Ollama and llama.cpp. Temperature 0 by default (SWE-Judge §4.4), a timeout per attempt,
 * retries with exponential backoff on 429, 5xx, timeouts and network errors (a bounded number
 * of attempts), and a limit on requests in flight shared by everything using the client.
 */
import { z } from "zod";
import { chatCompletionsEndpoint, displayEndpoint, resolveLlmConfig, type Env, type LlmSettings } from "./config";
import { LlmRequestError } from "./errors";
import { backoffDelay, parseRetryAfter } from "@/lib/http/retry";
import { createLimiter } from "./limiter";
import type { ChatMessage } from "./types";

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
}

export interface ChatRequest {
  messages: readonly ChatMessage[];
  /** Cancels the request (and its retries); the abort reason is rethrown as is. */
  signal?: AbortSignal;
}

export interface ChatCompletion {
  /** The first choice's message text ("" when the server sent null). */
  content: string;
  /** The model the server says answered (falls back to the requested one). */
  model: string;
  finishReason: string | null;
  /** Attempts this answer took, 1 when no retry was needed. */
  attempts: number;
}

export interface ChatClient {
  /** The endpoint without credentials. */
  readonly endpoint: string;
  readonly model: string;
  readonly temperature: number;
  complete(request: ChatRequest): Promise<ChatCompletion>;
}

const responseSchema = z.object({
  model: z.string().optional(),
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullable().optional() }), finish_reason: z.string().nullable().optional() }))
    .min(1),
});

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
export function createChatClient(options: ChatClientOptions = {}, env: Env = process.env): ChatClient {
  const config = resolveLlmConfig(options, env);
  const endpoint = chatCompletionsEndpoint(config.url);
  const parsedUrl = new URL(endpoint);
  if (parsedUrl.username || parsedUrl.password) throw new RangeError("the LLM URL must not contain user:password; pass the key as LLM_API_KEY");
  const shown = displayEndpoint(endpoint);
  const temperature = options.temperature ?? 0;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxAttempts = options.maxAttempts ?? 4;
  const backoffMs = options.backoffMs ?? 500;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`maxAttempts must be a positive integer, got ${maxAttempts}`);
  const limit = createLimiter(options.maxConcurrency ?? 4);
  const headers = { "content-type": "application/json", ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) };

  /** One HTTP exchange; throws AttemptError, or the caller's abort reason. */
  async function attempt(messages: readonly ChatMessage[], signal: AbortSignal | undefined): Promise<Omit<ChatCompletion, "attempts">> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const body = JSON.stringify({ model: config.model, messages, temperature, ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}) });
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
      return { content: choice.message.content ?? "", model: parsed.data.model ?? config.model, finishReason: choice.finish_reason ?? null };
    } catch (error) {
      if (error instanceof AttemptError) throw error;
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) throw new AttemptError({ message: `timed out after ${timeoutMs} ms`, status, retryable: true, retryAfterMs: null });
      throw new AttemptError({ message: `network error: ${(error as Error).message}`, status, retryable: true, retryAfterMs: null });
    }
  }

  async function withRetries(request: ChatRequest): Promise<ChatCompletion> {
    for (let attempts = 1; ; attempts++) {
      try {
        return { ...(await attempt(request.messages, request.signal)), attempts };
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

  return {
    endpoint: shown,
    model: config.model,
    temperature,
    complete: (request) => limit(() => withRetries(request)),
  };
}
