/**
 * The response cache of the chat client: answers by a key hashing (requested model, prompt
 * hash, messages, sampling parameters, sample label), kept in PostgreSQL (LlmResponse), so a
 * re-run of the same requests makes none (lib/data/llm-responses.ts).
 */
import { createHash } from "node:crypto";
import type { ChatMessage } from "./types";

export interface CachedAnswer {
  model: string;
  content: string;
  finishReason: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  costUsd: number | null;
  attempts: number;
}

export interface CacheEntry extends CachedAnswer {
  requestedModel: string;
  promptVersion: string;
  params: Record<string, unknown>;
}

export interface ChatCache {
  get(key: string): Promise<CachedAnswer | null>;
  put(key: string, entry: CacheEntry): Promise<void>;
}

export interface CacheKeyParts {
  model: string;
  promptVersion: string;
  messages: readonly ChatMessage[];
  params: { temperature: number; seed: number | null; maxTokens: number | null; sample: string };
}

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export function cacheKey(parts: CacheKeyParts): string {
  return sha256(JSON.stringify([parts.model, parts.promptVersion, parts.messages.map((m) => [m.role, m.content]), parts.params.temperature, parts.params.seed, parts.params.maxTokens, parts.params.sample]));
}
