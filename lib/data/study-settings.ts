/**
 * A study's settings page: name, guidelines, task types, Likert dimensions and scale,
 * hiding system names, annotators per item. Saving counts the stored work each change bears on
 * and refuses what would invalidate it (lib/annotation/study-settings), in one transaction with
 * the update; only leads of the study (and admins) find it (lib/data/study-access).
 */
import "server-only";
import { z } from "zod";
import { settingsNotes, settingsRefusals, removedTasks, type SettingsUsage } from "@/lib/annotation/study-settings";
import { TASK_PHASES } from "@/lib/annotation/assignment-plan";
import { db, type Prisma } from "@/lib/db/client";
import { requireLedStudy } from "@/lib/data/study-access";
import { countAnnotations } from "@/lib/data/annotation-rows";
import { TASK_LIST } from "@/lib/tasks";
import { AppError } from "@/lib/errors";
import { TaskType } from "@/lib/generated/prisma/enums";
import { annotatorsPerItemField, LIKERT_SCALE_ORDER, likertDimensionsField, likertMaxField, likertMinField, likertScaleOrdered, slugField, studyNameField, tasksField } from "@/lib/validation/study-fields";
import type { SessionAccount } from "@/lib/auth/authenticate";

export const studySettingsSchema = z
  .object({
    slug: slugField,
    name: studyNameField,
    guidelines: z.string().max(200_000, "guidelines are at most 200,000 characters"),
    tasks: tasksField,
    likertDimensions: likertDimensionsField,
    likertMin: likertMinField,
    likertMax: likertMaxField,
    hideSystemNames: z.boolean(),
    annotatorsPerItem: annotatorsPerItemField,
  })
  .refine(likertScaleOrdered, LIKERT_SCALE_ORDER);

export type StudySettingsInput = z.infer<typeof studySettingsSchema>;
export type StudySettings = Omit<StudySettingsInput, "slug">;

/** The settings the page edits, picked from a study (or from the form's input). */
export function editableSettings(s: StudySettings): StudySettings {
  return {
    name: s.name,
    guidelines: s.guidelines,
    tasks: s.tasks,
    likertDimensions: s.likertDimensions,
    likertMin: s.likertMin,
    likertMax: s.likertMax,
    hideSystemNames: s.hideSystemNames,
    annotatorsPerItem: s.annotatorsPerItem,
  };
}

type Tx = Prisma.TransactionClient;
const perTask = (rows: { task: TaskType; n: number }[]) => Object.fromEntries(TASK_PHASES.map((t) => [t, rows.filter((r) => r.task === t).reduce((a, r) => a + r.n, 0)])) as Record<TaskType, number>;

/** The stored work of the study that its settings bear on. */
export async function settingsUsage(client: Tx | typeof db, studyId: string): Promise<SettingsUsage> {
  const [annotations, consensus, assignments, scores] = await Promise.all([
    Promise.all(TASK_LIST.map((task) => countAnnotations(client, task, studyId))),
    client.consensus.groupBy({ by: ["task", "question"], where: { studyId }, _count: { _all: true } }),
    client.assignment.groupBy({ by: ["task", "status"], where: { studyId }, _count: { _all: true } }),
    // Ratings with a (non-null) score per dimension; the rollup row (dimension null) counts ratings with any score.
    client.$queryRaw<{ dimension: string | null; ratings: number }[]>`
      SELECT e.key AS dimension, count(DISTINCT r.id)::int AS ratings
      FROM "ReviewRating" r
      JOIN "CandidateReview" c ON c.id = r."candidateReviewId"
      JOIN "CodeChange" cc ON cc.id = c."codeChangeId"
      CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(r.scores) = 'object' THEN r.scores ELSE '{}'::jsonb END) e
      WHERE cc."studyId" = ${studyId} AND e.value <> 'null'::jsonb
      GROUP BY ROLLUP (e.key)`,
  ]);
  return {
    annotations: Object.fromEntries(TASK_LIST.map((task, i) => [task.task, annotations[i]])) as Record<TaskType, number>,
    consensus: perTask(consensus.map((c) => ({ task: c.task, n: c._count._all }))),
    likertConsensus: Object.fromEntries(consensus.filter((c) => c.task === "REVIEW_RATING").map((c) => [c.question, c._count._all])),
    startedAssignments: perTask(assignments.filter((a) => a.status !== "PENDING").map((a) => ({ task: a.task, n: a._count._all }))),
    pendingAssignments: perTask(assignments.filter((a) => a.status === "PENDING").map((a) => ({ task: a.task, n: a._count._all }))),
    scoredRatings: scores.find((s) => s.dimension === null)?.ratings ?? 0,
    scoresByDimension: Object.fromEntries(scores.filter((s) => s.dimension !== null).map((s) => [s.dimension, s.ratings])),
  };
}

/** The settings page: the study's current settings and the stored work they bear on. */
export async function getStudySettings(account: Pick<SessionAccount, "id" | "role">, slug: string) {
  const study = await requireLedStudy(account, slug);
  return { study, usage: await settingsUsage(db, study.id) };
}

/**
 * Saves the settings of a study the account leads (404 otherwise), or refuses with CONFLICT naming
 * what stored work a change would invalidate. Removing a task type also removes its assignments
 * nobody has opened. Returns notes on what the change means (e.g. for future assignment plans).
 */
export async function updateStudySettings(account: Pick<SessionAccount, "id" | "role">, input: StudySettingsInput): Promise<{ notes: string[] }> {
  return db.$transaction(async (tx) => {
    const study = await requireLedStudy(account, input.slug, tx);
    const usage = await settingsUsage(tx, study.id);
    const refusals = settingsRefusals(study, input, usage);
    if (refusals.length) throw new AppError("CONFLICT", { message: `The settings were not saved.\n${refusals.join("\n")}` });
    const removed = removedTasks(study, input);
    if (removed.length) await tx.assignment.deleteMany({ where: { studyId: study.id, task: { in: removed }, status: "PENDING" } });
    await tx.study.update({ where: { id: study.id }, data: editableSettings(input) });
    return { notes: settingsNotes(study, input, usage) };
  });
}
