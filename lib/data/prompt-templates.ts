/**
 * Prompt templates of judge raters as data: per study, task and question, each version its text
 * named by its SHA-256 (docs/judges.md). The shipped presets (lib/judges/rater-presets.ts) are
 * listed beside the study's own versions and stored as versions when a run uses them.
 */
import "server-only";
import { db, type PrismaClient } from "@/lib/db/client";
import type { PromptTemplate } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";
import type { JudgeQuestion } from "@/lib/tasks/types";
import { presetsFor } from "@/lib/judges/rater-presets";
import { raterPromptVersion, templateProblem } from "@/lib/judges/rater-prompt";

/** Stores a version of the question's prompt (the same text is the same version, stored once); a template naming no known variable's name or empty is refused. */
export async function addPromptVersion(studyId: string, question: JudgeQuestion, text: string, options: { preset?: string; createdById?: string | null } = {}, client: PrismaClient = db): Promise<PromptTemplate> {
  const problem = templateProblem(text);
  if (problem) throw new AppError("INVALID_INPUT", { message: problem });
  const version = raterPromptVersion(text);
  const key = { studyId, task: question.task, question: question.key, version };
  return client.promptTemplate.upsert({ where: { studyId_task_question_version: key }, create: { ...key, text, preset: options.preset ?? "", createdById: options.createdById ?? null }, update: {} });
}

export interface PromptVersion {
  version: string;
  text: string;
  /** The preset's name, "" for a lead's own text. */
  preset: string;
  /** Null for a preset not used yet in the study. */
  createdAt: Date | null;
}

/** The question's versions: the study's own, newest first, then the presets not stored yet. */
export async function promptVersions(studyId: string, question: JudgeQuestion, client: PrismaClient = db): Promise<PromptVersion[]> {
  const stored = await client.promptTemplate.findMany({ where: { studyId, task: question.task, question: question.key }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  const known = new Set(stored.map((p) => p.version));
  const presets = presetsFor(question)
    .map((p) => ({ version: raterPromptVersion(p.text), text: p.text, preset: p.name, createdAt: null }))
    .filter((p) => !known.has(p.version));
  return [...stored.map((p) => ({ version: p.version, text: p.text, preset: p.preset, createdAt: p.createdAt })), ...presets];
}

/** The version whose hash starts with `prefix` (8 or more hex digits), or NOT_FOUND / INVALID_INPUT naming why. */
export async function findPromptVersion(studyId: string, question: JudgeQuestion, prefix: string, client: PrismaClient = db): Promise<PromptVersion> {
  if (!/^[0-9a-f]{8,64}$/.test(prefix)) throw new AppError("INVALID_INPUT", { message: `a prompt version is 8 to 64 hex digits of its SHA-256, got "${prefix}"` });
  const found = (await promptVersions(studyId, question, client)).filter((p) => p.version.startsWith(prefix));
  if (found.length > 1) throw new AppError("INVALID_INPUT", { message: `prompt version ${prefix} is ambiguous: ${found.map((p) => p.version.slice(0, 12)).join(", ")}` });
  if (found.length === 0) throw new AppError("NOT_FOUND", { message: `no prompt version ${prefix} of question "${question.key}" in this study (give its text with --prompt FILE)` });
  return found[0];
}
