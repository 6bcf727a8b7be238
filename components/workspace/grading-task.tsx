"use client";

/**
 * Reference-based grading (GradedReviews section 4.3): each generated review is graded 1-5
 * against the human reference review, with the five criteria next to the scale.
 */
import { DataTable } from "@/components/dashboard/data-table";
import { text } from "@/components/dashboard/table-data";
import { REFERENCE_GRADES } from "@/lib/annotation/codebook";
import type { ReferenceGradeValue } from "@/lib/annotation/values";
import { type Choice, ReviewChoiceTask } from "./review-choice-task";
import type { TaskProps } from "./types";

/** A grade being written: the comment can come before the grade. */
type Draft = Partial<ReferenceGradeValue>;

const GRADES: readonly Choice<number>[] = [1, 2, 3, 4, 5].map((grade) => {
  const criterion = REFERENCE_GRADES.find((c) => c.grade === grade)!;
  return { value: grade, digit: grade, label: String(grade), name: criterion.label, description: criterion.description };
});

export function GradingTask(props: TaskProps) {
  const grading = props.data.referenceGrading!;
  const intro = (
    <>
      <section aria-label="Reference review" className="sticky top-0 z-10 rounded border border-amber-300 bg-amber-50 p-2">
        <h3 className="text-sm font-medium">Reference review (written by a human reviewer)</h3>
        <p className="mt-1 whitespace-pre-wrap text-sm">{grading.reference?.text ?? "This change has no reference review."}</p>
      </section>
      <DataTable
        table={{
          label: "Grading criteria",
          columns: [
            { key: "grade", label: "Grade" },
            { key: "description", label: "Criterion" },
          ],
          rows: REFERENCE_GRADES.map((g) => ({ key: String(g.grade), cells: [text(`${g.grade} ${g.label}`), text(g.description)] })),
        }}
      />
    </>
  );
  return (
    <ReviewChoiceTask<number, Draft>
      {...props}
      kind="grade"
      reviews={grading.reviews}
      intro={intro}
      listLabel="Generated reviews"
      choices={GRADES}
      choiceLabel="Grade"
      noteLabel="Comment on"
      notePlaceholder="m — comment (optional)"
      toAnswer={(v) => ({ choice: v?.grade, note: v?.comment ?? "" })}
      toStored={(a) => ({ grade: a.choice, comment: a.note })}
    />
  );
}
