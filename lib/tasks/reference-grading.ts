/** Reference grading, GradedReviews §4.3: a 1-5 grade of each generated review against the human reference review, with a comment. */
import { referenceGradeValue, type ReferenceGradeValue } from "@/lib/annotation/value-schemas";
import { unansweredReviews } from "@/lib/annotation/completeness";
import { nonEmpty } from "./reviews";
import { REFERENCE_GRADES } from "@/lib/annotation/codebook";
import { storedEntry, type TaskDescriptor } from "./types";

export const referenceGrading: TaskDescriptor = {
  task: "REFERENCE_GRADING",
  name: "reference grading",
  label: "Reference-based grading",
  annotationName: "reference grade",
  values: {
    grade: {
      schema: referenceGradeValue,
      history: "REFERENCE_GRADE",
      row: {
        fields: [
          { name: "grade", type: "integer" },
          { name: "comment", type: "text" },
        ],
        itemCondition: `NOT t."isReference"`,
        notFound: "No such generated review in this item.",
      },
    },
  },
  timeKey: "grade",
  itemKind: "review",
  storage: { model: "referenceGrade", table: "ReferenceGrade", item: { column: "candidateReviewId", field: "reviewId", relation: "review" } },
  appliesTo: (item) => item.hasReference && item.generatedReviews > 0,
  questions: () => [{ task: "REFERENCE_GRADING", key: "grade", label: "Grade against the reference (1-5)", level: "ordinal", scale: [1, 2, 3, 4, 5], weights: "quadratic" }],
  judgeQuestions: () => [
    {
      task: "REFERENCE_GRADING",
      key: "grade",
      text: "How well does the generated review match the reference review? (GradedReviews §4.3)",
      kind: "grade",
      options: [...REFERENCE_GRADES].sort((a, b) => a.grade - b.grade).map((g) => ({ answer: String(g.grade), label: g.label, description: g.description })),
      apply: (_current, answer, reason): ReferenceGradeValue => ({ grade: Number(answer), comment: reason }),
    },
  ],
  answer: () => ({ text: "a.grade::text" }),
  stored: (workspace) => (workspace.referenceGrading?.reviews ?? []).map((r) => storedEntry("grade", r.id, workspace.referenceGrading!.grades[r.id])),
  missing: (workspace, answer) => unansweredReviews(workspace.referenceGrading?.reviews ?? [], answer, "grade", (v) => typeof (v as Partial<ReferenceGradeValue> | null)?.grade === "number", "grade"),

  codebook: () => [{ title: "Grades (GradedReviews §4.3)", entries: REFERENCE_GRADES.map((g) => ({ key: String(g.grade), label: g.label, description: g.description })) }],
  shortcuts: [
    { keys: ["1…5"], description: "Grade against the reference review (moves on to the next review)" },
  ],

  export: {
    of: "review",
    annotations: { field: "referenceGrades", columns: ["t.grade", "t.comment"], row: (r) => ({ grade: r[0] as number, comment: r[1] as string }) },
    values: (review) => review.referenceGrades.map((g) => ({ annotation: g, values: [["grade", String(g.grade)], ["comment", nonEmpty(g.comment)]] })),
    ratings: (review) => review.referenceGrades.map((g) => ({ annotatorId: g.annotator.id, value: g.grade })),
  },

  consensusColumn: (_question, value) => ["grade", String(value)],
};
