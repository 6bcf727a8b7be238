/**
 * Review rating, CRScore stage 2 (§4.2, Table 7): Likert scores per study dimension for each
 * candidate review, the stage-2 pseudo-references each review addresses (fully or partly), a
 * comment. With the stage order on, also the necessity of each consolidated pseudo-reference,
 * claims and smells (Appendix, phase 2 `necessary?`), stored on the annotator's ClaimJudgement of
 * it as the phase-2 import stores it.
 */
import { missingEntry } from "@/lib/annotation/completeness";
import { emptyReviewRating } from "@/lib/annotation/values";
import { necessityValue, reviewRatingValue, type NecessityValue, type ReviewRatingValue } from "@/lib/annotation/value-schemas";
import { orderedScores } from "@/lib/export/scores";
import { nonEmpty } from "./reviews";
import { LIKERT_RULES } from "@/lib/annotation/codebook";
import { storedEntry, type JudgeQuestion, type TaskDescriptor } from "./types";

const range = (min: number, max: number) => Array.from({ length: max - min + 1 }, (_, i) => min + i);
const capitalised = (word: string) => `${word[0].toUpperCase()}${word.slice(1)}`;
/** A judge's rating so far (current: the value stored before, or null). */
const judgeRating = (current: unknown): ReviewRatingValue => ({ ...emptyReviewRating(), ...(current as Partial<ReviewRatingValue> | null) });

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
      label: `${capitalised(key)} (Likert ${study.likertMin}-${study.likertMax})`,
      level: "ordinal",
      scale: range(study.likertMin, study.likertMax),
      weights: "quadratic",
    })),
  judgeQuestions: (study) => [
    ...study.likertDimensions.map(
      (dimension): JudgeQuestion => ({
        task: "REVIEW_RATING",
        key: dimension,
        text: `How would you rate the review's ${dimension} (${study.likertMin} lowest, ${study.likertMax} highest)? (CRScore Table 7)`,
        kind: "rating",
        options: range(study.likertMin, study.likertMax).map((n) => ({ answer: String(n), label: String(n), description: LIKERT_RULES[dimension]?.scores[n] ?? "" })),
        apply: (current, answer) => {
          const value = judgeRating(current);
          return { ...value, scores: { ...value.scores, [dimension]: Number(answer) } };
        },
      }),
    ),
    {
      task: "REVIEW_RATING",
      key: "links",
      text: "Which of the numbered claims and smells does the review address? Answer with the list of their numbers, [] for none.",
      kind: "rating",
      options: [],
      apply: (current, answer, _reason, links = []) => ({ ...judgeRating(current), links: (answer as number[]).map((n) => ({ pseudoReferenceId: links[n - 1], partial: false })) }),
    },
  ],
  // JSON numbers only, as scoreOf reads them.
  answer: () => ({ jsonNumber: "scores" }),
  // With the stage order, every stage-2 pseudo-reference needs a necessity; every review a score on every dimension.
  stored: (workspace) => [
    ...(workspace.reviewRating?.necessity ? workspace.reviewRating.references : []).map((r) => storedEntry("necessity", r.id, workspace.reviewRating!.necessity![r.id])),
    ...(workspace.reviewRating?.reviews ?? []).map((r) => storedEntry("rating", r.id, workspace.reviewRating!.ratings[r.id])),
  ],
  missing: (workspace, answer, dimensions) => {
    const rating = workspace.reviewRating;
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

  codebook: (study) =>
    study.likertDimensions.map((key) => {
      const rules = LIKERT_RULES[key];
      const entries = Object.entries(rules?.scores ?? {}).map(([score, rule]) => ({ key: score, label: "", description: rule }));
      return { title: `${capitalised(key)}: rules of thumb (CRScore Table 7)`, entries, summary: rules?.summary ?? "See the study guidelines." };
    }),
  shortcuts: [
    { keys: ["l", "→"], description: "Next field of the review (pseudo-references, then scores)" },
    { keys: ["h", "←"], description: "Previous field of the review" },
    { keys: ["x", "Space"], description: "Toggle: the review addresses this pseudo-reference" },
    { keys: ["p"], description: "Toggle: the review partially addresses it" },
    { keys: ["y"], description: "Necessary: the marked pseudo-reference of the necessity list (from anywhere in the item; moves on to the next one)" },
    { keys: ["u"], description: "Not necessary: the marked pseudo-reference (from anywhere in the item; moves on to the next one)" },
    {
      keys: ["1…5"],
      description: "Score of the marked dimension (on a pseudo-reference row a digit does nothing: l moves on to the scores); moves on to the next dimension, after the last one to the next review; on a scale up to 10, 0 types 10",
    },
  ],

  export: {
    of: "review",
    // A rating's links are its ReviewClaimLink rows, which the export reads by the rating's id (`links: []` until then).
    annotations: { field: "ratings", columns: ["t.id", "t.scores", "t.comment"], row: (r) => ({ id: r[0] as string, scores: r[1], comment: r[2] as string, links: [] }) },
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
