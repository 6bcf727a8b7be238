/**
 * chrF and chrF++ of sacreBLEU v2.6.0 (`sacrebleu/metrics/chrf.py`, `metrics/helpers.py`,
 * metrics-spec 2) with its defaults: character order 6, word order 0 (chrF) or 2 (chrF++),
 * beta 2, case-sensitive, whitespace excluded, effective-order averaging (`eps_smoothing=False`).
 */
import { clippedNgramMatches, ngramTotals, tokenSymbols } from "./ngrams";
import { codePointLength, codePoints, pySplit } from "./python-compat";

const CHAR_ORDER = 6;
const BETA = 2;
/** Python `string.punctuation`. */
const PUNCTUATION = new Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");

/** Word order 0 is chrF, 2 is chrF++. */
export type ChrfWordOrder = 0 | 2;

export const CHRF_SIGNATURE = "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0";
export const CHRFPP_SIGNATURE = "nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0";

/** `CHRF._remove_punctuation`: peel one punctuation character off the end, else off the start, of each word. */
function chrfWords(text: string): string[] {
  const words: string[] = [];
  for (const w of pySplit(text)) {
    if (codePointLength(w) === 1) words.push(w);
    else if (PUNCTUATION.has(w[w.length - 1])) words.push(w.slice(0, -1), w[w.length - 1]);
    else if (PUNCTUATION.has(w[0])) words.push(w[0], w.slice(1));
    else words.push(w);
  }
  return words;
}

/** One side of a comparison: code points of the text with all whitespace removed, and (chrF++) its words. */
interface ChrfSide {
  chars: Int32Array;
  words: string[];
}

function chrfSide(text: string, wordOrder: ChrfWordOrder): ChrfSide {
  return { chars: codePoints(pySplit(text).join("")), words: wordOrder > 0 ? chrfWords(text) : [] };
}

/** `[hyp_count, ref_count, matches]` per order (characters, then words); `hyp_count` is 0 where the reference has no n-grams of that order. */
function matchStatistics(hyp: ChrfSide, ref: ChrfSide, wordOrder: ChrfWordOrder): number[] {
  const stats: number[] = [];
  const push = (order: number, hypLength: number, refLength: number, matches: readonly number[]) => {
    const hypTotal = ngramTotals(hypLength, order);
    const refTotal = ngramTotals(refLength, order);
    for (let i = 0; i < order; i++) stats.push(refTotal[i] > 0 ? hypTotal[i] : 0, refTotal[i], matches[i]);
  };
  push(CHAR_ORDER, hyp.chars.length, ref.chars.length, clippedNgramMatches(hyp.chars, [ref.chars], CHAR_ORDER));
  if (wordOrder > 0) {
    const [hypWords, refWords] = tokenSymbols([hyp.words, ref.words]);
    push(wordOrder, hypWords.length, refWords.length, clippedNgramMatches(hypWords, [refWords], wordOrder));
  }
  return stats;
}

/**
 * `CHRF._compute_f_score` without eps smoothing: average precision and recall over the
 * effective orders (both counts > 0), then F-beta of the averages, times 100 (metrics-spec 2 step 4).
 */
export function chrfFromStatistics(stats: readonly number[]): number {
  let avgPrecision = 0;
  let avgRecall = 0;
  let effectiveOrder = 0;
  for (let i = 0; i < stats.length; i += 3) {
    const [nHyp, nRef, nMatch] = [stats[i], stats[i + 1], stats[i + 2]];
    if (nHyp > 0 && nRef > 0) {
      avgPrecision += nMatch / nHyp;
      avgRecall += nMatch / nRef;
      effectiveOrder++;
    }
  }
  if (effectiveOrder === 0) return 0;
  avgPrecision /= effectiveOrder;
  avgRecall /= effectiveOrder;
  if (avgPrecision + avgRecall === 0) return 0;
  const factor = BETA ** 2;
  return 100 * (((1 + factor) * avgPrecision * avgRecall) / (factor * avgPrecision + avgRecall));
}

/** Statistics of one segment: those of the reference with the highest F (strictly; the first wins ties). */
export function chrfStatistics(hypothesis: string, references: readonly string[], wordOrder: ChrfWordOrder): number[] {
  if (references.length === 0) throw new RangeError("chrF needs at least one reference");
  const hyp = chrfSide(hypothesis, wordOrder);
  let best: number[] = [];
  let bestF = -1;
  for (const reference of references) {
    const stats = matchStatistics(hyp, chrfSide(reference, wordOrder), wordOrder);
    const f = chrfFromStatistics(stats);
    if (f > bestF) {
      bestF = f;
      best = stats;
    }
  }
  return best;
}

/** Sentence chrF (word order 0) or chrF++ (word order 2), 0-100. */
export function sentenceChrf(hypothesis: string, references: readonly string[], wordOrder: ChrfWordOrder): number {
  return chrfFromStatistics(chrfStatistics(hypothesis, references, wordOrder));
}

/** Corpus chrF/chrF++: per-segment best-reference statistics summed, one F (metrics-spec 2 step 6). */
export function corpusChrf(
  hypotheses: readonly string[],
  referenceStreams: readonly (readonly string[])[],
  wordOrder: ChrfWordOrder,
): number {
  if (referenceStreams.some((stream) => stream.length !== hypotheses.length)) {
    throw new RangeError("every reference stream must have one reference per hypothesis");
  }
  let sum: number[] = [];
  hypotheses.forEach((hypothesis, i) => {
    const stats = chrfStatistics(
      hypothesis,
      referenceStreams.map((stream) => stream[i]),
      wordOrder,
    );
    sum = sum.length === 0 ? stats : sum.map((value, k) => value + stats[k]);
  });
  return chrfFromStatistics(sum);
}
