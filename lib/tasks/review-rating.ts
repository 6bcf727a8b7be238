/**
 * Review rating, CRScore stage 2 (§4.2, Table 7): Likert scores per study dimension for each
 * candidate review, the stage-2 pseudo-references each review addresses (fully or partly), a
 * comment. With the stage order on, also the necessity of each consolidated pseudo-reference,
 * claims and smells (Appendix, phase 2 `necessary?`), stored on the annotator's ClaimJudgement of
 * it as the phase-2 import stores it.
 */
import type { Prisma } from "@/lib/db/client";
import { missingEntry } from "@/lib/annotation/completeness";
import { stageOrderOn, WAITING_FOR_CONSOLIDATION } from "@/lib/annotation/stage-order";
import { stage2FromConsolidation, stage2FromOwnJudgements, type ReferenceInput, type Stage2Reference } from "@/lib/annotation/stage2";
import { necessityValue, reviewRatingValue, type NecessityValue, type ReviewRatingValue, type SaveRequest } from "@/lib/annotation/values";
import { orderedScores } from "@/lib/export/scores";
import { referenceSelect } from "./claim-verification";
import { anonymise, itemReviews, nonEmpty, reviewOfItem } from "./reviews";
import type { Db, SaveContext, SaveTarget, TaskDescriptor, Tx } from "./types";
import { AppError } from "@/lib/errors";

const range = (min: number, max: number) => Array.from({ length: max - min + 1 }, (_, i) => min + i);

/** The pseudo-references of stage 2 for one annotator and item (consolidated, or their own stage 1). */
export async function stage2ReferencesFor(client: Tx | Db, userId: string, codeChangeId: string): Promise<{ source: "consolidated" | "own"; references: Stage2Reference[] }> {
  const change = await client.codeChange.findUniqueOrThrow({ where: { id: codeChangeId }, select: { consolidatedAt: true } });
  const references: ReferenceInput[] = await client.pseudoReference.findMany({ where: { codeChangeId }, select: referenceSelect });
  if (change.consolidatedAt) {
    const decisions = await client.consolidationDecision.findMany({ where: { codeChangeId }, select: { pseudoReferenceId: true, action: true, replacementText: true } });
    return { source: "consolidated", references: stage2FromConsolidation(references, new Map(decisions.map((d) => [d.pseudoReferenceId, d]))) };
  }
  const judgements = await client.claimJudgement.findMany({ where: { annotatorId: userId, pseudoReference: { codeChangeId } }, select: { pseudoReferenceId: true, code: true, necessary: true } });
  return { source: "own", references: stage2FromOwnJudgements(references, new Map(judgements.map((j) => [j.pseudoReferenceId, j])), userId) };
}

export const ratingValue = (r: { scores: Prisma.JsonValue; comment: string; links: { pseudoReferenceId: string; partial: boolean }[] }): ReviewRatingValue => ({
  scores: (r.scores && typeof r.scores === "object" && !Array.isArray(r.scores) ? r.scores : {}) as Record<string, number>,
  links: r.links.map((l) => ({ pseudoReferenceId: l.pseudoReferenceId, partial: l.partial })).sort((a, b) => (a.pseudoReferenceId < b.pseudoReferenceId ? -1 : 1)),
  comment: r.comment,
});

/** Refuses a stage-2 save while the stage order keeps the item's stage 2 closed (423). */
async function requireStage2Open(tx: Tx, studyId: string, codeChangeId: string): Promise<{ likertDimensions: string[]; likertMin: number; likertMax: number; stageOrder: boolean }> {
  const study = await tx.study.findUniqueOrThrow({ where: { id: studyId }, select: { likertDimensions: true, likertMin: true, likertMax: true, stageOrder: true, taskTypes: true } });
  const on = stageOrderOn(study);
  if (on && !(await tx.codeChange.findUniqueOrThrow({ where: { id: codeChangeId }, select: { consolidatedAt: true } })).consolidatedAt) {
    throw new AppError("LOCKED", { message: WAITING_FOR_CONSOLIDATION });
  }
  return { ...study, stageOrder: on };
}

/** The annotator's necessity of each pseudo-reference of the item, by pseudo-reference id. */
async function necessityOf(client: Tx | Db, userId: string, pseudoReferenceIds: string[]) {
  const rows = await client.claimJudgement.findMany({ where: { annotatorId: userId, pseudoReferenceId: { in: pseudoReferenceIds } }, select: { id: true, version: true, pseudoReferenceId: true, necessary: true } });
  return new Map(rows.map((r) => [r.pseudoReferenceId, { id: r.id, version: r.version, value: { necessary: r.necessary } }]));
}

/** Where a stage-2 necessity save writes: the annotator's ClaimJudgement of a pseudo-reference of the consolidated set. */
async function necessityTarget({ tx, annotatorId, codeChangeId, studyId }: SaveContext, targetId: string): Promise<SaveTarget<unknown>> {
  const study = await requireStage2Open(tx, studyId, codeChangeId);
  if (!study.stageOrder) throw new AppError("INVALID_INPUT", { message: "This study asks necessity in stage 1 (claim verification), not in stage 2." });
  const inSet = (await stage2ReferencesFor(tx, annotatorId, codeChangeId)).references.some((r) => r.id === targetId);
  if (!inSet) throw new AppError("NOT_FOUND", { message: "No such pseudo-reference in this item's stage-2 set." });
  const current = (await necessityOf(tx, annotatorId, [targetId])).get(targetId) ?? null;
  return {
    current,
    create: async (v) => (await tx.claimJudgement.create({ data: { annotatorId, pseudoReferenceId: targetId, necessary: (v as NecessityValue).necessary } })).id,
    update: async (id, base, v) => (await tx.claimJudgement.updateMany({ where: { id, annotatorId, version: base }, data: { necessary: (v as NecessityValue).necessary, version: { increment: 1 } } })).count === 1,
  };
}

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

  async readWorkspace({ client, userId, codeChangeId, study, reviewSeed }) {
    const [stage2, all, ratings] = await Promise.all([
      stage2ReferencesFor(client, userId, codeChangeId),
      itemReviews(client, codeChangeId),
      client.reviewRating.findMany({ where: { annotatorId: userId, review: { codeChangeId } }, include: { links: true } }),
    ]);
    const necessity = study.stageOrder ? await necessityOf(client, userId, stage2.references.map((r) => r.id)) : null;
    return {
      rating: {
        stage2Source: stage2.source,
        // "hide system names" also hides the model that generated a claim (not a smell's analyzer)
        references: study.hideSystemNames ? stage2.references.map((r) => (r.origin === "smell" ? r : { ...r, source: "" })) : stage2.references,
        reviews: anonymise(all, reviewSeed, study.hideSystemNames),
        ratings: Object.fromEntries(ratings.map((r) => [r.reviewId, { id: r.id, version: r.version, value: ratingValue(r) }])),
        ...(necessity && { necessity: Object.fromEntries(necessity) }),
      },
    };
  },

  async saveTarget(ctx, request: SaveRequest) {
    if (request.kind === "necessity") return necessityTarget(ctx, request.targetId);
    if (request.kind !== "rating") throw new AppError("INVALID_INPUT", { message: `review rating saves ratings and necessity, not ${request.kind}` });
    const { tx, annotatorId, codeChangeId, studyId } = ctx;
    const review = await reviewOfItem(tx, request.targetId, codeChangeId);
    const study = await requireStage2Open(tx, studyId, codeChangeId);
    for (const [dimension, score] of Object.entries(request.value.scores)) {
      if (!study.likertDimensions.includes(dimension)) throw new AppError("INVALID_INPUT", { message: `"${dimension}" is not a dimension of this study.` });
      if (score < study.likertMin || score > study.likertMax) throw new AppError("INVALID_INPUT", { message: `${dimension} must be between ${study.likertMin} and ${study.likertMax}.` });
    }
    const allowed = new Set((await stage2ReferencesFor(tx, annotatorId, codeChangeId)).references.map((r) => r.id));
    const stale = request.value.links.filter((l) => !allowed.has(l.pseudoReferenceId));
    if (stale.length > 0) throw new AppError("INVALID_INPUT", { message: `Pseudo-reference ${stale[0].pseudoReferenceId} is not in this item's stage-2 set.` });
    const row = await tx.reviewRating.findUnique({ where: { annotatorId_reviewId: { annotatorId, reviewId: review.id } }, include: { links: true } });
    const writeLinks = async (ratingId: string, value: ReviewRatingValue) => {
      await tx.reviewClaimLink.deleteMany({ where: { ratingId } });
      if (value.links.length > 0) await tx.reviewClaimLink.createMany({ data: value.links.map((l) => ({ ratingId, pseudoReferenceId: l.pseudoReferenceId, partial: l.partial })) });
    };
    return {
      current: row && { id: row.id, version: row.version, value: ratingValue(row) },
      create: async (v) => {
        const value = v as ReviewRatingValue;
        const created = await tx.reviewRating.create({ data: { annotatorId, reviewId: review.id, scores: value.scores, comment: value.comment } });
        await writeLinks(created.id, value);
        return created.id;
      },
      update: async (id, base, v) => {
        const value = v as ReviewRatingValue;
        const { count } = await tx.reviewRating.updateMany({ where: { id, annotatorId, version: base }, data: { scores: value.scores, comment: value.comment, version: { increment: 1 } } });
        if (count !== 1) return false;
        await writeLinks(id, value);
        return true;
      },
    };
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

  async itemAnnotations(client, itemId, questions) {
    const rows = await client.reviewRating.findMany({
      where: { reviewId: itemId },
      orderBy: { createdAt: "asc" },
      include: { annotator: { select: { id: true, name: true } }, links: { include: { pseudoReference: { select: { text: true } } } } },
    });
    return rows.map((r) => ({
      annotatorId: r.annotatorId,
      annotator: r.annotator.name,
      values: Object.fromEntries(questions.map((q) => [q.key, scoreOf(r.scores, q.key)])),
      note: r.comment,
      details: r.links.map((l) => `${l.partial ? "partly addresses" : "addresses"}: ${l.pseudoReference.text}`),
    }));
  },
};
