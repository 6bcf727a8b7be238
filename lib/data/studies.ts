/** Data access for studies: the lookup by id or slug, a lead's new study, and find-or-create for imports. */
import "server-only";
import { z } from "zod";
import { db, Prisma, type PrismaClient } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Study, TaskType } from "@/lib/generated/prisma/client";
import type { StudyScales } from "@/lib/analysis/questions";
import { commentQuestionsSetting, withCommentQuestions } from "@/lib/annotation/comment-questions";
import { COMMAND_LINE, leadStudyWhere, requireImportTarget } from "@/lib/data/study-access";
import { annotatorsPerItemField, LIKERT_SCALE_ORDER, likertDimensionsField, likertMaxField, likertMinField, likertScaleOrdered, studyNameField, studySlugSchema, tasksField } from "@/lib/validation/study-fields";
import type { SessionAccount } from "@/lib/auth/authenticate";

type Client = Pick<PrismaClient, "study"> | Pick<Prisma.TransactionClient, "study">;

/** A study with what the analyses, exports and imports read of it: its tasks and its Likert scale. */
export interface StudyForAnalysis extends StudyScales {
  id: string;
  slug: string;
  name: string;
  tasks: TaskType[];
}

const STUDY_FOR_ANALYSIS = { id: true, slug: true, name: true, tasks: true, likertDimensions: true, likertMin: true, likertMax: true, commentQuestions: true } as const;

/**
 * The study by id or slug, or null: the one lookup without authorization, for the command line
 * (an operator's rights), jobs and the code a lead's request reaches after findLedStudy or
 * requireLedStudy (lib/data/study-access.ts) found the study through their scope.
 */
export async function findStudy(where: { id: string } | { slug: string }, client: Client = db): Promise<StudyForAnalysis | null> {
  const study = await client.study.findUnique({ where, select: STUDY_FOR_ANALYSIS });
  return study && withCommentQuestions(study);
}

/** As findStudy; a study that does not exist is NOT_FOUND. */
export async function requireStudy(where: { id: string } | { slug: string }, client: Client = db): Promise<StudyForAnalysis> {
  const study = await findStudy(where, client);
  if (!study) throw new AppError("NOT_FOUND", { message: `no study with ${"id" in where ? `id "${where.id}"` : `slug "${where.slug}"`}` });
  return study;
}

export interface FoundStudy {
  study: Study;
  created: boolean;
  /** Task types that were not enabled before. */
  enabledTasks: TaskType[];
}

/**
 * The study with this slug, created (named after its slug, owned by `ownerId`) when it does not
 * exist; the given tasks are enabled on it if they are not yet. Imports call this inside their transaction.
 * With an `importer` (a web import), an existing study must be one they lead (else 404).
 */
export async function findOrCreateStudy(input: { slug: string; tasks: readonly TaskType[]; ownerId?: string | null; importer?: Pick<SessionAccount, "id" | "role"> }, client: Client = db): Promise<FoundStudy> {
  const slug = studySlugSchema.parse(input.slug);
  if (input.importer) await requireImportTarget(input.importer, slug, client);
  const existing = await client.study.findUnique({ where: { slug } });
  if (!existing) {
    const study = await client.study.create({ data: { slug, name: slug, tasks: [...new Set(input.tasks)], ownerId: input.ownerId ?? null } });
    return { study, created: true, enabledTasks: study.tasks };
  }
  const missing = [...new Set(input.tasks)].filter((t) => !existing.tasks.includes(t));
  if (missing.length === 0) return { study: existing, created: false, enabledTasks: [] };
  const study = await client.study.update({ where: { id: existing.id }, data: { tasks: [...existing.tasks, ...missing] } });
  return { study, created: false, enabledTasks: missing };
}

/** Turns CRScore's stage order (lib/annotation/stage-order) on or off for a study the account leads; 404 otherwise. */
export async function setStageOrder(account: Pick<SessionAccount, "id" | "role">, slug: string, on: boolean): Promise<void> {
  const { count } = await db.study.updateMany({ where: { slug, ...leadStudyWhere(account) }, data: { stageOrder: on } });
  if (count === 0) throw new AppError("NOT_FOUND", { message: "No such study." });
}

export const newStudySchema = z
  .object({
    name: studyNameField,
    slug: studySlugSchema,
    tasks: tasksField,
    likertDimensions: likertDimensionsField,
    likertMin: likertMinField,
    likertMax: likertMaxField,
    annotatorsPerItem: annotatorsPerItemField,
    /** The comment questions (lib/annotation/comment-questions); absent: the default (c-CRAB's). */
    commentQuestions: commentQuestionsSetting.optional(),
  })
  .refine(likertScaleOrdered, LIKERT_SCALE_ORDER);

/**
 * A lead's (or an admin's) new, empty study, which they own: its data comes by import, its
 * annotators on the members page. A slug another study has is refused (CONFLICT), whoever leads it.
 */
export async function createStudy(account: Pick<SessionAccount, "id" | "role">, input: z.input<typeof newStudySchema>): Promise<{ slug: string; name: string }> {
  if (account.role !== "LEAD" && account.role !== "ADMIN") throw new AppError("FORBIDDEN", { message: "Only leads and admins create studies." });
  const fields = newStudySchema.parse(input);
  const taken = new AppError("CONFLICT", { message: `The slug "${fields.slug}" is taken by another study: choose another.` });
  if (await db.study.findUnique({ where: { slug: fields.slug }, select: { id: true } })) throw taken;
  try {
    const { commentQuestions, ...rest } = fields;
    return await db.study.create({
      data: { ...rest, ...(commentQuestions ? { commentQuestions: commentQuestions as Prisma.InputJsonValue } : {}), ownerId: account.id === COMMAND_LINE.id ? null : account.id },
      select: { slug: true, name: true },
    });
  } catch (error) {
    // Another request took the slug meanwhile.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw taken;
    throw error;
  }
}
