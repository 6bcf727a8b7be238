/**
 * Which embedder a study uses: an OpenAI-compatible endpoint when a URL is configured
 * (explicit options, else EMBEDDINGS_URL / EMBEDDINGS_MODEL / EMBEDDINGS_API_KEY), otherwise
 * the offline TF-IDF default.
 */
import { env, type Env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { TFIDF_MODEL } from "./tfidf";

export type EmbeddingConfig = { kind: "http"; url: string; model: string; apiKey?: string } | { kind: "offline"; model: typeof TFIDF_MODEL };

export interface EmbeddingOverrides {
  url?: string;
  model?: string;
  apiKey?: string;
}

export function resolveEmbeddingConfig(overrides: EmbeddingOverrides = {}, config: Pick<Env, "EMBEDDINGS_URL" | "EMBEDDINGS_MODEL" | "EMBEDDINGS_API_KEY"> = env()): EmbeddingConfig {
  const url = overrides.url ?? config.EMBEDDINGS_URL;
  if (!url) return { kind: "offline", model: TFIDF_MODEL };
  const model = overrides.model ?? config.EMBEDDINGS_MODEL;
  if (!model) throw new AppError("INVALID_INPUT", { message: "an embeddings URL is set but no model: set EMBEDDINGS_MODEL (e.g. mxbai-embed-large-v1)" });
  const apiKey = overrides.apiKey ?? config.EMBEDDINGS_API_KEY;
  return { kind: "http", url, model, ...(apiKey ? { apiKey } : {}) };
}
