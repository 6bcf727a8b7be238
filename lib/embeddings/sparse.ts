/** A sparse vector with ascending feature indices and unit L2 norm (or no entries: the zero vector). */
export interface SparseVector {
  indices: Int32Array;
  values: Float64Array;
}

/**
 * Cosine of two unit-norm sparse vectors: their dot product, by merging the sorted indices.
 * Null when either is the zero vector, as cosineSimilarity in lib/metrics for dense vectors.
 */
export function sparseCosine(a: SparseVector, b: SparseVector): number | null {
  if (a.indices.length === 0 || b.indices.length === 0) return null;
  let dot = 0;
  let i = 0;
  let j = 0;
  while (i < a.indices.length && j < b.indices.length) {
    const d = a.indices[i] - b.indices[j];
    if (d === 0) dot += a.values[i++] * b.values[j++];
    else if (d < 0) i++;
    else j++;
  }
  return Math.min(1, Math.max(-1, dot));
}
