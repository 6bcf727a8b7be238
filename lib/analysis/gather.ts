/** Ratings of a study from the database as (item, rater, value) triples, per task and question. */
import { db, type PrismaClient } from "@/lib/db/client";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { TASKS, taskQuestions } from "@/lib/tasks";
import { goldItems, keptUnder, type GoldMode } from "@/lib/data/gold";
import type { QuestionRatings, StudyItem } from "./collect";
import type { StudyScales } from "./questions";
import { type DraftMode, unsubmittedWork, withoutDrafts } from "./drafts";
import { AppError } from "@/lib/errors";

export type { QuestionRatings, StudyItem } from "./collect";

export interface TaskRatings {
  task: TaskType;
  items: Map<string, StudyItem>;
  questions: QuestionRatings[];
}

export interface StudyForAnalysis extends StudyScales {
  id: string;
  slug: string;
  name: string;
  taskTypes: TaskType[];
}

/** The study by id or slug, with what the analyses need. */
export async function findStudy(where: { id: string } | { slug: string }, client: PrismaClient = db): Promise<StudyForAnalysis> {
  const study = await client.study.findUnique({ where, select: { id: true, slug: true, name: true, taskTypes: true, likertDimensions: true, likertMin: true, likertMax: true } });
  if (!study) throw new AppError("NOT_FOUND", { message: `no study with ${"id" in where ? `id "${where.id}"` : `slug "${where.slug}"`}` });
  return study;
}

/**
 * The ratings of one task of the study, per question, with the rated items; items with a known
 * answer for the task (gold, lib/data/gold) are left out unless asked for, and so are drafts
 * (lib/analysis/drafts.ts).
 */
export async function gatherTaskRatings(study: StudyForAnalysis, task: TaskType, client: PrismaClient = db, gold: GoldMode = "exclude", drafts: DraftMode = "exclude"): Promise<TaskRatings> {
  const [all, known, unsubmitted] = await Promise.all([
    TASKS[task].ratings(study.id, taskQuestions(task, study), client),
    gold === "include" ? new Map() : goldItems(client, study.id),
    drafts === "include" ? new Set<string>() : unsubmittedWork(client, study.id, task),
  ]);
  const data = withoutDrafts({ task, ...all }, unsubmitted);
  const goldHere = known.get(task) ?? new Set<string>();
  if (goldHere.size === 0 && gold !== "only") return data;
  const items = new Map([...data.items].filter(([id]) => keptUnder(gold, goldHere.has(id))));
  return { task, items, questions: data.questions.map((q) => ({ ...q, ratings: q.ratings.filter((r) => items.has(r.item)) })) };
}

/** Display names of annotators (their e-mail when the name is empty): reports and reasons name people, not ids. */
export async function raterNames(ids: readonly string[], client: PrismaClient = db): Promise<Map<string, string>> {
  const users = await client.user.findMany({ where: { id: { in: [...ids] } }, select: { id: true, name: true, email: true } });
  return new Map(users.map((u) => [u.id, u.name || u.email]));
}
