/**
 * sacreBLEU v2.6.0 BLEU (`mjpost/sacrebleu`@f615c72 `sacrebleu/metrics/bleu.py`, `compat.py`):
 * `13a` tokenizer, exp smoothing, case-sensitive. Sentence BLEU uses effective
 * order (as `sentence_bleu` does); corpus BLEU sums segment statistics and does not.
 */
import { tokenize13aIds } from "./mteval";
import { bleuCounts, type BleuCounts } from "./ngrams";
import { IdBuffer, referenceIdBuffer, startVocabulary } from "./tokens";

const MAX_ORDER = 4;
/** `utils.my_log(0)`. */
const LOG_ZERO = -9999999999;

/** sacreBLEU's reproducibility signatures for the two defaults ported here. */
export const SACREBLEU_SENTENCE_SIGNATURE = "nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0";
export const SACREBLEU_CORPUS_SIGNATURE = "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0";

/** Sufficient statistics `[sys_len, ref_len, correct_1..4, total_1..4]`, summable over segments. */
export interface BleuStatistics {
  sysLength: number;
  refLength: number;
  correct: number[];
  total: number[];
}

/** `BLEUScore`: the score in [0, 100] with its parts. */
export interface SacreBleuScore extends BleuStatistics {
  score: number;
  precisions: number[];
  bp: number;
}

/** `_get_closest_ref_len`: the reference length closest to the hypothesis length; ties go to the shorter. */
function closestRefLength(hypLength: number, refLengths: readonly number[]): number {
  let best = -1;
  let bestDiff = -1;
  for (const length of refLengths) {
    const diff = Math.abs(hypLength - length);
    if (bestDiff === -1 || diff < bestDiff || (diff === bestDiff && length < best)) {
      bestDiff = diff;
      best = length;
    }
  }
  return best;
}

const hypothesisIds = new IdBuffer();

/** Statistics of one segment against its references, tokenised with 13a. */
export function sacreBleuStatistics(hypothesis: string, references: readonly string[]): BleuStatistics {
  if (references.length === 0) throw new RangeError("sacreBLEU needs at least one reference");
  startVocabulary();
  const refs = references.map((reference, k) => tokenize13aIds(reference, referenceIdBuffer(k)));
  const counts: BleuCounts = bleuCounts(tokenize13aIds(hypothesis, hypothesisIds), refs, MAX_ORDER);
  return {
    sysLength: counts.hypLength,
    refLength: closestRefLength(counts.hypLength, counts.refLengths),
    correct: counts.correct,
    total: counts.total,
  };
}

/**
 * `BLEU.compute_bleu` with `smooth_method='exp'`: brevity penalty, early 0 when
 * nothing matches, stop at the first order with no n-grams, halve the smoothed precision for
 * each further order without matches, geometric mean over `eff` orders with `my_log(0) = −9999999999`.
 */
export function computeBleu(stats: BleuStatistics, effectiveOrder: boolean): SacreBleuScore {
  const { sysLength, refLength, correct, total } = stats;
  let bp = 1;
  if (sysLength < refLength) bp = sysLength > 0 ? Math.exp(1 - refLength / sysLength) : 0;
  const precisions = new Array<number>(MAX_ORDER).fill(0);
  let anyCorrect = false;
  for (let n = 0; n < MAX_ORDER; n++) if (correct[n] !== 0) anyCorrect = true;
  if (!anyCorrect) return { sysLength, refLength, correct, total, score: 0, precisions, bp };

  let smoothMteval = 1;
  let effOrder = MAX_ORDER;
  for (let n = 1; n <= MAX_ORDER; n++) {
    if (total[n - 1] === 0) break;
    if (effectiveOrder) effOrder = n;
    if (correct[n - 1] === 0) {
      smoothMteval *= 2;
      precisions[n - 1] = 100 / (smoothMteval * total[n - 1]);
    } else {
      precisions[n - 1] = (100 * correct[n - 1]) / total[n - 1];
    }
  }
  let logSum = 0;
  for (let n = 0; n < effOrder; n++) logSum += precisions[n] === 0 ? LOG_ZERO : Math.log(precisions[n]);
  return { sysLength, refLength, correct, total, score: bp * Math.exp(logSum / effOrder), precisions, bp };
}

/** `sacrebleu.sentence_bleu(hypothesis, references)` with its defaults (effective order on). */
export function sentenceBleu(hypothesis: string, references: readonly string[]): SacreBleuScore {
  return computeBleu(sacreBleuStatistics(hypothesis, references), true);
}

/**
 * `sacrebleu.corpus_bleu(hypotheses, referenceStreams)`: `referenceStreams[k][i]` is the k-th
 * reference of segment i. Statistics are summed element-wise, then scored once without effective
 * order, so a corpus with no 4-grams scores 0 even for an exact match.
 */
export function corpusBleu(
  hypotheses: readonly string[],
  referenceStreams: readonly (readonly string[])[],
): SacreBleuScore {
  if (referenceStreams.some((stream) => stream.length !== hypotheses.length)) {
    throw new RangeError("every reference stream must have one reference per hypothesis");
  }
  const sum: BleuStatistics = {
    sysLength: 0,
    refLength: 0,
    correct: new Array<number>(MAX_ORDER).fill(0),
    total: new Array<number>(MAX_ORDER).fill(0),
  };
  hypotheses.forEach((hypothesis, i) => {
    const stats = sacreBleuStatistics(
      hypothesis,
      referenceStreams.map((stream) => stream[i]),
    );
    sum.sysLength += stats.sysLength;
    sum.refLength += stats.refLength;
    for (let n = 0; n < MAX_ORDER; n++) {
      sum.correct[n] += stats.correct[n];
      sum.total[n] += stats.total[n];
    }
  });
  return computeBleu(sum, false);
}
