/**
 * The offline default embedder: TF-IDF over word 1-2-grams and character 3-5-grams (within
 * word boundaries, as scikit-learn's `analyzer="char_wb"`), fitted on the study's own texts.
 * It needs no model or network and is deterministic, but it measures lexical overlap, not
 * meaning: scores computed with it carry the model name TFIDF_MODEL, and CRScore computed with
 * it uses a threshold calibrated on the study (CRScore §3.3), never the paper's τ = 0.7314,
 * which belongs to mxbai-embed-large-v1.
 *
 * Features are numbers, never strings: each distinct word gets an id and, once, the ids of its
 * character n-grams; a word bigram is the pair of its words' ids. A text's features are then
 * its words' ids and n-gram lists, in the order the texts' feature strings had, so that the
 * vocabulary (numbered in first-seen order), each vector and every sum come out as they did
 * when the features were strings. The texts are read in code-unit order, so the numbering, and
 * with it the order in which a dot product adds its terms, depends on the set of texts only.
 */
import { textHash } from "./hash";
import type { SparseVector } from "./sparse";
import { embeddedTexts, type Embedder } from "./types";

/** Model name of the offline embedder; bump the version whenever a vector it returns changes. */
export const TFIDF_MODEL = "tfidf-offline-v2";

/** Whether a model name is the offline embedder's, of this version or an earlier one (their scores stay stored). */
export const isTfidfModel = (model: string) => /^tfidf-offline-v\d+$/.test(model);

/** Every setting of the offline embedder, for metric signatures. */
export const TFIDF_SETTINGS = "word:1-2|char_wb:3-5|tf:sublinear|idf:smooth|norm:l2-per-block|fit:study";

const CHAR_MIN = 3;
const CHAR_MAX = 5;

/**
 * Word tokens: runs of ASCII letters and digits, camelCase and PascalCase split into their
 * parts ("getAccountName" → get, account, name), lower-cased. Code identifiers in reviews then match
 * the words of a claim about them.
 */
export function tfidfWords(text: string): string[] {
  const words: string[] = [];
  forEachWord(text, (start, end) => words.push(text.slice(start, end).toLowerCase()));
  return words;
}

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;
/** The code of text[k], 0 past its end; not a closure over the text, which would be made for every text. */
const codeAt = (text: string, k: number) => (k < text.length ? text.charCodeAt(k) : 0);

/**
 * Calls `visit(start, end)` for each word of the text, in order: within each run of ASCII letters
 * and digits, what /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g matches there (capitals not followed
 * by a lower-case letter, one capital and the lower-case letters after it, or digits), read off
 * the character codes.
 */
function forEachWord(text: string, visit: (start: number, end: number) => void): void {
  const n = text.length;
  for (let k = 0; k < n; ) {
    const c = text.charCodeAt(k);
    let end = k + 1;
    if (isUpper(c)) {
      while (isUpper(codeAt(text, end))) end++;
      if (isLower(codeAt(text, end))) {
        // Capitals before a capitalised word ("HTTPServer" → HTTP), else one capital and its lower-case letters.
        if (end - k >= 2) end--;
        else while (isLower(codeAt(text, end))) end++;
      }
    } else if (isLower(c)) while (isLower(codeAt(text, end))) end++;
    else if (isDigit(c)) while (isDigit(codeAt(text, end))) end++;
    else {
      k++;
      continue;
    }
    visit(k, end);
    k = end;
  }
}

/** Character n-grams of a space-padded word, n = 3..5 (a word shorter than n gives itself once, as char_wb). */
function charGrams(word: string): string[] {
  const grams: string[] = [];
  const padded = ` ${word} `;
  for (let n = CHAR_MIN; n <= CHAR_MAX; n++) {
    for (let i = 0; i + n <= padded.length; i++) grams.push(padded.slice(i, i + n));
    if (padded.length === n) break;
  }
  return grams;
}

/** Pairs of non-negative 32-bit ids → a number, by open addressing on typed arrays. */
class PairTable {
  private firsts = new Int32Array(1024);
  private seconds = new Int32Array(1024);
  private values = new Int32Array(1024).fill(-1);
  private size = 0;

  private slot(a: number, b: number): number {
    const mask = this.values.length - 1;
    let slot = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b)) & mask;
    while (this.values[slot] >= 0 && (this.firsts[slot] !== a || this.seconds[slot] !== b)) slot = (slot + 1) & mask;
    return slot;
  }

  /** The value of (a, b), -1 when there is none. */
  get(a: number, b: number): number {
    return this.values[this.slot(a, b)];
  }

  set(a: number, b: number, value: number): void {
    if (2 * (this.size + 1) > this.values.length) this.grow();
    const slot = this.slot(a, b);
    if (this.values[slot] < 0) this.size++;
    this.firsts[slot] = a;
    this.seconds[slot] = b;
    this.values[slot] = value;
  }

  private grow(): void {
    const { firsts, seconds, values } = this;
    this.firsts = new Int32Array(2 * values.length);
    this.seconds = new Int32Array(2 * values.length);
    this.values = new Int32Array(2 * values.length).fill(-1);
    this.size = 0;
    for (let s = 0; s < values.length; s++) if (values[s] >= 0) this.set(firsts[s], seconds[s], values[s]);
  }
}

/**
 * Words and character n-grams as numbers: a word's id, the ids of its n-grams (computed once per
 * distinct word), and each block's vocabulary index of a word, bigram or n-gram (-1 outside the
 * vocabulary).
 */
class Features {
  private readonly wordIds = new Map<string, number>();
  /** The lower-cased words seen as a trie of character codes: (node, code) → node, and each node's word id (-1 for none). */
  private readonly trie = new PairTable();
  private readonly wordOfNode: number[] = [-1];
  private readonly gramIds = new Map<string, number>();
  /** The n-gram ids of each word id. */
  readonly gramsOf: Int32Array[] = [];
  /** Vocabulary index of each word id (unigram), of each pair of word ids (bigram), of each n-gram id. */
  readonly unigram: number[] = [];
  readonly bigram = new PairTable();
  readonly gram: number[] = [];

  /** The ids of the last text's words, the first words(text) of them; valid until the next call. */
  ids = new Int32Array(256);
  private count = 0;
  private text = "";
  private readonly addWord = (start: number, end: number): void => {
    if (this.count === this.ids.length) this.ids = growInt32(this.ids);
    this.ids[this.count++] = this.wordAt(this.text, start, end);
  };

  /** Reads the ids of a text's words (tfidfWords) into `ids`, new words numbered as they come, and returns how many. */
  words(text: string): number {
    this.count = 0;
    this.text = text;
    forEachWord(text, this.addWord);
    return this.count;
  }

  /** The id of the word text[start..end), lower-cased, found through the trie without making its string unless it is new. */
  private wordAt(text: string, start: number, end: number): number {
    let node = 0;
    for (let k = start; k < end; k++) {
      const code = text.charCodeAt(k) | (isUpper(text.charCodeAt(k)) ? 32 : 0);
      let next = this.trie.get(node, code);
      if (next < 0) {
        next = this.wordOfNode.push(-1) - 1;
        this.trie.set(node, code, next);
      }
      node = next;
    }
    if (this.wordOfNode[node] < 0) this.wordOfNode[node] = this.wordId(text.slice(start, end).toLowerCase());
    return this.wordOfNode[node];
  }

  private wordId(word: string): number {
    let id = this.wordIds.get(word);
    if (id === undefined) {
      id = this.wordIds.size;
      this.wordIds.set(word, id);
      this.unigram.push(-1);
      this.gramsOf.push(Int32Array.from(charGrams(word), (g) => this.gramId(g)));
    }
    return id;
  }

  private gramId(gram: string): number {
    let id = this.gramIds.get(gram);
    if (id === undefined) {
      id = this.gramIds.size;
      this.gramIds.set(gram, id);
      this.gram.push(-1);
    }
    return id;
  }
}

/**
 * Calls `visit(index)` with the vocabulary index of each word feature of a text in order: its
 * unigrams, then its bigrams (what `[...words, ...bigrams]` listed); -1 outside the vocabulary.
 */
function forEachWordFeature(features: Features, count: number, visit: (index: number) => void): void {
  const words = features.ids;
  for (let k = 0; k < count; k++) visit(features.unigram[words[k]]);
  for (let k = 1; k < count; k++) visit(features.bigram.get(words[k - 1], words[k]));
}

/** The same for the character n-grams: each word's n-grams in order. */
function forEachCharFeature(features: Features, count: number, visit: (index: number) => void): void {
  const words = features.ids;
  for (let k = 0; k < count; k++) {
    const grams = features.gramsOf[words[k]];
    for (let g = 0; g < grams.length; g++) visit(features.gram[grams[g]]);
  }
}

/**
 * One block of the vocabulary (words or characters): document frequencies by index, indices in
 * first-seen order. `stamp` remembers the last document that counted each index.
 */
class Block {
  readonly df: number[] = [];
  private readonly stamp: number[] = [];

  /** The index of a feature seen in document `doc`: a new one if `index` is -1; its df counted once per document. */
  see(index: number, doc: number): number {
    if (index < 0) {
      index = this.df.length;
      this.df.push(0);
      this.stamp.push(-1);
    }
    if (this.stamp[index] !== doc) {
      this.stamp[index] = doc;
      this.df[index]++;
    }
    return index;
  }
}

/**
 * Term counts of one text's features in a block, with the indices in first-occurrence order
 * (the order a Map of the counts kept); reused from text to text.
 */
class Counts {
  counts: Float64Array;
  order: Int32Array;
  length = 0;

  constructor(size: number) {
    this.counts = new Float64Array(size);
    this.order = new Int32Array(Math.max(16, size));
  }

  add = (index: number): void => {
    if (index < 0) return;
    if (this.counts[index] === 0) {
      if (this.length === this.order.length) this.order = growInt32(this.order);
      this.order[this.length++] = index;
    }
    this.counts[index]++;
  };
}

const growInt32 = (a: Int32Array) => {
  const b = new Int32Array(2 * a.length);
  b.set(a);
  return b;
};

/** 1 + ln tf for the term counts of a text, which are small: the same numbers as Math.log gives, looked up. */
const SUBLINEAR_TF = Float64Array.from({ length: 256 }, (_, tf) => 1 + Math.log(tf));
const sublinearTf = (tf: number) => (tf < SUBLINEAR_TF.length ? SUBLINEAR_TF[tf] : 1 + Math.log(tf));

/**
 * Sublinear tf · smooth idf weights of one block's counts, L2-normalised (the norm summed in
 * first-occurrence order): (1 + ln tf) · (ln((1 + N)/(1 + df)) + 1), into `weights` by index.
 * Returns how many indices the block has, the first of `block.order` (valid until the block's next
 * text); the counts are cleared for the next text.
 */
function weighBlock(block: Counts, idf: Float64Array, weights: Float64Array): number {
  let norm = 0;
  for (let k = 0; k < block.length; k++) {
    const i = block.order[k];
    const w = sublinearTf(block.counts[i]) * idf[i];
    weights[i] = w;
    norm += w * w;
  }
  norm = Math.sqrt(norm);
  const length = block.length;
  for (let k = 0; k < length; k++) {
    const i = block.order[k];
    weights[i] = weights[i] / norm;
    block.counts[i] = 0;
  }
  block.length = 0;
  return length;
}

/**
 * A vector's entries, in index order once `sorted` (sortEntries): the embedder sorts only the
 * vectors a dot product reads in order (scatteredCosine's second), which spares the sort of
 * most review sentences' (a fifth of making a vector).
 */
interface Entries {
  indices: Int32Array;
  values: Float64Array;
  sorted: boolean;
}

/** Sorts the entries by index in place, each value moved with its index through `byIndex` (a scratch array by index). */
function sortEntries(entries: Entries, byIndex: Float64Array): SparseVector {
  if (!entries.sorted) {
    const { indices, values } = entries;
    for (let k = 0; k < indices.length; k++) byIndex[indices[k]] = values[k];
    indices.sort();
    for (let k = 0; k < indices.length; k++) values[k] = byIndex[indices[k]];
    entries.sorted = true;
  }
  return entries;
}

/**
 * Room for vectors, carved out of large blocks: a run keeps tens of thousands of vectors, and
 * two buffers of their own each (the arrays' memory and its bookkeeping for the garbage
 * collector) cost more than the vectors' values.
 */
class VectorPool {
  private static readonly BLOCK = 1 << 16;
  private indices = new Int32Array(0);
  private values = new Float64Array(0);
  private used = 0;

  take(size: number): Entries {
    if (this.used + size > this.indices.length) {
      this.indices = new Int32Array(Math.max(VectorPool.BLOCK, size));
      this.values = new Float64Array(Math.max(VectorPool.BLOCK, size));
      this.used = 0;
    }
    const vector = { indices: this.indices.subarray(this.used, this.used + size), values: this.values.subarray(this.used, this.used + size), sorted: false };
    this.used += size;
    return vector;
  }
}

export interface TfidfModel {
  /** Distinct texts the model was fitted on. */
  readonly documents: number;
  /** SHA-256 over the sorted hashes of those texts: same corpus, same model. */
  readonly fingerprint: string;
  /** Size of the vector space: the word and character vocabularies together. */
  readonly dimensions: number;
  /** Unit-norm vector: the word and character blocks each L2-normalised, then weighted 1/√2 each when both are present. */
  transform(text: string): SparseVector;
  /** transform's entries, not yet sorted (sortEntries sorts them). */
  entries(text: string): Entries;
}

/**
 * Fits the vocabularies and idf on the distinct texts of `corpus` (duplicates count once), sorted:
 * a study's texts come in whatever order PostgreSQL's plan returns them, and version 1, which
 * numbered them as they came, gave similarities whose last bits changed with that order.
 */
export function fitTfidf(corpus: readonly string[]): TfidfModel {
  const texts = [...new Set(corpus)].sort();
  const features = new Features();
  const words = new Block();
  const chars = new Block();
  texts.forEach((text, doc) => {
    const count = features.words(text);
    const ids = features.ids;
    for (let k = 0; k < count; k++) features.unigram[ids[k]] = words.see(features.unigram[ids[k]], doc);
    for (let k = 1; k < count; k++) features.bigram.set(ids[k - 1], ids[k], words.see(features.bigram.get(ids[k - 1], ids[k]), doc));
    for (let k = 0; k < count; k++) {
      const grams = features.gramsOf[ids[k]];
      for (let g = 0; g < grams.length; g++) features.gram[grams[g]] = chars.see(features.gram[grams[g]], doc);
    }
  });
  const idfOf = (block: Block) => Float64Array.from(block.df, (df) => Math.log((1 + texts.length) / (1 + df)) + 1);
  const wordIdf = idfOf(words);
  const charIdf = idfOf(chars);
  const wordCount = wordIdf.length;
  const fingerprint = textHash(texts.map(textHash).sort().join("\n"));
  const wordCounts = new Counts(wordCount);
  const charCounts = new Counts(charIdf.length);
  const wordWeights = new Float64Array(wordCount);
  const charWeights = new Float64Array(charIdf.length);
  const pool = new VectorPool();
  const byIndex = new Float64Array(wordCount + charIdf.length);

  const entries = (text: string): Entries => {
    const count = features.words(text);
    forEachWordFeature(features, count, wordCounts.add);
    forEachCharFeature(features, count, charCounts.add);
    const wordLength = weighBlock(wordCounts, wordIdf, wordWeights);
    const charLength = weighBlock(charCounts, charIdf, charWeights);
    const wordIndices = wordCounts.order;
    const charIndices = charCounts.order;
    const scale = wordLength > 0 && charLength > 0 ? Math.SQRT1_2 : 1;
    const vector = pool.take(wordLength + charLength);
    const { indices, values } = vector;
    for (let k = 0; k < wordLength; k++) {
      indices[k] = wordIndices[k];
      values[k] = wordWeights[wordIndices[k]] * scale;
    }
    // Every character index is past the word block's, so sorting the whole sorts each block.
    for (let k = 0; k < charLength; k++) {
      indices[wordLength + k] = charIndices[k] + wordCount;
      values[wordLength + k] = charWeights[charIndices[k]] * scale;
    }
    return vector;
  };
  return {
    documents: texts.length,
    fingerprint,
    dimensions: wordCount + charIdf.length,
    transform: (text) => sortEntries(entries(text), byIndex),
    entries,
  };
}

/**
 * sparseCosine with the first vector's values scattered into a dense array by feature index,
 * kept while the first vector stays the same (CRScore compares a review sentence with each
 * pseudo-reference in turn): the dot product reads the second vector's entries against it, in
 * ascending index order (sorted here if they were not) as sparseCosine's merge adds them, so the
 * sums are the same (a feature the first vector lacks adds 0); no branch per entry, and the first
 * vector's entries in any order.
 */
function scatteredCosine(dimensions: number): (a: Entries, b: Entries) => number | null {
  const dense = new Float64Array(dimensions);
  const byIndex = new Float64Array(dimensions);
  let scattered: Entries | null = null;
  return (a, b) => {
    if (a.indices.length === 0 || b.indices.length === 0) return null;
    sortEntries(b, byIndex);
    if (a !== scattered) {
      if (scattered) for (let k = 0; k < scattered.indices.length; k++) dense[scattered.indices[k]] = 0;
      for (let k = 0; k < a.indices.length; k++) dense[a.indices[k]] = a.values[k];
      scattered = a;
    }
    let dot = 0;
    for (let k = 0; k < b.indices.length; k++) dot += dense[b.indices[k]] * b.values[k];
    return Math.min(1, Math.max(-1, dot));
  };
}

/** The offline Embedder over a fitted model; the vectors of texts embedded with `keep` stay with it. */
export function createTfidfEmbedder(model: TfidfModel): Embedder {
  const cosine = scatteredCosine(model.dimensions);
  const kept = new Map<string, Entries>();
  return {
    model: TFIDF_MODEL,
    offline: true,
    async embed(texts, { keep = false } = {}) {
      const vectors = new Map<string, Entries>();
      for (const text of texts) {
        if (vectors.has(text)) continue;
        let vector = kept.get(text);
        if (!vector) {
          vector = model.entries(text);
          if (keep) kept.set(text, vector);
        }
        vectors.set(text, vector);
      }
      return embeddedTexts(vectors, cosine);
    },
  };
}
