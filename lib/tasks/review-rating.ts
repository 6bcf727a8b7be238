/**
 * Review rating, CRScore stage 2 (§4.2, Table 7): Likert scores per study dimension for each
 * candidate review, the stage-2 pseudo-references each review addresses (fully or partly), a
 * comment. With the stage order on, also the necessity of each consolidated pseudo-reference,
 * claims and smells (Appendix, phase 2 `necessary?`), stored on the annotator's ClaimJudgement of
 * it as the phase-2 import stores it.
 */
import { missingEntry } from "@/lib/annotation/completeness";
import { necessityValue, reviewRatingValue, type NecessityValue, type ReviewRatingValue } from "@/lib/annotation/values";
import { orderedScores } from "@/lib/export/scores";
import { nonEmpty } from "./reviews";
import type { TaskDescriptor } from "./types";

const range = (min: number, max: number) => Array.from({ length: max - min + 1 }, (_, i) => min + i);

/** A stored Likert score, or null when the dimension is not rated. */
export function scoreOf(scores: unknown, key: string): number | null {
  const v = scores !== null && typeof scores === "object" ? (scores as Record<string, unknown>)[key] : undefined;
  return typeof v === "number" ? v : null;
}

export const reviewRating: TaskDescriptor = {
  task: "REVIEW_RATING",
  name: "review rating",
  label: "Review rating",
  annotationName: "review rating",
  values: { rating: { schema: reviewRatingValue, history: "REVIEW_RATING" }, necessity: { schema: necessityValue, history: "CLAIM_JUDGEMENT" } },
  timeKey: "rating",
  itemKind: "review",
  storage: { model: "reviewRating", table: "ReviewRating", item: { column: "candidateReviewId", field: "reviewId", relation: "review" } },
  appliesTo: (item) => item.reviews > 0,
  questions: (study) =>
    study.likertDimensions.map((key) => ({
      task: "REVIEW_RATING",
      key,
      label: `${key[0].toUpperCase()}${key.slice(1)} (Likert ${study.likertMin}-${study.likertMax})`,
      level: "ordinal",
      scale: range(study.likertMin, study.likertMax),
      weights: "quadratic",
    })),
  // JSON numbers only, as scoreOf reads them.
  answer: () => ({ jsonNumber: "scores" }),
  // With the stage order, every stage-2 pseudo-reference needs a necessity; every review a score on every dimension.
  missing: (workspace, answer, dimensions) => {
    const rating = workspace.rating;
    if (!rating) return [];
    const necessity = rating.necessity
      ? rating.references.flatMap((ref, i) => missingEntry("necessity", ref.id, `Pseudo-reference ${i + 1}`, (answer("necessity", ref.id) as Partial<NecessityValue> | null)?.necessary == null ? ["necessity"] : []))
      : [];
    const scores = rating.reviews.flatMap((review) => {
      const given = (answer("rating", review.id) as Partial<ReviewRatingValue> | null)?.scores ?? {};
      return missingEntry("rating", review.id, review.label, dimensions.filter((d) => typeof given[d] !== "number"));
    });
    return [...necessity, ...scores];
  },

  export: {
    of: "review",
    values: (review, dimensions) =>
      review.ratings.map((r) => {
        const links = (partial: boolean) => r.links.filter((l) => l.partial === partial).map((l) => l.pseudoReference.externalId).sort().join(";");
        const scores = orderedScores(r.scores, dimensions).map(([dimension, score]): [string, string] => [dimension, String(score)]);
        return { annotation: r, values: [...scores, ["addresses", links(false)], ["partiallyAddresses", links(true)], ["comment", nonEmpty(r.comment)]] };
      }),
    ratings: (review, question) => review.ratings.map((r) => ({ annotatorId: r.annotator.id, value: scoreOf(r.scores, question.key) })),
  },

  consensusColumn: (question, value) => [question, String(value)],
};
