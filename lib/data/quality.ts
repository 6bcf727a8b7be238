/**
 * Quality control of a study's annotators: accuracy on gold items, time per
 * finished item in seconds with too-fast items counted, and pausing an annotator, who can then
 * neither open nor save items (lib/data/study-access annotatingStudyWhere). Every call finds the
 * study through leadStudyWhere.
 */
import "server-only";
import { z } from "zod";
import { slugField } from "@/lib/validation/study-fields";
import { db } from "@/lib/db/client";
import type { AnswerValue } from "@/lib/agreement";
import { answersByRater } from "@/lib/analysis/gather";
import { gatherTaskColumns } from "@/lib/data/task-answers";
import { belowAccuracy, goldKey, goldScores, paceOf, type GoldScore, type PaceSummary } from "@/lib/analysis/gold-accuracy";
import { goldAnswers, goldCodeChanges } from "@/lib/data/gold";
import { requireLedStudy } from "@/lib/data/study-access";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { AppError } from "@/lib/errors";
import type { SessionAccount } from "@/lib/auth/authenticate";

export interface QualityRow {
  annotatorId: string;
  name: string;
  email: string;
  paused: boolean;
  pauseReason: string;
  gold: GoldScore | null;
  pace: PaceSummary;
  /** Below the study's minimum accuracy on gold. */
  lowAccuracy: boolean;
  /** The study's qualification: attempts finished, the last one's score, passed or failed (lib/data/qualification.ts). */
  qualification: { attempts: number; score: number | null; passed: boolean; failed: boolean };
}

export interface StudyQuality {
  study: { id: string; slug: string; name: string; tasks: TaskType[]; goldPerQueue: number; goldMinAccuracy: number; minSecondsPerItem: number; qualificationRequired: boolean };
  /** Gold items (code changes) and known answers. */
  goldItems: number;
  goldAnswers: { task: TaskType; itemId: string; question: string; value: AnswerValue }[];
  annotators: QualityRow[];
}

/** Per annotator of the study: accuracy on gold, seconds per finished item, too-fast items, paused or not. */
export async function studyQuality(account: Pick<SessionAccount, "id" | "role">, slug: string): Promise<StudyQuality> {
  const study = await requireLedStudy(account, slug);
  const [answers, changes, members, finished] = await Promise.all([
    goldAnswers(db, study.id),
    goldCodeChanges(db, study.id),
    db.studyMember.findMany({ where: { studyId: study.id, role: "ANNOTATOR" }, select: { pausedAt: true, pauseReason: true, qualificationAttempts: true, qualificationScore: true, qualifiedAt: true, qualificationFailedAt: true, account: { select: { id: true, name: true, email: true } } } }),
    db.assignment.findMany({ where: { studyId: study.id, status: "DONE" }, select: { annotatorId: true, timeSpentMs: true } }),
  ]);
  const gold = new Map(answers.map((a) => [goldKey(`${a.task}:${a.itemId}`, a.question), a.value]));
  const ratings = [];
  for (const task of study.tasks) {
    if (!answers.some((a) => a.task === task)) continue;
    // Every gold answer so far, drafts too: accuracy is watched while annotators work.
    const data = await gatherTaskColumns(study, task, db, { gold: "only", drafts: "include" });
    for (const q of data.questions) for (const r of answersByRater(data, q)) ratings.push({ ...r, item: `${task}:${r.item}`, question: q.question.key });
  }
  const scores = goldScores(ratings, gold);
  const annotators = members
    .map((m) => {
      const score = scores.get(m.account.id) ?? null;
      return {
        annotatorId: m.account.id,
        name: m.account.name,
        email: m.account.email,
        paused: m.pausedAt !== null,
        pauseReason: m.pauseReason,
        gold: score,
        pace: paceOf(
          finished.filter((a) => a.annotatorId === m.account.id).map((a) => a.timeSpentMs),
          study.minSecondsPerItem,
        ),
        lowAccuracy: belowAccuracy(score ?? undefined, study.goldMinAccuracy),
        qualification: { attempts: m.qualificationAttempts, score: m.qualificationScore, passed: m.qualifiedAt !== null, failed: m.qualificationFailedAt !== null },
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
  return {
    study: { id: study.id, slug: study.slug, name: study.name, tasks: study.tasks, goldPerQueue: study.goldPerQueue, goldMinAccuracy: study.goldMinAccuracy, minSecondsPerItem: study.minSecondsPerItem, qualificationRequired: study.qualificationRequired },
    goldItems: changes.size,
    goldAnswers: answers,
    annotators,
  };
}

export const qualitySettingsSchema = z.object({
  slug: slugField,
  goldPerQueue: z.coerce.number().int().min(0).max(10_000),
  /** In percent on the form. */
  goldMinAccuracyPercent: z.coerce.number().min(0).max(100),
  minSecondsPerItem: z.coerce.number().int().min(0).max(86_400),
});

export async function updateQualitySettings(account: Pick<SessionAccount, "id" | "role">, input: z.infer<typeof qualitySettingsSchema>) {
  const study = await requireLedStudy(account, input.slug);
  return db.study.update({
    where: { id: study.id },
    data: { goldPerQueue: input.goldPerQueue, goldMinAccuracy: input.goldMinAccuracyPercent / 100, minSecondsPerItem: input.minSecondsPerItem },
    select: { goldPerQueue: true, goldMinAccuracy: true, minSecondsPerItem: true },
  });
}

export const pauseSchema = z.object({ slug: slugField, annotatorId: z.string().min(1), paused: z.boolean(), reason: z.string().trim().max(2000).default("") });

/** Pauses (or resumes) an annotator of the study; they keep their work but cannot open or save items while paused. */
export async function setAnnotatorPaused(account: Pick<SessionAccount, "id" | "role">, input: z.infer<typeof pauseSchema>): Promise<{ paused: boolean }> {
  const study = await requireLedStudy(account, input.slug);
  const { count } = await db.studyMember.updateMany({
    where: { studyId: study.id, accountId: input.annotatorId, role: "ANNOTATOR" },
    data: input.paused ? { pausedAt: new Date(), pauseReason: input.reason } : { pausedAt: null, pauseReason: "" },
  });
  if (count === 0) throw new AppError("NOT_FOUND", { message: "No such annotator in this study." });
  return { paused: input.paused };
}

export interface ChangeItems {
  externalId: string;
  changes: { externalId: string; filePath: string }[];
  /** The chosen change's items per task, to open on the adjudication page and give a known answer. */
  items: { task: TaskType; itemId: string; label: string; text: string }[];
}

/** The study's code changes, and the items of the chosen one (by external id) for the study's tasks. */
export async function changeItems(account: Pick<SessionAccount, "id" | "role">, slug: string, externalId: string | undefined): Promise<ChangeItems> {
  const study = await requireLedStudy(account, slug);
  const changes = await db.codeChange.findMany({ where: { studyId: study.id }, orderBy: [{ position: "asc" }, { externalId: "asc" }], select: { externalId: true, filePath: true }, take: 1000 });
  const chosen = externalId ?? changes[0]?.externalId;
  const change = chosen
    ? await db.codeChange.findFirst({
        where: { studyId: study.id, externalId: chosen },
        select: {
          pseudoReferences: { where: { kind: { in: ["CLAIM", "IMPLICATION"] } }, orderBy: [{ position: "asc" }, { id: "asc" }], select: { id: true, text: true } },
          reviews: { orderBy: [{ position: "asc" }, { id: "asc" }], select: { id: true, system: true, text: true, isReference: true } },
        },
      })
    : null;
  const items: ChangeItems["items"] = [];
  for (const task of study.tasks) {
    // the generated claims in stored order: claim 1, 2, … (lib/claims/numbering)
    if (task === "CLAIM_VERIFICATION") for (const [i, c] of (change?.pseudoReferences ?? []).entries()) items.push({ task, itemId: c.id, label: `claim ${i + 1}`, text: c.text });
    else for (const r of change?.reviews ?? []) if (!(r.isReference && task === "REFERENCE_GRADING")) items.push({ task, itemId: r.id, label: r.system, text: r.text });
  }
  return { externalId: chosen ?? "", changes, items };
}
