/** Comment filtering's queries (lib/tasks/comment-filtering.ts): the item's reviews with the annotator's labels, and an item's labels for adjudication. */
import "server-only";
import type { TaskQueries } from "@/lib/data/annotation-rows";
import { HIGH_QUALITY } from "@/lib/analysis/questions";
import { anonymise } from "@/lib/tasks/reviews";
import { itemReviews } from "@/lib/data/reviews";

export const commentFilteringLabelQueries: TaskQueries = {
  async readWorkspace({ client, accountId, codeChangeId, study, reviewSeed }) {
    const [all, labels] = await Promise.all([itemReviews(client, codeChangeId), client.commentFilteringLabel.findMany({ where: { annotatorId: accountId, review: { codeChangeId } } })]);
    return {
      commentFiltering: {
        reviews: anonymise(all, reviewSeed, study.hideSystemNames),
        labels: Object.fromEntries(labels.map((l) => [l.reviewId, { id: l.id, version: l.version, value: { highQuality: l.highQuality, justification: l.justification } }])),
      },
    };
  },

  async itemAnnotations(client, itemId) {
    const rows = await client.commentFilteringLabel.findMany({ where: { reviewId: itemId }, orderBy: { createdAt: "asc" }, include: { annotator: { select: { id: true, name: true } } } });
    return rows.map((f) => ({ annotatorId: f.annotatorId, annotator: f.annotator.name, values: { "high-quality": f.highQuality ? HIGH_QUALITY.yes : HIGH_QUALITY.no }, note: f.justification, details: [] }));
  },
};
