/**
 * Adjudication for every task type: per question, the queue of items the annotators
 * rated differently, most disagreeing first; one item's annotations side by side in its context;
 * the lead's consensus value with a reason. Consensus values are versioned (a save names the
 * version it was based on) and every change is appended to AnnotationHistory (kind CONSENSUS)
 * with who, when, the old and new value and the annotators' values it was decided from.
 *
 * Every query finds the study through leadStudyWhere: another lead's study is 404.
 */
import "server-only";
import { z } from "zod";
import { slugField } from "@/lib/validation/study-fields";
import { perItemAgreement, type AnswerValue } from "@/lib/agreement";
import { AppError } from "@/lib/errors";
import { referenceLabels } from "@/lib/claims";
import { db, Prisma } from "@/lib/db/client";
import { requireLedStudy, uncountedRaters } from "@/lib/data/study-access";
import { TaskType } from "@/lib/generated/prisma/enums";
import { answersByRater, type StudyItem } from "@/lib/analysis/gather";
import { gatherTaskColumns } from "@/lib/data/task-answers";
import type { StudyForAnalysis } from "@/lib/data/studies";
import { questionTable } from "@/lib/analysis/agreement-report";
import type { Question } from "@/lib/analysis/questions";
import { cachedForState } from "@/lib/data/report-cache";
import { TASK_LIST, TASKS, taskQuestions } from "@/lib/tasks";
import { byDisagreement, consensusOf, openDisagreement, type RatingSplit, ratingSplit } from "@/lib/tasks/consensus";
import { nextAfter } from "@/lib/annotation/next-after";
import type { ItemAnnotation, ItemKind } from "@/lib/tasks/types";
import { pairOfItem } from "@/lib/tasks/comment-questions";
import { HUMAN_SYSTEM } from "@/lib/analysis/comment-systems";
import { TASK_QUERIES } from "@/lib/data/task-queries";
import { storedConsensus, taskConsensus, type StoredConsensus } from "@/lib/data/consensus";
import { annotatorReliability, type AnnotatorReliability } from "@/lib/analysis/reliability";
import type { SessionAccount } from "@/lib/auth/authenticate";


export const TASK_TYPES = Object.keys(TASKS) as TaskType[];

function questionOf(study: StudyForAnalysis, task: TaskType, key: string): Question {
  const question = taskQuestions(task, study).find((q) => q.key === key);
  if (!question) throw new AppError("NOT_FOUND", { message: `No question "${key}" in ${TASKS[task].name}.` });
  return question;
}

export interface QueueEntry {
  item: StudyItem;
  /** Share of agreeing rater pairs (1 = unanimous). */
  agreement: number | null;
  range: number | null;
  ratings: { rater: string; value: AnswerValue }[];
  /** Where the annotators agree, disagree or tie. */
  split: RatingSplit;
  consensus: StoredConsensus | null;
}

export interface AdjudicationQueue {
  study: { slug: string; name: string; tasks: TaskType[] };
  task: TaskType;
  questions: Question[];
  question: Question;
  /** Items rated differently and not adjudicated yet, most disagreeing first. */
  open: QueueEntry[];
  /** Items with a lead's consensus value. */
  adjudicated: QueueEntry[];
  /** Items rated by two or more annotators who all agree. */
  unanimous: number;
}

/** The adjudication queue of one question of one task (defaults: the study's first task and its first question). */
export async function adjudicationQueue(account: Pick<SessionAccount, "id" | "role">, slug: string, task?: TaskType, questionKey?: string): Promise<AdjudicationQueue> {
  const study = await requireLedStudy(account, slug);
  const chosen = task ?? study.tasks[0] ?? TASK_LIST[0].task;
  const questions = taskQuestions(chosen, study);
  const question = questionKey ? questionOf(study, chosen, questionKey) : questions[0];
  const [data, stored] = await Promise.all([gatherTaskColumns(study, chosen, db, { gold: "include" }), storedConsensus(db, study.id, chosen)]);
  const table = questionTable(data, data.questions.find((q) => q.question.key === question.key)!);
  const items = new Map(data.items.map((item) => [item.id, item]));
  const names = new Map((await db.account.findMany({ where: { id: { in: [...table.raters] } }, select: { id: true, name: true } })).map((u) => [u.id, u.name]));
  const entries = perItemAgreement(table)
    .filter((p) => p.n >= 2)
    .map((p) => ({
      item: items.get(p.item)!,
      agreement: p.agreement,
      range: p.range,
      ratings: p.ratings.map((r) => ({ rater: names.get(r.rater) ?? r.rater, value: r.value })),
      split: ratingSplit(p.ratings.map((r) => r.value)),
      consensus: stored.get(p.item)?.get(question.key) ?? null,
    }))
    .sort((a, b) => byDisagreement({ ...a, order: a.item.order }, { ...b, order: b.item.order }));
  return {
    study: { slug: study.slug, name: study.name, tasks: study.tasks },
    task: chosen,
    questions,
    question,
    open: entries.filter((e) => openDisagreement({ n: e.ratings.length, agreement: e.agreement }, e.consensus !== null)),
    adjudicated: entries.filter((e) => e.consensus !== null),
    unanimous: entries.filter((e) => e.consensus === null && e.agreement === 1).length,
  };
}

/**
 * The open disagreement of the question's queue (least agreement first) after `itemId`, or its
 * first one when `itemId` has left the queue (it was just decided); null when none is left.
 */
export async function nextOpenDisagreement(account: Pick<SessionAccount, "id" | "role">, slug: string, task: TaskType, questionKey: string | undefined, itemId: string): Promise<{ itemId: string; label: string; question: Question } | null> {
  const queue = await adjudicationQueue(account, slug, task, questionKey);
  const next = nextAfter(queue.open.map((e) => ({ id: e.item.id, label: e.item.label })), itemId);
  return next && { itemId: next.id, label: next.label, question: queue.question };
}

export interface HistoryEntry {
  question: string;
  action: string;
  value: unknown;
  gold: boolean;
  reason: string;
  fromValues: Record<string, unknown>;
  by: string | null;
  at: Date;
}

export interface AdjudicationItem {
  study: { slug: string; name: string };
  task: TaskType;
  taskName: string;
  item: { id: string; kind: ItemKind; label: string; text: string; system: string | null };
  change: { id: string; externalId: string; filePath: string; language: string; diff: string; oldFile: string; newFile: string; consolidated: boolean };
  /** The human reference review of the change (GradedReviews grades against it). */
  reference: string | null;
  /** The change's claims and smells (CRScore pseudo-references). */
  pseudoReferences: { kind: string; text: string }[];
  questions: Question[];
  annotations: ItemAnnotation[];
  consensus: Record<string, (StoredConsensus & { source: "adjudicated" }) | { value: AnswerValue; source: "unanimous" } | null>;
  history: HistoryEntry[];
}

/** The item of a task in the study as adjudication and qualification show it: its code change, label and text. */
export async function itemContext(studyId: string, task: TaskType, itemId: string) {
  if (TASKS[task].itemKind === "pseudoReference") {
    const ref = await db.pseudoReference.findFirst({ where: { id: itemId, codeChange: { studyId } }, select: { id: true, text: true, codeChangeId: true } });
    if (!ref) throw new AppError("NOT_FOUND", { message: "No such claim in this study." });
    const references = await db.pseudoReference.findMany({ where: { codeChangeId: ref.codeChangeId }, orderBy: [{ position: "asc" }, { id: "asc" }], select: { id: true, kind: true, correctsId: true } });
    const label = referenceLabels(references)[references.findIndex((r) => r.id === ref.id)];
    return { codeChangeId: ref.codeChangeId, item: { id: ref.id, kind: "pseudoReference" as const, label, text: ref.text, system: null } };
  }
  if (TASKS[task].itemKind === "reviewComment" && pairOfItem(itemId)) {
    // A pair of the matching question: the system's comment, then the human comment it is matched to.
    const pair = pairOfItem(itemId)!;
    const select = { id: true, body: true, system: true, codeChangeId: true, path: true, line: true } as const;
    const [comment, human] = await Promise.all([
      db.reviewComment.findFirst({ where: { id: pair.commentId, codeChange: { studyId }, system: { not: HUMAN_SYSTEM } }, select }),
      db.reviewComment.findFirst({ where: { id: pair.humanCommentId, codeChange: { studyId }, system: HUMAN_SYSTEM }, select }),
    ]);
    if (!comment || !human) throw new AppError("NOT_FOUND", { message: "No such pair of a system's comment and a human comment in this study." });
    const at = (c: typeof comment) => `${c.path}${c.line === null ? "" : `:${c.line}`}`;
    return {
      codeChangeId: comment.codeChangeId,
      item: { id: itemId, kind: "reviewComment" as const, label: `${comment.system} on ${at(comment)} ~ human on ${at(human)}`, text: `${comment.body}\n\n---\nHuman comment on ${at(human)}:\n\n${human.body}`, system: comment.system },
    };
  }
  if (TASKS[task].itemKind === "reviewComment") {
    const comment = await db.reviewComment.findFirst({ where: { id: itemId, codeChange: { studyId } }, select: { id: true, body: true, system: true, codeChangeId: true, path: true, line: true } });
    if (!comment) throw new AppError("NOT_FOUND", { message: "No such review comment in this study." });
    return { codeChangeId: comment.codeChangeId, item: { id: comment.id, kind: "reviewComment" as const, label: `${comment.system} on ${comment.path}${comment.line === null ? "" : `:${comment.line}`}`, text: comment.body, system: comment.system } };
  }
  const review = await db.review.findFirst({ where: { id: itemId, codeChange: { studyId } }, select: { id: true, text: true, system: true, codeChangeId: true } });
  if (!review) throw new AppError("NOT_FOUND", { message: "No such review in this study." });
  return { codeChangeId: review.codeChangeId, item: { id: review.id, kind: "review" as const, label: review.system, text: review.text, system: review.system } };
}

/** An item's annotations as adjudication weighs them: judge raters only when one of their runs opted in, no annotator who failed the qualification. */
async function countedAnnotations(studyId: string, task: TaskType, itemId: string, questions: Question[]): Promise<ItemAnnotation[]> {
  const [annotations, uncounted] = await Promise.all([TASK_QUERIES[task].itemAnnotations(db, itemId, questions), uncountedRaters(studyId)]);
  return annotations.filter((a) => !uncounted.has(a.annotatorId));
}

/** One item's annotations side by side, in its context, with the consensus and its history. */
export async function adjudicationItem(account: Pick<SessionAccount, "id" | "role">, slug: string, task: TaskType, itemId: string): Promise<AdjudicationItem> {
  const study = await requireLedStudy(account, slug);
  const { codeChangeId, item } = await itemContext(study.id, task, itemId);
  const questions = taskQuestions(task, study);
  const [change, reference, pseudoReferences, annotations, stored] = await Promise.all([
    db.codeChange.findUniqueOrThrow({ where: { id: codeChangeId }, select: { id: true, externalId: true, filePath: true, language: true, diff: true, oldFile: true, newFile: true, consolidatedAt: true } }),
    db.review.findFirst({ where: { codeChangeId, isReference: true }, select: { text: true } }),
    db.pseudoReference.findMany({ where: { codeChangeId, kind: { not: "ANNOTATOR_ADDED" } }, orderBy: [{ position: "asc" }, { id: "asc" }], select: { kind: true, text: true } }),
    countedAnnotations(study.id, task, itemId, questions),
    db.consensus.findMany({ where: { studyId: study.id, task, itemId }, include: { decidedBy: { select: { name: true } } } }),
  ]);
  const history = await db.annotationHistory.findMany({
    where: { kind: "CONSENSUS", annotationId: { in: stored.map((s) => s.id) } },
    orderBy: { id: "desc" },
    include: { account: { select: { name: true } } },
  });
  const questionOfId = new Map(stored.map((s) => [s.id, s.question]));
  const consensus: AdjudicationItem["consensus"] = {};
  for (const q of questions) {
    const s = stored.find((c) => c.question === q.key);
    const values = annotations.map((a) => a.values[q.key]).filter((v): v is AnswerValue => v !== null && v !== undefined);
    const c = consensusOf(values, s?.value as AnswerValue | undefined);
    consensus[q.key] = s
      ? { id: s.id, value: s.value as AnswerValue, reason: s.reason, version: s.version, decidedBy: s.decidedBy?.name ?? null, decidedAt: s.decidedAt, gold: s.gold, source: "adjudicated" }
      : c && { value: c.value, source: "unanimous" };
  }
  return {
    study: { slug: study.slug, name: study.name },
    task,
    taskName: TASKS[task].name,
    item,
    change: { ...change, consolidated: change.consolidatedAt !== null },
    reference: TASKS[task].itemKind === "review" ? (reference?.text ?? null) : null,
    pseudoReferences,
    questions,
    annotations,
    consensus,
    history: history.map((h) => {
      const v = (h.newValue ?? {}) as { value?: unknown; reason?: string; fromValues?: Record<string, unknown>; gold?: boolean };
      return { question: questionOfId.get(h.annotationId) ?? "", action: h.action, value: v.value ?? null, gold: v.gold === true, reason: v.reason ?? "", fromValues: v.fromValues ?? {}, by: h.account?.name ?? null, at: h.createdAt };
    }),
  };
}

export const consensusSchema = z.object({
  slug: slugField,
  task: z.enum(TaskType),
  itemId: z.string().min(1),
  question: z.string().min(1),
  value: z.union([z.string().min(1), z.number()]),
  reason: z.string().trim().min(1, "give a reason for the consensus value").max(5000),
  /** Version the decision was based on; 0 when the item had no consensus value yet. */
  baseVersion: z.number().int().min(0),
  /** Mark the value as a known answer (gold item) or not; unchanged when absent. */
  gold: z.boolean().optional(),
});

export type ConsensusInput = z.infer<typeof consensusSchema>;

/** Saves the lead's consensus value for one question of one item; a stale base version is refused (409). */
export async function saveConsensus(account: Pick<SessionAccount, "id" | "role">, input: ConsensusInput): Promise<{ id: string; version: number }> {
  const study = await requireLedStudy(account, input.slug);
  const question = questionOf(study, input.task, input.question);
  if (!question.scale.includes(input.value)) throw new AppError("INVALID_INPUT", { message: `${input.value} is not on the scale of "${question.label}" (${question.scale.join(", ")}).` });
  await itemContext(study.id, input.task, input.itemId);
  const annotations = await countedAnnotations(study.id, input.task, input.itemId, [question]);
  const fromValues = Object.fromEntries(annotations.filter((a) => a.values[question.key] !== null).map((a) => [a.annotator, a.values[question.key]]));
  return db.$transaction(async (tx) => {
    const where = { task_itemId_question: { task: input.task, itemId: input.itemId, question: question.key } };
    const current = await tx.consensus.findUnique({ where });
    if ((current?.version ?? 0) !== input.baseVersion) throw new AppError("CONFLICT", { message: `Not saved: the consensus was changed meanwhile (version ${current?.version ?? 0}, yours was based on ${input.baseVersion}). Reload to see it.` });
    const gold = input.gold ?? current?.gold ?? false;
    const record = { value: input.value, reason: input.reason, fromValues, gold } as Prisma.InputJsonObject;
    const data = { value: input.value, reason: input.reason, fromValues, gold, decidedById: account.id, decidedAt: new Date() };
    const saved = current
      ? await tx.consensus.update({ where: { id: current.id, version: current.version }, data: { ...data, version: { increment: 1 } } })
      : await tx.consensus.create({ data: { ...data, studyId: study.id, task: input.task, itemId: input.itemId, question: question.key } });
    await tx.annotationHistory.create({
      data: {
        kind: "CONSENSUS",
        annotationId: saved.id,
        accountId: account.id,
        action: current ? "UPDATE" : "CREATE",
        baseVersion: input.baseVersion,
        oldValue: current ? ({ value: current.value, reason: current.reason, fromValues: current.fromValues, gold: current.gold } as Prisma.InputJsonObject) : Prisma.DbNull,
        newValue: record,
      },
    });
    return { id: saved.id, version: saved.version };
  });
}

export interface QuestionReliability {
  question: Question;
  annotators: (AnnotatorReliability & { name: string })[];
}

/**
 * Each annotator's agreement with the consensus and with every other annotator, and their
 * competence, per question of one task; with the study's `fingerprint` (studyFingerprint),
 * computed once per state of its data.
 */
export async function taskReliability(account: Pick<SessionAccount, "id" | "role">, slug: string, task: TaskType, fingerprint?: string): Promise<QuestionReliability[]> {
  const study = await requireLedStudy(account, slug);
  return fingerprint === undefined ? studyTaskReliability(study, task) : cachedForState("reliability", study.id, { task }, fingerprint, () => studyTaskReliability(study, task));
}

async function studyTaskReliability(study: StudyForAnalysis, task: TaskType): Promise<QuestionReliability[]> {
  const [data, consensus] = await Promise.all([gatherTaskColumns(study, task), taskConsensus(db, study, task)]);
  const names = new Map((await db.account.findMany({ where: { id: { in: data.raters } }, select: { id: true, name: true } })).map((u) => [u.id, u.name]));
  return data.questions.map((q) => {
    // Unanimous values are left to annotatorReliability, which takes them without the annotator compared.
    const adjudicated = new Map([...consensus].flatMap(([item, questions]) => {
      const c = questions.get(q.question.key);
      return c?.source === "adjudicated" ? [[item, c.value] as const] : [];
    }));
    const annotators = annotatorReliability(q.question, answersByRater(data, q), adjudicated).map((a) => ({
      ...a,
      name: names.get(a.rater) ?? a.rater,
      withOthers: a.withOthers.map((o) => ({ ...o, rater: names.get(o.rater) ?? o.rater })),
    }));
    return { question: q.question, annotators };
  });
}
