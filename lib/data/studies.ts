/** Data access for studies by slug: lookup, and find-or-create for imports. */
import { z } from "zod";
import { db, type Prisma, type PrismaClient } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Study, TaskType } from "@/lib/generated/prisma/client";
import { leadStudyWhere, requireImportTarget, type StudyUser } from "@/lib/data/study-access";

type Client = Pick<PrismaClient, "study"> | Pick<Prisma.TransactionClient, "study">;

export const studySlugSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9-]*$/, "a study slug is lowercase letters, digits and dashes, e.g. crscore-python");

export async function findStudyBySlug(slug: string, client: Client = db): Promise<Study | null> {
  return client.study.findUnique({ where: { slug } });
}

export interface FoundStudy {
  study: Study;
  created: boolean;
  /** Task types that were not enabled before. */
  enabledTaskTypes: TaskType[];
}

/**
 * The study with this slug, created (named after its slug) when it does not exist; the given
 * task types are enabled on it if they are not yet. Imports call this inside their transaction.
 * With an `importer` (a web import), an existing study must be one they lead (else 404).
 */
export async function findOrCreateStudy(input: { slug: string; taskTypes: readonly TaskType[]; createdById?: string | null; importer?: StudyUser }, client: Client = db): Promise<FoundStudy> {
  const slug = studySlugSchema.parse(input.slug);
  if (input.importer) await requireImportTarget(input.importer, slug, client);
  const existing = await client.study.findUnique({ where: { slug } });
  if (!existing) {
    const study = await client.study.create({ data: { slug, name: slug, taskTypes: [...new Set(input.taskTypes)], createdById: input.createdById ?? null } });
    return { study, created: true, enabledTaskTypes: study.taskTypes };
  }
  const missing = [...new Set(input.taskTypes)].filter((t) => !existing.taskTypes.includes(t));
  if (missing.length === 0) return { study: existing, created: false, enabledTaskTypes: [] };
  const study = await client.study.update({ where: { id: existing.id }, data: { taskTypes: [...existing.taskTypes, ...missing] } });
  return { study, created: false, enabledTaskTypes: missing };
}

/** Turns CRScore's stage order (lib/annotation/stage-order) on or off for a study the user leads; 404 otherwise. */
export async function setStageOrder(user: StudyUser, slug: string, on: boolean): Promise<void> {
  const { count } = await db.study.updateMany({ where: { slug, ...leadStudyWhere(user) }, data: { stageOrder: on } });
  if (count === 0) throw new AppError("NOT_FOUND", { message: "No such study." });
}
