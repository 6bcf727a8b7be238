/** Comment filtering, c-CRAB §4.2.1: whether each review comment is high quality (actionable and verifiable), with a justification. */
import { commentFilteringLabelValue, type CommentFilteringLabelValue } from "@/lib/annotation/value-schemas";
import { unansweredReviews } from "@/lib/annotation/completeness";
import { HIGH_QUALITY } from "@/lib/analysis/questions";
import { flag, nonEmpty } from "./reviews";
import { COMMENT_FILTER_LABELS } from "@/lib/annotation/codebook";
import { storedEntry, yesNo, type TaskDescriptor } from "./types";

export const commentFiltering: TaskDescriptor = {
  task: "COMMENT_FILTERING",
  name: "comment filtering",
  label: "Comment filtering",
  annotationName: "comment filter label",
  values: {
    label: {
      schema: commentFilteringLabelValue,
      history: "COMMENT_FILTERING_LABEL",
      row: {
        fields: [
          { name: "highQuality", type: "boolean" },
          { name: "justification", type: "text" },
        ],
        itemCondition: "true",
        notFound: "No such review in this item.",
      },
    },
  },
  timeKey: "label",
  itemKind: "review",
  storage: { model: "commentFilteringLabel", table: "CommentFilterLabel", item: { column: "candidateReviewId", field: "reviewId", relation: "review" } },
  appliesTo: (item) => item.reviews > 0,
  questions: () => [{ task: "COMMENT_FILTERING", key: "high-quality", label: "Actionable and verifiable comment", level: "nominal", scale: [HIGH_QUALITY.no, HIGH_QUALITY.yes], weights: "unweighted" }],
  judgeQuestions: () => [
    {
      task: "COMMENT_FILTERING",
      key: "high-quality",
      text: "Is the review comment high quality: does it identify a specific, actionable and objectively verifiable issue? (c-CRAB §4.2.1)",
      kind: "label",
      options: yesNo(COMMENT_FILTER_LABELS.high.description, COMMENT_FILTER_LABELS.low.description),
      apply: (_current, answer, reason): CommentFilteringLabelValue => ({ highQuality: answer === "yes", justification: reason }),
    },
  ],
  answer: () => ({ text: `CASE WHEN a."highQuality" THEN '${HIGH_QUALITY.yes}' ELSE '${HIGH_QUALITY.no}' END` }),
  stored: (workspace) => (workspace.commentFiltering?.reviews ?? []).map((r) => storedEntry("label", r.id, workspace.commentFiltering!.labels[r.id])),
  missing: (workspace, answer) => unansweredReviews(workspace.commentFiltering?.reviews ?? [], answer, "label", (v) => typeof (v as Partial<CommentFilteringLabelValue> | null)?.highQuality === "boolean", "label"),

  codebook: () => [
    {
      title: "Labels (c-CRAB §4.2.1)",
      entries: [
        { key: "1", ...COMMENT_FILTER_LABELS.high },
        { key: "0", ...COMMENT_FILTER_LABELS.low },
      ],
    },
  ],
  shortcuts: [
    { keys: ["1"], description: "High quality, actionable and verifiable (moves on to the next review)" },
    { keys: ["0"], description: "Low quality (moves on to the next review)" },
  ],

  export: {
    of: "review",
    annotations: { field: "commentFilteringLabels", columns: [`t."highQuality"`, "t.justification"], row: (r) => ({ highQuality: r[0] as boolean, justification: r[1] as string }) },
    values: (review) => review.commentFilteringLabels.map((f) => ({ annotation: f, values: [["highQuality", flag(f.highQuality)], ["justification", nonEmpty(f.justification)]] })),
    ratings: (review) => review.commentFilteringLabels.map((f) => ({ annotatorId: f.annotator.id, value: f.highQuality ? HIGH_QUALITY.yes : HIGH_QUALITY.no })),
  },

  consensusColumn: (_question, value) => ["highQuality", flag(value === HIGH_QUALITY.yes)],
};
