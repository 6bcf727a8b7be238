/**
 * The offline default embedder: TF-IDF over word 1-2-grams and character 3-5-grams (within
 * word boundaries, as scikit-learn's `analyzer="char_wb"`), fitted on the study's own texts.
 * It needs no model or network and is deterministic, but it measures lexical overlap, not
 * meaning: scores computed with it carry the model name TFIDF_MODEL, and CRScore computed with
 * it uses a threshold calibrated on the study (CRScore §3.3), never the paper's τ = 0.7314,
 * which belongs to mxbai-embed-large-v1.
 */
import { textHash } from "./hash";
import { type SparseVector, sparseCosine } from "./sparse";
import { embeddedTexts, type Embedder } from "./types";

/** Model name of the offline embedder; bump the version whenever a vector it returns changes. */
export const TFIDF_MODEL = "tfidf-offline-v1";

/** Every setting of the offline embedder, for metric signatures. */
export const TFIDF_SETTINGS = "word:1-2|char_wb:3-5|tf:sublinear|idf:smooth|norm:l2-per-block|fit:study";

const CHAR_MIN = 3;
const CHAR_MAX = 5;

/**
 * Word tokens: runs of ASCII letters and digits, camelCase and PascalCase split into their
 * parts ("getUserName" → get, user, name), lower-cased. Code identifiers in reviews then match
 * the words of a claim about them.
 */
export function tfidfWords(text: string): string[] {
  const words: string[] = [];
  for (const run of text.match(/[A-Za-z0-9]+/g) ?? []) {
    for (const part of run.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? []) words.push(part.toLowerCase());
  }
  return words;
}

/** Word unigrams and bigrams. */
function wordFeatures(words: readonly string[]): string[] {
  const features = [...words];
  for (let i = 1; i < words.length; i++) features.push(`${words[i - 1]} ${words[i]}`);
  return features;
}

/** Character n-grams of each space-padded word, n = 3..5 (a word shorter than n gives itself once, as char_wb). */
function charFeatures(words: readonly string[]): string[] {
  const features: string[] = [];
  for (const word of words) {
    const padded = ` ${word} `;
    for (let n = CHAR_MIN; n <= CHAR_MAX; n++) {
      for (let i = 0; i + n <= padded.length; i++) features.push(padded.slice(i, i + n));
      if (padded.length === n) break;
    }
  }
  return features;
}

/** One block of features (words or characters): vocabulary index and document frequency. */
class Vocabulary {
  readonly index = new Map<string, number>();
  df: number[] = [];

  addDocument(features: readonly string[]): void {
    for (const feature of new Set(features)) {
      let i = this.index.get(feature);
      if (i === undefined) {
        i = this.index.size;
        this.index.set(feature, i);
        this.df.push(0);
      }
      this.df[i]++;
    }
  }
}

/** Sublinear tf · smooth idf weights of one block, L2-normalised: (1 + ln tf) · (ln((1 + N)/(1 + df)) + 1). */
function weighBlock(features: readonly string[], vocabulary: Vocabulary, idf: Float64Array, offset: number): Map<number, number> {
  const tf = new Map<number, number>();
  for (const feature of features) {
    const i = vocabulary.index.get(feature);
    if (i !== undefined) tf.set(i + offset, (tf.get(i + offset) ?? 0) + 1);
  }
  let norm = 0;
  for (const [i, count] of tf) {
    const w = (1 + Math.log(count)) * idf[i - offset];
    tf.set(i, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm);
  for (const [i, w] of tf) tf.set(i, w / norm);
  return tf;
}

export interface TfidfModel {
  /** Distinct texts the model was fitted on. */
  readonly documents: number;
  /** SHA-256 over the sorted hashes of those texts: same corpus, same model. */
  readonly fingerprint: string;
  /** Unit-norm vector: the word and character blocks each L2-normalised, then weighted 1/√2 each when both are present. */
  transform(text: string): SparseVector;
}

/** Fits the vocabularies and idf on the distinct texts of `corpus` (duplicates count once). */
export function fitTfidf(corpus: readonly string[]): TfidfModel {
  const texts = [...new Set(corpus)];
  const words = new Vocabulary();
  const chars = new Vocabulary();
  for (const text of texts) {
    const tokens = tfidfWords(text);
    words.addDocument(wordFeatures(tokens));
    chars.addDocument(charFeatures(tokens));
  }
  const idfOf = (v: Vocabulary) => Float64Array.from(v.df, (df) => Math.log((1 + texts.length) / (1 + df)) + 1);
  const wordIdf = idfOf(words);
  const charIdf = idfOf(chars);
  const wordCount = words.index.size;
  const fingerprint = textHash(texts.map(textHash).sort().join("\n"));

  return {
    documents: texts.length,
    fingerprint,
    transform(text) {
      const tokens = tfidfWords(text);
      const blocks = [weighBlock(wordFeatures(tokens), words, wordIdf, 0), weighBlock(charFeatures(tokens), chars, charIdf, wordCount)].filter((b) => b.size > 0);
      const scale = blocks.length === 2 ? Math.SQRT1_2 : 1;
      const entries = blocks.flatMap((b) => [...b]).sort((x, y) => x[0] - y[0]);
      return { indices: Int32Array.from(entries, (e) => e[0]), values: Float64Array.from(entries, (e) => e[1] * scale) };
    },
  };
}

/** The offline Embedder over a fitted model. */
export function createTfidfEmbedder(model: TfidfModel): Embedder {
  return {
    model: TFIDF_MODEL,
    offline: true,
    async embed(texts) {
      const vectors = new Map<string, SparseVector>();
      for (const text of texts) if (!vectors.has(text)) vectors.set(text, model.transform(text));
      return embeddedTexts(vectors, sparseCosine);
    },
  };
}
