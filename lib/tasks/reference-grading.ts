/** Reference grading, GradedReviews §4.3: a 1-5 grade of each generated review against the human reference review, with a comment. */
import { referenceGradeValue, type ReferenceGradeValue } from "@/lib/annotation/values";
import { textAnswerCode } from "./answer-code";
import { anonymise, itemReviews, nonEmpty, reviewOfItem } from "./reviews";
import type { TaskDescriptor } from "./types";
import { Prisma } from "@/lib/db/client";

export const referenceGrading: TaskDescriptor = {
  task: "REFERENCE_GRADING",
  name: "reference grading",
  values: { grade: { schema: referenceGradeValue, history: "REFERENCE_GRADE" } },
  timeKey: "grade",
  itemKind: "review",
  questions: () => [{ task: "REFERENCE_GRADING", key: "grade", label: "Grade against the reference (1-5)", level: "ordinal", scale: [1, 2, 3, 4, 5], weights: "quadratic" }],

  async readWorkspace({ client, userId, codeChangeId, study, reviewSeed }) {
    const [all, grades] = await Promise.all([itemReviews(client, codeChangeId), client.referenceGrade.findMany({ where: { annotatorId: userId, candidateReview: { codeChangeId } } })]);
    const reference = all.find((r) => r.isReference) ?? null;
    return {
      grading: {
        reference: reference && { id: reference.id, text: reference.text },
        reviews: anonymise(
          all.filter((r) => !r.isReference),
          reviewSeed,
          study.hideSystemNames,
        ),
        grades: Object.fromEntries(grades.map((g) => [g.candidateReviewId, { id: g.id, version: g.version, value: { grade: g.grade, comment: g.comment } }])),
      },
    };
  },

  async saveTarget({ tx, annotatorId, codeChangeId }, request) {
    const review = await reviewOfItem(tx, request.targetId, codeChangeId, true);
    const row = await tx.referenceGrade.findUnique({ where: { annotatorId_candidateReviewId: { annotatorId, candidateReviewId: review.id } } });
    return {
      current: row && { id: row.id, version: row.version, value: { grade: row.grade, comment: row.comment } },
      create: async (value) => (await tx.referenceGrade.create({ data: { annotatorId, candidateReviewId: review.id, ...(value as ReferenceGradeValue) } })).id,
      update: async (id, base, value) => (await tx.referenceGrade.updateMany({ where: { id, annotatorId, version: base }, data: { ...(value as ReferenceGradeValue), version: { increment: 1 } } })).count === 1,
    };
  },

  async addTime(tx, userId, id, codeChangeId, ms) {
    await tx.referenceGrade.updateMany({ where: { annotatorId: userId, candidateReviewId: id, candidateReview: { codeChangeId } }, data: { timeSpentMs: { increment: ms } } });
  },

  answers: { table: Prisma.sql`"ReferenceGrade"`, itemColumn: Prisma.sql`"candidateReviewId"`, code: (q) => textAnswerCode(Prisma.sql`a.grade::text`, q) },

  export: {
    of: "review",
    values: (review) => review.referenceGrades.map((g) => ({ annotation: g, values: [["grade", String(g.grade)], ["comment", nonEmpty(g.comment)]] })),
    ratings: (review) => review.referenceGrades.map((g) => ({ annotatorId: g.annotator.id, value: g.grade })),
  },

  consensusColumn: (_question, value) => ["grade", String(value)],

  async itemAnnotations(client, itemId) {
    const rows = await client.referenceGrade.findMany({ where: { candidateReviewId: itemId }, orderBy: { createdAt: "asc" }, include: { annotator: { select: { id: true, name: true } } } });
    return rows.map((g) => ({ annotatorId: g.annotatorId, annotator: g.annotator.name, values: { grade: g.grade }, note: g.comment, details: [] }));
  },
};
