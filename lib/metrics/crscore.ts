/**
 * CRScore (Naik et al., CRScore paper section 3.3, eqs. 1-3; reference code
 * `atharva-naik/CRScore` src/metrics/claim_based/relevance_score.py): a reference-free review score
 * from the semantic similarity s(p, r) between pseudo-references P (claims, implications, code
 * smells) and review sentences R.
 *   Con  = |{r ∈ R : max_p s(p, r) > τ}| / |R|     (precision-like)
 *   Comp = |{p ∈ P : max_r s(p, r) > τ}| / |P|     (recall-like)
 *   Rel  = 2·Con·Comp / (Con + Comp)
 * Both comparisons are strict, as in `compute_scores_from_sts_sim_matrix`. The caller supplies the
 * embeddings (the paper: mxbai-embed-large-v1, stopword tokens dropped before mean pooling) or a
 * precomputed similarity matrix.
 */
import { cosineSimilarity } from "./embedding";
import { harmonicMean } from "./fscore";

/** τ_best = 0.7314 (section 3.3): the mean best-match similarity of GPT-3.5 review sentences, with mxbai-embed-large-v1. */
export const CRSCORE_DEFAULT_TAU = 0.7314;

/**
 * Whether `model` names the paper's embedding model, mixedbread-ai's mxbai-embed-large-v1, as
 * servers spell it: "mixedbread-ai/mxbai-embed-large-v1", "mxbai-embed-large-v1", Ollama's
 * "mxbai-embed-large" or "mxbai-embed-large:335m" (case and an organisation prefix ignored).
 * Only then does the paper's τ = 0.7314 apply.
 */
export function isCrscorePaperModel(model: string): boolean {
  const name = (model.trim().toLowerCase().split("/").pop() ?? "").replace(/:[a-z0-9._-]*$/, "");
  return name === "mxbai-embed-large" || name === "mxbai-embed-large-v1";
}

/**
 * Review sentences as the paper's `split_claims` cuts them: split on "\n", then on ". " and "? ".
 * Unlike that code, pieces are trimmed and empty ones dropped (it keeps "" after a final ". "
 * and embeds it as a sentence).
 */
export function splitReviewSentences(text: string): string[] {
  return text
    .split("\n")
    .flatMap((line) => line.split(/\. |\? /))
    .map((piece) => piece.trim())
    .filter((piece) => piece.length > 0);
}

/** s(r, p) for every review sentence (rows) and pseudo-reference (columns); null where undefined (zero vector). */
export interface SimilarityMatrix {
  similarities: readonly (readonly (number | null)[])[];
  /** Needed because a review without sentences has no rows to show the column count. */
  pseudoReferenceCount: number;
}

/** Embeddings of the review sentences and of the pseudo-references. */
export interface CrscoreVectors {
  reviewSentenceVectors: readonly (readonly number[])[];
  pseudoReferenceVectors: readonly (readonly number[])[];
}

export type CrscoreInput = CrscoreVectors | SimilarityMatrix;

/** The matrix of `similarity(row, column)`, e.g. cosine of embeddings or any STS model's score. */
export function pairwiseSimilarities<T>(
  reviewSentences: readonly T[],
  pseudoReferences: readonly T[],
  similarity: (reviewSentence: T, pseudoReference: T) => number | null,
): SimilarityMatrix {
  return {
    similarities: reviewSentences.map((r) => pseudoReferences.map((p) => similarity(r, p))),
    pseudoReferenceCount: pseudoReferences.length,
  };
}

function toMatrix(input: CrscoreInput): SimilarityMatrix {
  if ("similarities" in input) {
    if (input.similarities.some((row) => row.length !== input.pseudoReferenceCount)) {
      throw new RangeError("every similarity row needs one entry per pseudo-reference");
    }
    return input;
  }
  return pairwiseSimilarities(input.reviewSentenceVectors, input.pseudoReferenceVectors, cosineSimilarity);
}

/** Best similarity of each review sentence (row max) and each pseudo-reference (column max); null if none defined. */
export interface BestMatches {
  reviewSentenceBest: (number | null)[];
  pseudoReferenceBest: (number | null)[];
}

const maxDefined = (current: number | null, value: number | null): number | null =>
  value === null ? current : current === null ? value : Math.max(current, value);

/** Row and column maxima: all that Con, Comp and the threshold calibration need, computed once per review. */
export function bestMatches(input: CrscoreInput): BestMatches {
  const { similarities, pseudoReferenceCount } = toMatrix(input);
  return bestMatchesOf(similarities.length, pseudoReferenceCount, (i, j) => similarities[i][j]);
}

/**
 * bestMatches of the similarities of every (review sentence, pseudo-reference) pair without the
 * matrix: `similarity(i, j)` of sentence i and pseudo-reference j is asked once each.
 */
export function bestMatchesOf(reviewSentences: number, pseudoReferences: number, similarity: (i: number, j: number) => number | null): BestMatches {
  const pseudoReferenceBest = new Array<number | null>(pseudoReferences).fill(null);
  const reviewSentenceBest: (number | null)[] = [];
  for (let i = 0; i < reviewSentences; i++) {
    let best: number | null = null;
    for (let j = 0; j < pseudoReferences; j++) {
      const s = similarity(i, j);
      best = maxDefined(best, s);
      pseudoReferenceBest[j] = maxDefined(pseudoReferenceBest[j], s);
    }
    reviewSentenceBest.push(best);
  }
  return { reviewSentenceBest, pseudoReferenceBest };
}

/**
 * Con, Comp, Rel in [0, 1], or the reason they are not defined:
 * - no pseudo-references: all three null, reason "no-pseudo-references" (Comp is 0/0 and there is
 *   nothing to ground the review in; the paper's code inserts a blank claim instead);
 * - a review without sentences (with pseudo-references): all three 0, reason "empty-review".
 */
export type CrscoreResult =
  | { conciseness: number; comprehensiveness: number; relevance: number; reason: null | "empty-review" }
  | { conciseness: null; comprehensiveness: null; relevance: null; reason: "no-pseudo-references" };

function assertTau(tau: number): void {
  if (!Number.isFinite(tau)) throw new RangeError(`tau must be a finite number, got ${tau}`);
}

/** Number of entries strictly above τ (a null best match never counts). */
function countAbove(best: readonly (number | null)[], tau: number): number {
  let above = 0;
  for (const value of best) if (value !== null && value > tau) above++;
  return above;
}

/** Con, Comp, Rel from how many of the review's sentences and pseudo-references have a best match above τ. */
export function crscoreFromCounts(sentences: number, sentencesAbove: number, pseudoReferences: number, pseudoReferencesAbove: number): CrscoreResult {
  if (pseudoReferences === 0) return { conciseness: null, comprehensiveness: null, relevance: null, reason: "no-pseudo-references" };
  if (sentences === 0) return { conciseness: 0, comprehensiveness: 0, relevance: 0, reason: "empty-review" };
  const conciseness = sentencesAbove / sentences;
  const comprehensiveness = pseudoReferencesAbove / pseudoReferences;
  return { conciseness, comprehensiveness, relevance: harmonicMean(conciseness, comprehensiveness), reason: null };
}

/** CRScore eqs. 1-3 from precomputed best matches at threshold τ. */
export function crscoreFromBestMatches(best: BestMatches, tau: number): CrscoreResult {
  assertTau(tau);
  const { reviewSentenceBest: r, pseudoReferenceBest: p } = best;
  return crscoreFromCounts(r.length, countAbove(r, tau), p.length, countAbove(p, tau));
}

/**
 * A review's best matches with the defined ones sorted ascending, for CRScore at many
 * thresholds (CRScore Table 18's sweep): each τ then costs a binary search per list.
 */
export interface SortedBestMatches {
  reviewSentences: number;
  reviewSentenceBest: Float64Array;
  pseudoReferences: number;
  pseudoReferenceBest: Float64Array;
}

/**
 * The SortedBestMatches of many reviews, their sorted lists views of one buffer: two small arrays
 * per review (50,000 for a study of 25,000 reviews) took twice as long to make, and more to collect.
 */
export function sortAllBestMatches(bests: readonly BestMatches[]): SortedBestMatches[] {
  let defined = 0;
  for (const best of bests) for (const list of [best.reviewSentenceBest, best.pseudoReferenceBest]) for (const v of list) if (v !== null) defined++;
  const buffer = new Float64Array(defined);
  let end = 0;
  const definedSorted = (list: readonly (number | null)[]) => {
    const start = end;
    for (const v of list) if (v !== null) buffer[end++] = v;
    return buffer.subarray(start, end).sort();
  };
  return bests.map((best) => ({
    reviewSentences: best.reviewSentenceBest.length,
    reviewSentenceBest: definedSorted(best.reviewSentenceBest),
    pseudoReferences: best.pseudoReferenceBest.length,
    pseudoReferenceBest: definedSorted(best.pseudoReferenceBest),
  }));
}

/** Number of entries of an ascending array strictly above τ. */
export function countAboveSorted(sorted: Float64Array, tau: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] > tau) hi = mid;
    else lo = mid + 1;
  }
  return sorted.length - lo;
}

/** CRScore of one review: `crscore({ reviewSentenceVectors, pseudoReferenceVectors, tau })` or with a similarity matrix. */
export function crscore(input: CrscoreInput & { tau?: number }): CrscoreResult {
  return crscoreFromBestMatches(bestMatches(input), input.tau ?? CRSCORE_DEFAULT_TAU);
}

/**
 * Con/Comp/Rel of every review at every τ (CRScore Table 18 sweeps τ from 0.6 to 0.8). The
 * similarity maxima are computed once per review. All three are non-increasing in τ.
 */
export function thresholdSweep(
  taus: readonly number[],
  reviews: readonly CrscoreInput[],
): { tau: number; scores: CrscoreResult[] }[] {
  const best = reviews.map(bestMatches);
  return taus.map((tau) => ({ tau, scores: best.map((b) => crscoreFromBestMatches(b, tau)) }));
}

export type CalibrationResult = { tau: number; sentenceCount: number } | { tau: null; sentenceCount: 0; reason: string };

/**
 * τ as CRScore 3.3 selects it, from each review's best matches: the mean, over all review
 * sentences of all reviews (pooled, not a mean of per-review means;
 * scripts/compute_sts_thresh_v3.py), of each sentence's best similarity to a pseudo-reference of
 * its change. Sentences with no defined similarity (no pseudo-references, zero vectors) are left out.
 */
export function meanSentenceBest(reviews: readonly Pick<BestMatches, "reviewSentenceBest">[]): CalibrationResult {
  let sum = 0;
  let sentenceCount = 0;
  for (const review of reviews) {
    for (const value of review.reviewSentenceBest) {
      if (value === null) continue;
      sum += value;
      sentenceCount++;
    }
  }
  if (sentenceCount === 0) return { tau: null, sentenceCount: 0, reason: "no review sentence has a pseudo-reference" };
  return { tau: sum / sentenceCount, sentenceCount };
}

/** τ by CRScore 3.3's procedure (meanSentenceBest) from the reviews' similarities. */
export function calibrateThreshold(reviews: readonly CrscoreInput[]): CalibrationResult {
  return meanSentenceBest(reviews.map(bestMatches));
}
