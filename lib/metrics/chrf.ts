/**
 * chrF and chrF++ of sacreBLEU v2.6.0 (`sacrebleu/metrics/chrf.py`, `metrics/helpers.py`)
 * with its defaults: character order 6, word order 0 (chrF) or 2 (chrF++),
 * beta 2, case-sensitive, whitespace excluded, effective-order averaging (`eps_smoothing=False`).
 */
import { clippedNgramMatches } from "./ngrams";
import { isPySpace } from "./python-compat";
import { IdBuffer, spanIds, startVocabulary, TokenSpans } from "./tokens";

const CHAR_ORDER = 6;
const BETA = 2;
/** Word order 0 is chrF, 2 is chrF++. */
export type ChrfWordOrder = 0 | 2;

export const CHRF_SIGNATURE = "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0";
export const CHRFPP_SIGNATURE = "nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0";

/** Python `string.punctuation`: !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~ */
const isPunctuation = (code: number) =>
  (code >= 0x21 && code <= 0x2f) || (code >= 0x3a && code <= 0x40) || (code >= 0x5b && code <= 0x60) || (code >= 0x7b && code <= 0x7e);

const spans = new TokenSpans();

/**
 * Word ids of `CHRF._remove_punctuation`, in one scan: of each whitespace-separated word longer
 * than one character, one punctuation character (Python `string.punctuation`) is peeled off the
 * end, else off the start.
 */
function chrfWordIds(text: string, buffer: IdBuffer): Int32Array {
  spans.reset(text);
  const n = text.length;
  for (let i = 0; i < n; ) {
    if (isPySpace(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && !isPySpace(text.charCodeAt(i))) i++;
    // A one-character word stays whole; an astral one (two units) has no punctuation to peel either.
    if (i - start === 1) spans.push(start, i);
    else if (isPunctuation(text.charCodeAt(i - 1))) {
      spans.push(start, i - 1);
      spans.push(i - 1, i);
    } else if (isPunctuation(text.charCodeAt(start))) {
      spans.push(start, start + 1);
      spans.push(start + 1, i);
    } else spans.push(start, i);
  }
  return spanIds(spans, buffer);
}

/** Code points of one side, in a buffer reused by every call. */
class CodePointBuffer {
  private codes = new Int32Array(256);

  /** The code points of `text` without its whitespace (`"".join(text.split())`), valid until the next fill. */
  fill(text: string): Int32Array {
    if (this.codes.length < text.length) this.codes = new Int32Array(2 * text.length);
    const codes = this.codes;
    let n = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.codePointAt(i) as number;
      if (code > 0xffff) i++;
      else if (isPySpace(code)) continue;
      codes[n++] = code;
    }
    return codes.subarray(0, n);
  }
}

/** The reused buffers of one side: the hypothesis', or the reference's being compared with it. */
interface SideBuffers {
  codePoints: CodePointBuffer;
  wordIds: IdBuffer;
}
const HYPOTHESIS: SideBuffers = { codePoints: new CodePointBuffer(), wordIds: new IdBuffer() };
const REFERENCE: SideBuffers = { codePoints: new CodePointBuffer(), wordIds: new IdBuffer() };

/** One side of a comparison: code points of the text with all whitespace removed, and (chrF++) its word ids. */
interface ChrfSide {
  chars: Int32Array;
  words: Int32Array;
}

const NO_WORDS = new Int32Array(0);

function chrfSide(text: string, wordOrder: ChrfWordOrder, buffers: SideBuffers): ChrfSide {
  return { chars: buffers.codePoints.fill(text), words: wordOrder > 0 ? chrfWordIds(text, buffers.wordIds) : NO_WORDS };
}

/** `[hyp_count, ref_count, matches]` per order (characters, then words); `hyp_count` is 0 where the reference has no n-grams of that order. */
function matchStatistics(hyp: ChrfSide, ref: ChrfSide, wordOrder: ChrfWordOrder): number[] {
  const stats = new Array<number>(3 * (CHAR_ORDER + wordOrder));
  putOrderStatistics(stats, 0, CHAR_ORDER, hyp.chars, ref.chars);
  if (wordOrder > 0) putOrderStatistics(stats, 3 * CHAR_ORDER, wordOrder, hyp.words, ref.words);
  return stats;
}

/** Writes `[hyp_count, ref_count, matches]` of orders 1..order into `stats` from `offset`. */
function putOrderStatistics(stats: number[], offset: number, order: number, hypSymbols: Int32Array, refSymbols: Int32Array): void {
  const matches = clippedNgramMatches(hypSymbols, [refSymbols], order);
  let k = offset;
  for (let i = 0; i < order; i++) {
    const refTotal = Math.max(refSymbols.length - i, 0);
    stats[k++] = refTotal > 0 ? Math.max(hypSymbols.length - i, 0) : 0;
    stats[k++] = refTotal;
    stats[k++] = matches[i];
  }
}

/**
 * `CHRF._compute_f_score` without eps smoothing: average precision and recall over the
 * effective orders (both counts > 0), then F-beta of the averages, times 100.
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
  startVocabulary();
  const hyp = chrfSide(hypothesis, wordOrder, HYPOTHESIS);
  let best: number[] = [];
  let bestF = -1;
  for (const reference of references) {
    const stats = matchStatistics(hyp, chrfSide(reference, wordOrder, REFERENCE), wordOrder);
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

/** Corpus chrF/chrF++: per-segment best-reference statistics summed, one F. */
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
