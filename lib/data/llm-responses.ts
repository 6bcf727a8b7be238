/** The chat client's response cache (lib/judges/cache.ts) in the LlmResponse table. */
import "server-only";
import { db } from "@/lib/db/client";
import type { ChatCache } from "@/lib/judges/cache";

export const llmResponseCache: ChatCache = {
  async get(key) {
    const row = await db.llmResponse.findUnique({ where: { key } });
    return row && { model: row.model, content: row.content, finishReason: row.finishReason, promptTokens: row.promptTokens, completionTokens: row.completionTokens, costUsd: row.costUsd, attempts: row.attempts };
  },
  async put(key, entry) {
    const data = { ...entry, params: entry.params as object };
    await db.llmResponse.upsert({ where: { key }, create: { key, ...data }, update: {} });
  },
};
