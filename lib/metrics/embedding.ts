/**
 * Embedding similarity. GradedReviews' embeddingSim (paper section 5.1, eq. 1) is the cosine of the
 * embedding vectors of a review and its reference; CRScore (section 3.3) takes the same cosine between
 * sentence embeddings. The embeddings themselves come from the caller (a model outside this library).
 */

/** A score that may be undefined, with the reason when it is. */
export type MaybeScore = { value: number; reason: null } | { value: null; reason: string };

/**
 * Cosine similarity v·v′ / (‖v‖‖v′‖), clamped to [−1, 1] against rounding. Returns null when either
 * vector has zero norm (the cosine is 0/0, undefined). Throws on unequal lengths or non-finite entries.
 */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number | null {
  if (a.length !== b.length) throw new RangeError(`vectors differ in length: ${a.length} vs ${b.length}`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    normA += a[i] * a[i];
    normB += b[i] * b[i];
  }
  if (!Number.isFinite(dot) || !Number.isFinite(normA) || !Number.isFinite(normB)) {
    throw new RangeError("vectors must hold finite numbers");
  }
  if (normA === 0 || normB === 0) return null;
  return Math.min(1, Math.max(-1, dot / (Math.sqrt(normA) * Math.sqrt(normB))));
}

/**
 * embeddingSim(r, r′) of GradedReviews 5.1 from the two embedding vectors, in [−1, 1]. A zero
 * vector (e.g. an embedding service that returned nothing) yields `{ value: null, reason: "zero-vector" }`
 * rather than 0, so a failure is never scored as "unrelated".
 */
export function embeddingSim(reviewVector: readonly number[], referenceVector: readonly number[]): MaybeScore {
  const value = cosineSimilarity(reviewVector, referenceVector);
  return value === null ? { value: null, reason: "zero-vector" } : { value, reason: null };
}
