/** Scores of one review for one metric spec, as MetricScore rows (pure: the embeddings are given). */
import type { Prisma } from "@/lib/generated/prisma/client";
import type { MetricScoreInput } from "@/lib/data/metric-scores";
import type { EmbeddedTexts } from "@/lib/embeddings";
import { bestMatchesOf, crscoreFromBestMatches, getReferenceMetric, splitReviewSentences } from "@/lib/metrics";
import { CRSCORE_COLUMNS, type MetricJobSpec } from "./specs";
import type { ReviewToScore } from "@/lib/data/reviews-to-score";
import { InvariantError } from "@/lib/errors";

const undefinedScore = (review: ReviewToScore, metric: string, signature: string, reason: string): MetricScoreInput => ({
  reviewId: review.id,
  metric,
  signature,
  value: null,
  detail: { reason },
});

/**
 * A review's sentences, split once: a chunk asks for them when it embeds and again when it
 * scores, and the same strings then find their vectors by identity rather than by comparing text.
 */
const sentencesOf = new WeakMap<ReviewToScore, string[]>();
function reviewSentences(review: ReviewToScore): string[] {
  let sentences = sentencesOf.get(review);
  if (!sentences) sentencesOf.set(review, (sentences = splitReviewSentences(review.text)));
  return sentences;
}

/** The texts `spec` needs embedded for `review` (none for reference metrics). */
export function textsToEmbed(spec: MetricJobSpec, review: ReviewToScore): string[] {
  if (spec.kind === "embedding-sim") return review.reference !== null && review.text.trim() !== "" && review.reference.trim() !== "" ? [review.text, review.reference] : [];
  if (spec.kind === "crscore") return review.pseudoReferences.length > 0 ? [...reviewSentences(review), ...review.pseudoReferences] : [];
  return [];
}

/**
 * MetricScore rows of `review` under `spec`. Undefined scores are stored as null with the
 * reason in `detail` ("no-reference-review", "empty-text", "zero-vector", "no-pseudo-references"),
 * so a review is never scored twice and never scored 0 by accident. CRScore rows keep the best
 * matches and τ in `detail`, from which the correlation report sweeps τ (CRScore Table 18).
 */
export function scoreReview(spec: MetricJobSpec, review: ReviewToScore, embedded: EmbeddedTexts | null): MetricScoreInput[] {
  const { signature } = spec;
  if (spec.kind === "reference") {
    if (review.reference === null) return [undefinedScore(review, spec.name, signature, "no-reference-review")];
    const metric = getReferenceMetric(spec.name);
    if (!metric) throw new InvariantError(`unknown reference metric ${spec.name}`);
    return [{ reviewId: review.id, metric: spec.name, signature, value: metric.score(review.text, review.reference) }];
  }
  if (spec.kind === "embedding-sim") {
    if (review.reference === null) return [undefinedScore(review, spec.name, signature, "no-reference-review")];
    if (textsToEmbed(spec, review).length === 0) return [undefinedScore(review, spec.name, signature, "empty-text")];
    const value = (embedded as EmbeddedTexts).similarity(review.text, review.reference);
    return [value === null ? undefinedScore(review, spec.name, signature, "zero-vector") : { reviewId: review.id, metric: spec.name, signature, value }];
  }
  if (spec.kind === "judge") throw new InvariantError(`${spec.name} is an LLM judge, scored asynchronously (judgeScores)`);
  const sentences = reviewSentences(review);
  // Called only when there are sentences and pseudo-references, i.e. when they were embedded.
  const references = review.pseudoReferences;
  const best = bestMatchesOf(sentences.length, references.length, (i, j) => (embedded as EmbeddedTexts).similarity(sentences[i], references[j]));
  const result = crscoreFromBestMatches(best, spec.tau);
  const detail: Prisma.InputJsonValue = { reason: result.reason, tau: spec.tau, reviewSentenceBest: best.reviewSentenceBest, pseudoReferenceBest: best.pseudoReferenceBest };
  const values = [result.conciseness, result.comprehensiveness, result.relevance];
  return CRSCORE_COLUMNS.map((metric, i) => ({ reviewId: review.id, metric, signature, value: values[i], detail }));
}
