/**
 * Annotations flattened to answers: one per (item, annotator, question), the unit of the
 * `long` and `wide` exports and of agreement statistics computed outside the product. Items
 * are pseudo-references (claim verification) and reviews (rating, grading, filtering);
 * values are text (claim codes as the CRScore sheets write them: 1, 0, -1, -2, 2).
 */
import type { TaskType } from "@/lib/generated/prisma/enums";
import { numberOfClaimCode } from "@/lib/import/claim-codes";
import { orderedScores } from "./scores";
import type { ExportedChange } from "./study-rows";

export interface Answer {
  task: TaskType;
  codeChange: string;
  /** External id of the pseudo-reference or review. */
  item: string;
  itemKind: "pseudoReference" | "review";
  /** The review's system (null for pseudo-references). */
  system: string | null;
  question: string;
  annotatorId: string;
  annotator: string;
  value: string;
  createdAt: string;
  updatedAt: string;
  timeSpentMs: number;
}

type ItemFields = Pick<Answer, "task" | "codeChange" | "item" | "itemKind" | "system">;
type Annotation = { annotator: { id: string; name: string }; createdAt: Date; updatedAt: Date; timeSpentMs: number };

const flag = (value: boolean) => (value ? "1" : "0");

/** Answers of one annotation: its questions whose value is present. */
function answersOf(item: ItemFields, annotation: Annotation, questions: [string, string | null][]): Answer[] {
  const shared = {
    ...item,
    annotatorId: annotation.annotator.id,
    annotator: annotation.annotator.name,
    createdAt: annotation.createdAt.toISOString(),
    updatedAt: annotation.updatedAt.toISOString(),
    timeSpentMs: annotation.timeSpentMs,
  };
  return questions.filter((q): q is [string, string] => q[1] !== null).map(([question, value]) => ({ ...shared, question, value }));
}

const nonEmpty = (text: string) => (text === "" ? null : text);

/** Every answer of one code change, in item order; Likert questions in the study's dimension order. */
export function changeAnswers(change: ExportedChange, dimensions: readonly string[]): Answer[] {
  const answers: Answer[] = [];
  const codeChange = change.externalId;
  for (const reference of change.pseudoReferences) {
    const item: ItemFields = { task: "CLAIM_VERIFICATION", codeChange, item: reference.externalId, itemKind: "pseudoReference", system: null };
    for (const j of reference.judgements) {
      answers.push(
        ...answersOf(item, j, [
          ["code", j.code === null ? null : String(numberOfClaimCode(j.code))],
          ["necessary", j.necessary === null ? null : flag(j.necessary)],
          ["errorType", j.errorType],
          ["note", nonEmpty(j.note)],
        ]),
      );
    }
  }
  for (const review of change.reviews) {
    const item = (task: TaskType): ItemFields => ({ task, codeChange, item: review.externalId, itemKind: "review", system: review.system });
    for (const r of review.ratings) {
      const links = (partial: boolean) => r.links.filter((l) => l.partial === partial).map((l) => l.pseudoReference.externalId).sort().join(";");
      const scores = orderedScores(r.scores, dimensions).map(([dimension, score]): [string, string] => [dimension, String(score)]);
      answers.push(...answersOf(item("REVIEW_RATING"), r, [...scores, ["addresses", links(false)], ["partiallyAddresses", links(true)], ["comment", nonEmpty(r.comment)]]));
    }
    for (const g of review.referenceGrades) answers.push(...answersOf(item("REFERENCE_GRADING"), g, [["grade", String(g.grade)], ["comment", nonEmpty(g.comment)]]));
    for (const f of review.commentFilters) answers.push(...answersOf(item("COMMENT_FILTERING"), f, [["highQuality", flag(f.highQuality)], ["justification", nonEmpty(f.justification)]]));
  }
  return answers;
}
