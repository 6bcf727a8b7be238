/**
 * Qualification before a study's real items (lib/annotation/qualification.ts): an annotator's
 * progress is stored on their membership; the gold items asked are the study's known answers
 * (Consensus.gold) in a fixed order. Until they pass, an annotator of a study requiring it can
 * neither open nor save items (annotatingStudyWhere); once they fail, their answers stay out of
 * every statistic (qualifiedRaterSql in lib/data/study-access.ts, read by gatherTaskColumns).
 */
import "server-only";
import { z } from "zod";
import { db, Prisma } from "@/lib/db/client";
import type { AnswerValue } from "@/lib/agreement";
import { answersMatch, attemptLength, attemptOutcome, attemptScore, codebookReason, qualificationStep, type QualificationAnswer, type QualificationStep } from "@/lib/annotation/qualification";
import { itemContext } from "@/lib/data/adjudication";
import { requireLedStudy } from "@/lib/data/study-access";
import { withCommentQuestions } from "@/lib/annotation/comment-questions";
import { TASKS, taskQuestions } from "@/lib/tasks";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { AppError } from "@/lib/errors";
import { slugField } from "@/lib/validation/study-fields";
import type { SessionAccount } from "@/lib/auth/authenticate";

type Account = Pick<SessionAccount, "id" | "role">;

const RULES = { qualificationRequired: true, qualificationConsent: true, qualificationGoldItems: true, qualificationPassMark: true, qualificationMaxAttempts: true } as const;
const PROGRESS = { consentedAt: true, guidelinesReadAt: true, qualificationAnswers: true, qualificationAttempts: true, qualifiedAt: true, qualificationFailedAt: true, qualificationScore: true } as const;

/** The known answers an attempt asks, in a fixed order: the study's gold answers on questions of its tasks. */
async function qualificationGold(study: { id: string; tasks: TaskType[] }) {
  const gold = await db.consensus.findMany({ where: { studyId: study.id, gold: true, task: { in: study.tasks } }, orderBy: [{ decidedAt: "asc" }, { id: "asc" }], select: { task: true, itemId: true, question: true, value: true, reason: true } });
  return gold as (Omit<(typeof gold)[number], "value"> & { value: AnswerValue })[];
}

async function membership(account: Account, slug: string) {
  const member = await db.studyMember.findFirst({
    where: { accountId: account.id, role: "ANNOTATOR", study: { slug } },
    select: { ...PROGRESS, study: { select: { ...RULES, id: true, slug: true, name: true, guidelines: true, tasks: true, likertDimensions: true, likertMin: true, likertMax: true, commentQuestions: true } } },
  });
  if (!member) throw new AppError("NOT_FOUND", { message: "No such study among yours." });
  const study = withCommentQuestions(member.study);
  const gold = await qualificationGold(study);
  const length = attemptLength(study, gold.length);
  const answers = member.qualificationAnswers as unknown as QualificationAnswer[];
  const progress = { ...member, qualificationAnswers: answers };
  return { study, gold: gold.slice(0, length), progress, step: qualificationStep(study, progress, length) };
}

export interface QualificationQuestion {
  index: number;
  of: number;
  task: TaskType;
  /** The question's label and its options, each by its place on the scale. */
  question: { key: string; label: string; options: { choice: number; label: string }[] };
  item: { text: string; filePath: string; diff: string };
}

export interface QualificationView {
  study: { slug: string; name: string; guidelines: string; consent: string; passMark: number; maxAttempts: number };
  step: QualificationStep;
  attempts: number;
  score: number | null;
  question: QualificationQuestion | null;
}

/** Where the annotator stands in the study's qualification, with the gold item to answer next. */
export async function qualificationView(account: Account, slug: string): Promise<QualificationView> {
  const { study, gold, progress, step } = await membership(account, slug);
  let question: QualificationQuestion | null = null;
  if (step.step === "question") {
    const known = gold[step.index];
    const q = questionOf(study, known.task, known.question);
    const { codeChangeId, item } = await itemContext(study.id, known.task, known.itemId);
    const change = await db.codeChange.findUniqueOrThrow({ where: { id: codeChangeId }, select: { filePath: true, diff: true } });
    const sections = TASKS[known.task].codebook(study);
    question = {
      index: step.index,
      of: gold.length,
      task: known.task,
      question: { key: q.key, label: q.label, options: q.scale.map((value, choice) => ({ choice, label: codebookReason(sections, q.key, value).split(":")[0] || String(value) })) },
      item: { text: item.text, filePath: change.filePath, diff: change.diff },
    };
  }
  return {
    study: { slug: study.slug, name: study.name, guidelines: study.guidelines, consent: study.qualificationConsent, passMark: study.qualificationPassMark, maxAttempts: study.qualificationMaxAttempts },
    step,
    attempts: progress.qualificationAttempts,
    score: progress.qualificationScore,
    question,
  };
}

function questionOf(study: Parameters<typeof taskQuestions>[1], task: TaskType, key: string) {
  const question = taskQuestions(task, study).find((q) => q.key === key);
  if (!question) throw new AppError("CONFLICT", { message: `The study no longer asks the question "${key}" of its gold items; ask a lead to update the qualification.` });
  return question;
}

export const qualificationStepInput = z.object({ slug: slugField, step: z.enum(["consent", "guidelines", "retry"]) });

/** Accepts the consent text, confirms the guidelines were read, or starts another attempt; only at that step. */
export async function takeQualificationStep(account: Account, input: z.infer<typeof qualificationStepInput>): Promise<{ step: QualificationStep["step"] }> {
  const { study, step } = await membership(account, input.slug);
  if (step.step !== input.step) throw new AppError("CONFLICT", { message: `This step of the qualification is not the current one (${step.step}).` });
  if (step.step === "retry" && step.attemptsLeft <= 0) throw new AppError("CONFLICT", { message: "No attempt is left." });
  const data = input.step === "consent" ? { consentedAt: new Date() } : input.step === "guidelines" ? { guidelinesReadAt: new Date() } : { qualificationAnswers: [] };
  await db.studyMember.update({ where: { studyId_accountId: { studyId: study.id, accountId: account.id } }, data });
  return { step: (await membership(account, input.slug)).step.step };
}

export const qualificationAnswerInput = z.object({ slug: slugField, index: z.number().int().min(0), choice: z.number().int().min(0) });

export interface QualificationFeedback {
  correct: boolean;
  /** The known answer as the options name it, and the reason: the lead's and the codebook's. */
  known: string;
  reason: string;
  /** Set when the answer finished the attempt. */
  outcome: "passed" | "retry" | "failed" | null;
  score: number | null;
}

/** Answers the gold item at `index` of the attempt under way, and says whether it was right and why; the last answer scores the attempt. */
export async function answerQualification(account: Account, input: z.infer<typeof qualificationAnswerInput>): Promise<QualificationFeedback> {
  const { study, gold, progress, step } = await membership(account, input.slug);
  if (step.step !== "question" || step.index !== input.index) throw new AppError("CONFLICT", { message: "This gold item is not the one to answer now; reload the page." });
  const known = gold[input.index];
  const question = questionOf(study, known.task, known.question);
  if (input.choice >= question.scale.length) throw new AppError("INVALID_INPUT", { message: `choice: ${input.choice} is not an option of "${question.label}".` });
  const value = question.scale[input.choice];
  const answers: QualificationAnswer[] = [...progress.qualificationAnswers, { task: known.task, itemId: known.itemId, question: known.question, value, correct: answersMatch(value, known.value) }];
  const finished = answers.length === gold.length;
  const score = finished ? attemptScore(answers) : null;
  const outcome = score === null ? null : attemptOutcome(score, progress.qualificationAttempts + 1, study);
  const now = new Date();
  // Only from the state just read: a second answer to the same item (another tab) changes nothing.
  const { count } = await db.studyMember.updateMany({
    where: { studyId: study.id, accountId: account.id, qualificationAttempts: progress.qualificationAttempts, qualifiedAt: null, qualificationFailedAt: null, qualificationAnswers: { equals: progress.qualificationAnswers as unknown as Prisma.InputJsonValue } },
    data: {
      qualificationAnswers: answers as unknown as Prisma.InputJsonValue,
      ...(score !== null && { qualificationAttempts: { increment: 1 }, qualificationScore: score }),
      ...(outcome === "passed" && { qualifiedAt: now }),
      ...(outcome === "failed" && { qualificationFailedAt: now }),
    },
  });
  if (count === 0) throw new AppError("CONFLICT", { message: "This gold item was answered meanwhile; reload the page." });
  const sections = TASKS[known.task].codebook(study);
  const codebook = codebookReason(sections, known.question, known.value);
  return {
    correct: answers[answers.length - 1].correct,
    known: codebook.split(":")[0] || String(known.value),
    reason: [known.reason.trim(), codebook].filter((s) => s !== "").join(" — "),
    outcome,
    score,
  };
}

export const qualificationSettingsSchema = z.object({
  slug: slugField,
  required: z.boolean(),
  consent: z.string().max(20_000, "the consent text is at most 20,000 characters"),
  goldItems: z.number().int().min(1, "at least one gold item").max(100),
  /** In percent on the form. */
  passMarkPercent: z.number().min(0).max(100),
  maxAttempts: z.number().int().min(1).max(20),
});

/** The lead sets the study's qualification (settings page). */
export async function updateQualificationSettings(account: Account, input: z.infer<typeof qualificationSettingsSchema>) {
  const study = await requireLedStudy(account, input.slug);
  return db.study.update({
    where: { id: study.id },
    data: { qualificationRequired: input.required, qualificationConsent: input.consent, qualificationGoldItems: input.goldItems, qualificationPassMark: input.passMarkPercent / 100, qualificationMaxAttempts: input.maxAttempts },
    select: RULES,
  });
}

/** The study's known answers, the most gold items an attempt can ask. */
export const goldAnswerCount = (studyId: string) => db.consensus.count({ where: { studyId, gold: true } });
