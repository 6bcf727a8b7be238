/**
 * Smoothed sentence BLEU of MOSES `bleu.py` (hieuhoang1972) as adapted by CodeReviewer
 * (`microsoft/CodeBERT`@c0de43d CodeReviewer/code/evaluator/smooth_bleu.py),
 * and the two pipelines built on it: CodeReviewer's `bleu_fromstr` (with and without
 * stopwords, CRScore's BLEU baselines) and GradedReviews' `Code/BLEU.py` (reference README).
 */
import { mteval11aIds, splitPunctsMteval11aIds } from "./mteval";
import { bleuCounts } from "./ngrams";
import { pyRound, pyStrip, wordpunctTokenize } from "./python-compat";
import { CODEREVIEWER_STOPWORDS } from "./stopwords";
import { IdBuffer, referenceIdBuffer, startVocabulary } from "./tokens";

/**
 * Python `sys.float_info.min`, the smoothing constant of `score_cooked`. Not `Number.MIN_VALUE`
 * (a subnormal): with it a review sharing no word with its reference would score differently.
 */
export const PY_FLOAT_MIN = 2.2250738585072014e-308;
const MAX_ORDER = 4;

/** Token ids of the candidate (the references' are in referenceIdBuffer(k)). */
const candidateIds = new IdBuffer();

/** `score_cooked` of one segment, its texts normalised to token ids. */
function smoothBleuOfIds(references: readonly Int32Array[], hypothesis: Int32Array): number {
  const counts = bleuCounts(hypothesis, references, MAX_ORDER);
  let logBleu = 0;
  for (let k = 0; k < MAX_ORDER; k++) {
    const smooth = k > 0 ? 1 : 0;
    logBleu +=
      Math.log(counts.correct[k] + smooth + PY_FLOAT_MIN) - Math.log(counts.total[k] + smooth + PY_FLOAT_MIN);
  }
  logBleu /= MAX_ORDER;
  const refLength = Math.min(...counts.refLengths);
  const brevityPenalty = Math.min(0, 1 - (refLength + 1) / (counts.hypLength + 1));
  return Math.exp(logBleu + brevityPenalty);
}

/**
 * `smooth_bleu.bleu(refs, hyp)[0]`, in [0, 1]: mteval-v11a
 * normalisation of every text, clipped n-gram matches for n = 1..4, add-one smoothing for
 * n ≥ 2, shortest reference length and brevity penalty `min(0, 1 − (r+1)/(h+1))` in log space.
 * A hypothesis with no unigram match scores about 1e-80 (never 0); an empty one scores exp(−r).
 */
export function mosesSmoothBleu(references: readonly string[], hypothesis: string): number {
  if (references.length === 0) throw new RangeError("mosesSmoothBleu needs at least one reference");
  startVocabulary();
  const refs = references.map((reference, k) => mteval11aIds(reference, referenceIdBuffer(k)));
  return smoothBleuOfIds(refs, mteval11aIds(hypothesis, candidateIds));
}

/** Options of CodeReviewer's `bleu_fromstr`. */
export interface CodeReviewerBleuOptions {
  /** `rmstop`: drop CodeReviewer stopwords (exact, case-sensitive, before lowercasing). */
  removeStopwords: boolean;
}

/**
 * `bleu_fromstr` preprocessing of one text followed by
 * `normalize`, as token ids. The tab replacement is a no-op here (wordpunct tokens hold no
 * whitespace) and so is `strip` (the joined tokens neither start nor end with a space).
 */
function codeReviewerIds(text: string, { removeStopwords }: CodeReviewerBleuOptions, buffer: IdBuffer): Int32Array {
  let tokens = wordpunctTokenize(text);
  if (removeStopwords) tokens = tokens.filter((token) => !CODEREVIEWER_STOPWORDS.has(token));
  return splitPunctsMteval11aIds(tokens.join(" ").toLowerCase(), buffer);
}

/** `bleu([reference], candidate)[0]` after `bleu_fromstr`'s preprocessing, in [0, 1]. */
function codeReviewerSegment(candidate: string, reference: string, options: CodeReviewerBleuOptions): number {
  startVocabulary();
  return smoothBleuOfIds([codeReviewerIds(reference, options, referenceIdBuffer(0))], codeReviewerIds(candidate, options, candidateIds));
}

/**
 * CodeReviewer BLEU of one review against its reference, 0-100, unrounded: the per-segment value
 * `bleu_fromstr([candidate], [reference], rmstop)` averages before its 2-decimal rounding.
 * CRScore's "BLEU" and "BLEU (without stopwords)" are this with `removeStopwords` false / true.
 */
export function codeReviewerBleu(candidate: string, reference: string, options: CodeReviewerBleuOptions): number {
  return codeReviewerSegment(candidate, reference, options) * 100;
}

/** Result of {@link bleuFromStr}. */
export interface BleuFromStrResult {
  /** `round(100 · mean, 2)` with Python's ties-to-even rounding: what `bleu_fromstr` returns. */
  bleu: number;
  /** The same before rounding. */
  unrounded: number;
  /** Per-segment `bleu(...)[0]` values in [0, 1]. */
  segments: number[];
}

/**
 * CodeReviewer `bleu_fromstr(predictions, golds, rmstop)`: a macro-average of sentence scores
 * (not pooled counts), each prediction scored against its single gold.
 */
export function bleuFromStr(
  predictions: readonly string[],
  golds: readonly string[],
  options: CodeReviewerBleuOptions,
): BleuFromStrResult {
  if (predictions.length !== golds.length || predictions.length === 0) {
    throw new RangeError("bleuFromStr needs equally many predictions and golds, at least one");
  }
  const segments = predictions.map((prediction, i) => codeReviewerSegment(prediction, golds[i], options));
  // bleuFromMaps sums in order, then scales: (Σ · 100) / n.
  let sum = 0;
  for (const score of segments) sum += score;
  const unrounded = (sum * 100) / segments.length;
  return { bleu: pyRound(unrounded, 2), unrounded, segments };
}

/**
 * GradedReviews BLEU (replication package `Code/BLEU.py`, `__main__` path; reference README):
 * both texts stripped, lowercased and split by `splitPuncts`, then `bleu([reference], review)`
 * times 100. No stopword removal. 0-100. BLEU.py itself was not available to us; the README describes it as this code, the `gradedreviews_bleu` vectors reproduce
 * the paper's Table 1, and the 1,200-review sample reproduces the README's Spearman and Kendall.
 */
export function gradedReviewsBleu(review: string, reference: string): number {
  const prepare = (text: string, buffer: IdBuffer) => splitPunctsMteval11aIds(pyStrip(text).toLowerCase(), buffer);
  startVocabulary();
  return smoothBleuOfIds([prepare(reference, referenceIdBuffer(0))], prepare(review, candidateIds)) * 100;
}
