/** Reference grading's queries (lib/tasks/reference-grading.ts): the item's reference and generated reviews with the annotator's grades, and an item's grades for adjudication. */
import "server-only";
import type { TaskQueries } from "@/lib/data/annotation-rows";
import { anonymise } from "@/lib/tasks/reviews";
import { itemReviews } from "@/lib/data/reviews";

export const referenceGradeQueries: TaskQueries = {
  async readWorkspace({ client, accountId, codeChangeId, study, reviewSeed }) {
    const [all, grades] = await Promise.all([itemReviews(client, codeChangeId), client.referenceGrade.findMany({ where: { annotatorId: accountId, review: { codeChangeId } } })]);
    const reference = all.find((r) => r.isReference) ?? null;
    return {
      referenceGrading: {
        reference: reference && { id: reference.id, text: reference.text },
        reviews: anonymise(
          all.filter((r) => !r.isReference),
          reviewSeed,
          study.hideSystemNames,
        ),
        grades: Object.fromEntries(grades.map((g) => [g.reviewId, { id: g.id, version: g.version, value: { grade: g.grade, comment: g.comment } }])),
      },
    };
  },

  async itemAnnotations(client, itemId) {
    const rows = await client.referenceGrade.findMany({ where: { reviewId: itemId }, orderBy: { createdAt: "asc" }, include: { annotator: { select: { id: true, name: true } } } });
    return rows.map((g) => ({ annotatorId: g.annotatorId, annotator: g.annotator.name, values: { grade: g.grade }, note: g.comment, details: [] }));
  },
};
