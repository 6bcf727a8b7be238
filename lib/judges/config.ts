/**
 * Which chat-completions endpoint the LLM judges use: explicit settings, else the environment
 * (LLM_URL, LLM_MODEL, LLM_API_KEY). Unlike embeddings there is no offline default: without an
 * endpoint every judge fails with LlmNotConfiguredError, which callers show as is.
 */
import { LlmNotConfiguredError } from "./errors";
import { env, type Env } from "@/lib/env";

export interface LlmSettings {
  /** Base URL (`http://host:port`, `…/v1`) or the full `…/chat/completions` endpoint. */
  url?: string;
  model?: string;
  apiKey?: string;
}

export interface LlmConfig {
  url: string;
  model: string;
  apiKey?: string;
}

/** The variables the LLM endpoint is configured by (lib/env.ts). */
export type LlmEnv = Pick<Env, "LLM_URL" | "LLM_MODEL" | "LLM_API_KEY">;

/** The endpoint settings, or LlmNotConfiguredError naming the missing variable. */
export function resolveLlmConfig(settings: LlmSettings = {}, llmEnv: LlmEnv = env()): LlmConfig {
  const url = settings.url ?? llmEnv.LLM_URL;
  if (!url) throw new LlmNotConfiguredError();
  const model = settings.model ?? llmEnv.LLM_MODEL;
  if (!model) throw new LlmNotConfiguredError("LLM_URL is set but no model: set LLM_MODEL (e.g. gpt-4o-mini)");
  const apiKey = settings.apiKey ?? llmEnv.LLM_API_KEY;
  return { url, model, ...(apiKey ? { apiKey } : {}) };
}

/** Whether a judge could run, with the message to show when not (for pages listing metrics). */
export function llmJudgeAvailability(settings: LlmSettings = {}, llmEnv: LlmEnv = env()): { available: true; model: string } | { available: false; message: string } {
  try {
    return { available: true, model: resolveLlmConfig(settings, llmEnv).model };
  } catch (error) {
    if (error instanceof LlmNotConfiguredError) return { available: false, message: error.message };
    throw error;
  }
}

/**
 * `{base}/v1/chat/completions`, accepting a base that already ends in `/v1` or the full
 * endpoint; a query string (e.g. an API version) is kept. Throws RangeError for a malformed URL.
 */
export function chatCompletionsEndpoint(url: string): string {
  const invalid = new RangeError("the LLM URL is not an absolute http(s) URL (e.g. http://localhost:8000/v1)");
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw invalid;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw invalid;
  const path = u.pathname.replace(/\/+$/, "");
  u.pathname = path.endsWith("/chat/completions") ? path : path.endsWith("/v1") ? `${path}/chat/completions` : `${path}/v1/chat/completions`;
  return u.toString();
}

/** The endpoint without user info or query, safe for error messages and logs. */
export function displayEndpoint(endpoint: string): string {
  const u = new URL(endpoint);
  return `${u.protocol}//${u.host}${u.pathname}`;
}
