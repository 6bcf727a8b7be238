/**
 * Review rating's queries (lib/tasks/review-rating.ts), CRScore stage 2 (§4.2): the stage-2
 * pseudo-references of an annotator and item (consolidated, or their own stage 1), the item's
 * reviews with the annotator's ratings and necessity, the saves of a rating with its links and
 * of a necessity, and an item's ratings for adjudication.
 */
import "server-only";
import type { Prisma } from "@/lib/db/client";
import { stageOrderOn, WAITING_FOR_CONSOLIDATION } from "@/lib/annotation/stage-order";
import { stage2FromConsolidation, stage2FromOwnJudgements, type ReferenceInput, type Stage2Reference } from "@/lib/annotation/stage2";
import type { NecessityValue, ReviewRatingValue, SaveRequest } from "@/lib/annotation/values";
import { anonymise } from "@/lib/tasks/reviews";
import { scoreOf } from "@/lib/tasks/review-rating";
import type { Db, SaveContext, SaveTarget, TaskQueries, Tx } from "@/lib/data/annotation-rows";
import { referenceSelect } from "@/lib/data/claim-judgements";
import { itemReviews, reviewOfItem } from "@/lib/data/reviews";
import { AppError } from "@/lib/errors";

/** The pseudo-references of stage 2 for one annotator and item (consolidated, or their own stage 1). */
export async function stage2ReferencesFor(client: Tx | Db, accountId: string, codeChangeId: string): Promise<{ source: "consolidated" | "own"; references: Stage2Reference[] }> {
  const change = await client.codeChange.findUniqueOrThrow({ where: { id: codeChangeId }, select: { consolidatedAt: true } });
  const references: ReferenceInput[] = await client.pseudoReference.findMany({ where: { codeChangeId }, select: referenceSelect });
  if (change.consolidatedAt) {
    const decisions = await client.consolidationDecision.findMany({ where: { codeChangeId }, select: { pseudoReferenceId: true, action: true, replacementText: true } });
    return { source: "consolidated", references: stage2FromConsolidation(references, new Map(decisions.map((d) => [d.pseudoReferenceId, d]))) };
  }
  const judgements = await client.claimJudgement.findMany({ where: { annotatorId: accountId, pseudoReference: { codeChangeId } }, select: { pseudoReferenceId: true, code: true, necessary: true } });
  return { source: "own", references: stage2FromOwnJudgements(references, new Map(judgements.map((j) => [j.pseudoReferenceId, j])), accountId) };
}

const ratingValue = (r: { scores: Prisma.JsonValue; comment: string; links: { pseudoReferenceId: string; partial: boolean }[] }): ReviewRatingValue => ({
  scores: (r.scores && typeof r.scores === "object" && !Array.isArray(r.scores) ? r.scores : {}) as Record<string, number>,
  links: r.links.map((l) => ({ pseudoReferenceId: l.pseudoReferenceId, partial: l.partial })).sort((a, b) => (a.pseudoReferenceId < b.pseudoReferenceId ? -1 : 1)),
  comment: r.comment,
});

/** Refuses a stage-2 save while the stage order keeps the item's stage 2 closed (423). */
async function requireStage2Open(tx: Tx, studyId: string, codeChangeId: string): Promise<{ likertDimensions: string[]; likertMin: number; likertMax: number; stageOrder: boolean }> {
  const study = await tx.study.findUniqueOrThrow({ where: { id: studyId }, select: { likertDimensions: true, likertMin: true, likertMax: true, stageOrder: true, tasks: true } });
  const on = stageOrderOn(study);
  if (on && !(await tx.codeChange.findUniqueOrThrow({ where: { id: codeChangeId }, select: { consolidatedAt: true } })).consolidatedAt) {
    throw new AppError("LOCKED", { message: WAITING_FOR_CONSOLIDATION });
  }
  return { ...study, stageOrder: on };
}

/** The annotator's necessity of each pseudo-reference of the item, by pseudo-reference id. */
async function necessityOf(client: Tx | Db, accountId: string, pseudoReferenceIds: string[]) {
  const rows = await client.claimJudgement.findMany({ where: { annotatorId: accountId, pseudoReferenceId: { in: pseudoReferenceIds } }, select: { id: true, version: true, pseudoReferenceId: true, necessary: true } });
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

export const reviewRatingQueries: TaskQueries = {
  async readWorkspace({ client, accountId, codeChangeId, study, reviewSeed }) {
    const [stage2, all, ratings] = await Promise.all([
      stage2ReferencesFor(client, accountId, codeChangeId),
      itemReviews(client, codeChangeId),
      client.reviewRating.findMany({ where: { annotatorId: accountId, review: { codeChangeId } }, include: { links: true } }),
    ]);
    const necessity = study.stageOrder ? await necessityOf(client, accountId, stage2.references.map((r) => r.id)) : null;
    return {
      reviewRating: {
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
