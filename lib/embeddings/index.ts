/** Embedding providers for embeddingSim and CRScore: OpenAI-compatible endpoints and the offline TF-IDF default. */
export type { Embedder, EmbeddedTexts } from "./types";
export { embeddedTexts } from "./types";
export { textHash } from "./hash";
export { sparseCosine, type SparseVector } from "./sparse";
export { createTfidfEmbedder, fitTfidf, isTfidfModel, tfidfWords, TFIDF_MODEL, TFIDF_SETTINGS, type TfidfModel } from "./tfidf";
export { cachedModelName, createHttpEmbedder, embeddingsEndpoint, EmbeddingRequestError, offersTokenEmbeddings, tokenEndpointsRoot, type EmbeddingPooling, type EmbeddingStore, type HttpEmbedderOptions } from "./http";
export { contentTokens, poolWithoutStopwords, type TokenInfo } from "./token-pooling";
export { resolveEmbeddingConfig, type EmbeddingConfig, type EmbeddingOverrides } from "./config";
