/**
 * The consensus column of the exports (issue 12): per item and question, the lead's adjudicated
 * value, else the annotators' unanimous value, coded as the annotators' values are (claim codes
 * 1, 0, -1, -2, 2; highQuality 1/0). Blank where the annotators disagree and no lead decided,
 * and on the items whose known answers (gold) the export leaves out.
 */
import type { PrismaClient } from "@/lib/db/client";
import type { GoldItems } from "@/lib/data/gold";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { findStudy } from "@/lib/analysis/gather";
import { taskConsensus } from "@/lib/data/adjudication";
import type { StudyScales } from "@/lib/analysis/questions";
import { TASK_LIST } from "@/lib/tasks";

/** `${task}:${itemId}` → export question → consensus text. */
export type ExportConsensus = Map<string, Map<string, string>>;

export const consensusKey = (task: TaskType, itemId: string) => `${task}:${itemId}`;

export async function exportConsensus(client: PrismaClient, studyId: string, gold: GoldItems = new Map()): Promise<ExportConsensus> {
  const study = await findStudy({ id: studyId }, client);
  const out: ExportConsensus = new Map();
  for (const task of TASK_LIST) {
    for (const [itemId, questions] of await taskConsensus(client, study, task.task)) {
      if (gold.get(task.task)?.has(itemId)) continue;
      out.set(consensusKey(task.task, itemId), new Map([...questions].map(([key, c]) => task.consensusColumn(key, c.value))));
    }
  }
  return out;
}

/** The consensus grade of each generated review (GradedReviews workbook): review id → grade. */
export async function consensusGrades(client: PrismaClient, studyId: string, gold: GoldItems = new Map()): Promise<Map<string, number>> {
  const grades = new Map<string, number>();
  for (const [reviewId, questions] of await taskConsensus(client, await findStudy({ id: studyId }, client), "REFERENCE_GRADING")) {
    if (gold.get("REFERENCE_GRADING")?.has(reviewId)) continue;
    const grade = questions.get("grade");
    if (grade) grades.set(reviewId, Number(grade.value));
  }
  return grades;
}

/** The consensus keys every pseudo-reference and every review of a jsonl export carries: each question's export column. */
export function consensusColumns(study: StudyScales): Record<"pseudoReference" | "review", string[]> {
  const columns = (kind: "pseudoReference" | "review") => TASK_LIST.filter((t) => t.itemKind === kind).flatMap((t) => t.questions(study).map((q) => t.consensusColumn(q.key, q.scale[0])[0]));
  return { pseudoReference: columns("pseudoReference"), review: columns("review") };
}

/** One item's consensus under every column (null where there is none), from every task's consensus of it. */
export function itemConsensus(consensus: ExportConsensus, columns: readonly string[], itemId: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const column of columns) out[column] = null;
  for (const task of TASK_LIST) {
    const values = consensus.get(consensusKey(task.task, itemId));
    if (values) for (const [column, value] of values) if (Object.hasOwn(out, column)) out[column] = value;
  }
  return out;
}
