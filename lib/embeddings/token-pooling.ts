/**
 * CRScore §3.3's sentence representation: "computing token embeddings … excluding the stopwords
 * and pooling the rest of the token embeddings". text-embeddings-inference serves the per-token
 * vectors (`POST /embed_all`) and the tokens they belong to (`POST /tokenize`, with the special
 * tokens flagged); a token is left out when it is special or lies in a word of the stopword list,
 * and the others are averaged. The stopword list is CodeReviewer's (lib/metrics/stopwords.ts), the
 * one CRScore's "BLEU (without stopwords)" uses: the paper does not name the list of its pooling.
 */
import { CODEREVIEWER_STOPWORDS } from "@/lib/metrics";

/** A token as `/tokenize` returns it: its text in the input and whether it is a special token ([CLS], [SEP], …). */
export interface TokenInfo {
  text: string;
  special: boolean;
}

/** Word-piece markers that are no part of the input: BERT's "##", GPT-2's "Ġ", SentencePiece's "▁". */
const PIECE_MARKERS = /^(##|Ġ|▁)/;

/**
 * For each token of `text`, whether it is a content token: not special, and not in a word
 * (a run of letters and apostrophes, lower-cased) that is a stopword. Tokens are found in the
 * text in order, so a piece of a longer word ("any" in "anything") takes that word's verdict.
 */
export function contentTokens(text: string, tokens: readonly TokenInfo[]): boolean[] {
  const lower = text.toLowerCase();
  const words: { start: number; end: number; stop: boolean }[] = [];
  for (const m of lower.matchAll(/[a-z']+/g)) words.push({ start: m.index, end: m.index + m[0].length, stop: CODEREVIEWER_STOPWORDS.has(m[0]) });
  let cursor = 0;
  return tokens.map((token) => {
    if (token.special) return false;
    const piece = token.text.replace(PIECE_MARKERS, "").trim().toLowerCase();
    if (piece === "") return false;
    const at = lower.indexOf(piece, cursor);
    if (at < 0) return true;
    cursor = at + piece.length;
    const word = words.find((w) => w.start <= at && at < w.end);
    return !word?.stop;
  });
}

/**
 * Mean of the content tokens' vectors. A text of stopwords only ("Why do we need these?") keeps
 * all its non-special tokens rather than becoming the zero vector, and a text with no non-special
 * token falls back to all tokens.
 */
export function poolWithoutStopwords(text: string, tokens: readonly TokenInfo[], vectors: readonly (readonly number[])[]): number[] {
  if (tokens.length !== vectors.length) throw new RangeError(`${tokens.length} tokens but ${vectors.length} token vectors`);
  if (vectors.length === 0) throw new RangeError("no token vectors to pool");
  const content = contentTokens(text, tokens);
  const keep = content.some(Boolean) ? content : tokens.some((t) => !t.special) ? tokens.map((t) => !t.special) : tokens.map(() => true);
  const sum = new Array<number>(vectors[0].length).fill(0);
  let count = 0;
  vectors.forEach((vector, i) => {
    if (!keep[i]) return;
    for (let d = 0; d < vector.length; d++) sum[d] += vector[d];
    count++;
  });
  return sum.map((v) => v / count);
}
