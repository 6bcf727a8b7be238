/**
 * Text embedders for embeddingSim (GradedReviews §5.1) and CRScore (CRScore §3.3): a model
 * name recorded with every score, and the similarity of any two embedded texts.
 */
import { InvariantError } from "@/lib/errors";

/** Similarities between texts embedded together; null where undefined (a zero vector). */
export interface EmbeddedTexts {
  similarity(a: string, b: string): number | null;
}

export interface Embedder {
  /** Recorded in metric signatures and the embedding cache, e.g. "mxbai-embed-large-v1" or TFIDF_MODEL. */
  readonly model: string;
  /** True for the offline TF-IDF default, which is no neural model: labelled as such wherever it appears. */
  readonly offline: boolean;
  /**
   * Embeds the distinct texts (in batches, cached where the embedder caches). `keep`: this process
   * will ask for them again (τ's calibration embeds texts that the run's chunks embed again), so
   * the offline embedder keeps their vectors, as an endpoint's cache keeps its vectors in the database.
   */
  embed(texts: readonly string[], options?: { keep?: boolean }): Promise<EmbeddedTexts>;
}

/** EmbeddedTexts over a text → vector map; asking for a text that was not embedded is a programming error. */
export function embeddedTexts<V>(vectors: ReadonlyMap<string, V>, similarity: (a: V, b: V) => number | null): EmbeddedTexts {
  const lookup = (text: string): V => {
    const vector = vectors.get(text);
    if (vector === undefined) throw new InvariantError(`text was not embedded: ${JSON.stringify(text.slice(0, 60))}`);
    return vector;
  };
  return { similarity: (a, b) => similarity(lookup(a), lookup(b)) };
}
