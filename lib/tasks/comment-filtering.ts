/** Comment filtering, c-CRAB: whether each review comment is high quality (actionable and verifiable), with a justification. */
import { commentFilterValue, type CommentFilterValue } from "@/lib/annotation/values";
import { HIGH_QUALITY } from "@/lib/analysis/questions";
import { textAnswerCode } from "./answer-code";
import { anonymise, flag, itemReviews, nonEmpty, reviewOfItem } from "./reviews";
import type { TaskDescriptor } from "./types";
import { Prisma } from "@/lib/db/client";

export const commentFiltering: TaskDescriptor = {
  task: "COMMENT_FILTERING",
  name: "comment filtering",
  values: { filter: { schema: commentFilterValue, history: "COMMENT_FILTER" } },
  timeKey: "filter",
  itemKind: "review",
  questions: () => [{ task: "COMMENT_FILTERING", key: "high-quality", label: "Actionable and verifiable comment", level: "nominal", scale: [HIGH_QUALITY.no, HIGH_QUALITY.yes], weights: "unweighted" }],

  async readWorkspace({ client, userId, codeChangeId, study, reviewSeed }) {
    const [all, labels] = await Promise.all([itemReviews(client, codeChangeId), client.commentFilterLabel.findMany({ where: { annotatorId: userId, candidateReview: { codeChangeId } } })]);
    return {
      filtering: {
        reviews: anonymise(all, reviewSeed, study.hideSystemNames),
        labels: Object.fromEntries(labels.map((l) => [l.candidateReviewId, { id: l.id, version: l.version, value: { highQuality: l.highQuality, justification: l.justification } }])),
      },
    };
  },

  async saveTarget({ tx, annotatorId, codeChangeId }, request) {
    const review = await reviewOfItem(tx, request.targetId, codeChangeId);
    const row = await tx.commentFilterLabel.findUnique({ where: { annotatorId_candidateReviewId: { annotatorId, candidateReviewId: review.id } } });
    return {
      current: row && { id: row.id, version: row.version, value: { highQuality: row.highQuality, justification: row.justification } },
      create: async (value) => (await tx.commentFilterLabel.create({ data: { annotatorId, candidateReviewId: review.id, ...(value as CommentFilterValue) } })).id,
      update: async (id, base, value) => (await tx.commentFilterLabel.updateMany({ where: { id, annotatorId, version: base }, data: { ...(value as CommentFilterValue), version: { increment: 1 } } })).count === 1,
    };
  },

  async addTime(tx, userId, id, codeChangeId, ms) {
    await tx.commentFilterLabel.updateMany({ where: { annotatorId: userId, candidateReviewId: id, candidateReview: { codeChangeId } }, data: { timeSpentMs: { increment: ms } } });
  },

  answers: {
    table: Prisma.sql`"CommentFilterLabel"`,
    itemColumn: Prisma.sql`"candidateReviewId"`,
    code: (q) => textAnswerCode(Prisma.sql`CASE WHEN a."highQuality" THEN ${HIGH_QUALITY.yes} ELSE ${HIGH_QUALITY.no} END`, q),
  },

  export: {
    of: "review",
    values: (review) => review.commentFilters.map((f) => ({ annotation: f, values: [["highQuality", flag(f.highQuality)], ["justification", nonEmpty(f.justification)]] })),
    ratings: (review) => review.commentFilters.map((f) => ({ annotatorId: f.annotator.id, value: f.highQuality ? HIGH_QUALITY.yes : HIGH_QUALITY.no })),
  },

  consensusColumn: (_question, value) => ["highQuality", flag(value === HIGH_QUALITY.yes)],

  async itemAnnotations(client, itemId) {
    const rows = await client.commentFilterLabel.findMany({ where: { candidateReviewId: itemId }, orderBy: { createdAt: "asc" }, include: { annotator: { select: { id: true, name: true } } } });
    return rows.map((f) => ({ annotatorId: f.annotatorId, annotator: f.annotator.name, values: { "high-quality": f.highQuality ? HIGH_QUALITY.yes : HIGH_QUALITY.no }, note: f.justification, details: [] }));
  },
};
