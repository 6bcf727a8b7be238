/**
 * Judge runs and their rater (docs/judges.md): the judge's account (`kind` JUDGE, named
 * "judge:NAME", never able to sign in), the items a question asks about with what a prompt shows
 * of them, and each answer stored twice: the item's JudgeAnswer (raw replies, parsed value or
 * parse failure, tokens, cost, latency) and, when parsed, the judge's annotation written through
 * the task's storage as an annotator's save writes it (lib/tasks, TASK_QUERIES), with its history.
 */
import "server-only";
import { db, Prisma, type PrismaClient } from "@/lib/db/client";
import type { Account, JudgeRun, TaskType } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";
import { TASKS } from "@/lib/tasks";
import { TASK_QUERIES } from "@/lib/data/task-queries";
import { rowSaveTarget, type Tx } from "@/lib/data/annotation-rows";
import { stage2ReferencesFor } from "@/lib/data/review-ratings";
import type { SaveRequest } from "@/lib/annotation/values";
import type { JudgeItem } from "@/lib/judges/rater-prompt";
import type { JudgeQuestion } from "@/lib/tasks/types";
import { pairItemId, pairOfItem } from "@/lib/tasks/comment-questions";
import { HUMAN_SYSTEM } from "@/lib/analysis/comment-systems";

/** The rater name of a judge: "judge:NAME". */
export const judgeRaterName = (name: string) => `judge:${name}`;

const NAME = /^[a-z0-9][a-z0-9._-]{0,59}$/;

/**
 * The judge's account, made on first use: no password, never active, kind JUDGE, so sign-in,
 * sessions, the accounts page and study membership never reach it (lib/data/accounts.ts,
 * lib/auth/authenticate.ts). Its e-mail is its rater name, which no person's address can be.
 */
export async function judgeAccount(name: string, client: Pick<PrismaClient, "account"> = db): Promise<Account> {
  if (!NAME.test(name)) throw new AppError("INVALID_INPUT", { message: `a judge's name is lowercase letters, digits, ".", "_" and "-" (at most 60), got "${name}"` });
  const rater = judgeRaterName(name);
  const account = await client.account.upsert({ where: { email: rater }, create: { email: rater, name: rater, kind: "JUDGE", active: false, role: "ANNOTATOR" }, update: {} });
  if (account.kind !== "JUDGE") throw new AppError("CONFLICT", { message: `the account ${rater} is not a judge` });
  return account;
}

/**
 * SQL: the annotation row's annotator (`annotator`, SQL) counts among the humans of study
 * `studyId` (a parameter): a person, or a judge one of whose runs in the study opted in.
 */
export function countedRaterSql(annotator: Prisma.Sql, studyId: string): Prisma.Sql {
  return Prisma.sql`NOT EXISTS (SELECT 1 FROM "User" j WHERE j.id = ${annotator} AND j.kind = 'JUDGE'
    AND NOT EXISTS (SELECT 1 FROM "JudgeRun" r WHERE r."judgeId" = j.id AND r."studyId" = ${studyId} AND r."inConsensus"))`;
}

/** The items a question asks about in the study, in study order, with what a prompt shows of each (`page`: only these, e.g. one for a prompt's preview). */
export async function judgeItems(studyId: string, question: JudgeQuestion, judgeId: string, client: PrismaClient = db, page: { skip: number; take: number } | Record<string, never> = {}): Promise<JudgeItem[]> {
  const change = { diff: true, oldFile: true, newFile: true };
  const order = [{ codeChange: { position: "asc" as const } }, { position: "asc" as const }, { id: "asc" as const }];
  const of = (c: { diff: string; oldFile: string; newFile: string }) => ({ diff: c.diff, oldFile: c.oldFile, newFile: c.newFile });
  switch (TASKS[question.task].itemKind) {
    case "pseudoReference": {
      const claims = await client.pseudoReference.findMany({ where: { codeChange: { studyId }, kind: { in: ["CLAIM", "IMPLICATION"] } }, orderBy: order, ...page, include: { codeChange: { select: change } } });
      return claims.map((c) => ({ id: c.id, codeChangeId: c.codeChangeId, ...of(c.codeChange), text: c.text, reference: "", claims: [], test: null }));
    }
    case "review": {
      const grading = question.task === "REFERENCE_GRADING";
      const reviews = await client.review.findMany({
        where: { codeChange: { studyId }, textMissing: false, ...(grading ? { isReference: false, codeChange: { studyId, reviews: { some: { isReference: true } } } } : {}) },
        orderBy: order,
        ...page,
        include: { codeChange: { select: { ...change, reviews: { where: { isReference: true }, select: { text: true }, take: 1 } } } },
      });
      const claimsOf = new Map<string, { id: string; text: string }[]>();
      if (question.key === "links") {
        for (const id of new Set(reviews.map((r) => r.codeChangeId))) claimsOf.set(id, (await stage2ReferencesFor(client, judgeId, id)).references.map((r) => ({ id: r.id, text: r.text })));
      }
      return reviews.map((r) => ({ id: r.id, codeChangeId: r.codeChangeId, ...of(r.codeChange), text: r.text, reference: r.codeChange.reviews[0]?.text ?? "", claims: claimsOf.get(r.codeChangeId) ?? [], test: null }));
    }
    case "reviewComment": {
      if (question.pairs) {
        // The matching question: each system comment with each human comment of its pull request, the human one as the reference.
        const systems = await client.reviewComment.findMany({
          where: { pullRequest: { codeChanges: { some: { studyId } } }, system: { not: HUMAN_SYSTEM } },
          orderBy: [{ pullRequestId: "asc" }, { position: "asc" }, { id: "asc" }],
          include: { codeChange: { select: change }, pullRequest: { select: { comments: { where: { system: HUMAN_SYSTEM }, orderBy: [{ position: "asc" }, { id: "asc" }], select: { id: true, body: true } } } } },
        });
        const pairs = systems.flatMap((c) => c.pullRequest.comments.map((h) => ({ id: pairItemId(c.id, h.id), codeChangeId: c.codeChangeId, ...of(c.codeChange), text: c.body, reference: h.body, claims: [], test: null })));
        return "skip" in page ? pairs.slice(page.skip, page.skip + page.take) : pairs;
      }
      const comments = await client.reviewComment.findMany({
        where: { pullRequest: { codeChanges: { some: { studyId } } }, ...(question.withTest ? { testText: { not: null } } : {}) },
        orderBy: [{ pullRequestId: "asc" }, { position: "asc" }, { id: "asc" }],
        ...page,
        include: { codeChange: { select: change } },
      });
      return comments.map((c) => ({ id: c.id, codeChangeId: c.codeChangeId, ...of(c.codeChange), text: c.body, reference: "", claims: [], test: c.testText }));
    }
  }
}

/** What makes two runs the same computation: a run with all of these unfinished is resumed. */
export interface JudgeRunSpec {
  studyId: string;
  judgeId: string;
  task: TaskType;
  question: string;
  model: string;
  promptVersion: string;
  promptId: string;
  temperature: number;
  seed: number | null;
  trials: number;
  concurrency: number;
  inConsensus: boolean;
  budgetUsd: number | null;
  budgetTokens: number | null;
  createdById: string | null;
}

/** The unfinished run of the same computation (resumed), or a new one of `total` items; in `status` (QUEUED while it waits for the worker). */
export async function startJudgeRun(spec: JudgeRunSpec, total: number, status: "QUEUED" | "RUNNING" = "RUNNING", client: PrismaClient = db): Promise<{ run: JudgeRun; resumed: boolean }> {
  const { concurrency, budgetUsd, budgetTokens, createdById: _startedBy, inConsensus, ...same } = spec;
  const open = await client.judgeRun.findFirst({ where: { ...same, status: { not: "DONE" } }, orderBy: { createdAt: "desc" } });
  if (open) {
    const run = await client.judgeRun.update({ where: { id: open.id }, data: { status, error: null, finishedAt: null, total, concurrency, budgetUsd, budgetTokens, inConsensus } });
    return { run, resumed: true };
  }
  return { run: await client.judgeRun.create({ data: { ...spec, status, total } }), resumed: false };
}

/** The study's run with this id, or null. */
export async function findStudyJudgeRun(studyId: string, runId: string, client: PrismaClient = db): Promise<JudgeRun | null> {
  return client.judgeRun.findFirst({ where: { id: runId, studyId } });
}

/** The run waits for the worker again (resumed from a page). */
export async function markJudgeRunQueued(runId: string, client: PrismaClient = db): Promise<JudgeRun> {
  return client.judgeRun.update({ where: { id: runId }, data: { status: "QUEUED", error: null, finishedAt: null } });
}

/** A stored run's settings as runJudge takes them (the worker resumes it from these), or null. */
export async function judgeRunOptions(runId: string, client: PrismaClient = db) {
  const run = await client.judgeRun.findUnique({ where: { id: runId }, include: { study: { select: { slug: true } }, judge: { select: { name: true } } } });
  if (!run) return null;
  return {
    study: run.study.slug,
    task: run.task,
    question: run.question,
    name: run.judge.name.slice("judge:".length),
    promptVersion: run.promptVersion,
    temperature: run.temperature,
    seed: run.seed,
    trials: run.trials,
    concurrency: run.concurrency,
    inConsensus: run.inConsensus,
    budgetUsd: run.budgetUsd,
    budgetTokens: run.budgetTokens,
    createdById: run.createdById,
    llm: { model: run.model },
  };
}

/** The items the run has answered (parsed or not). */
export async function answeredItems(runId: string, client: PrismaClient = db): Promise<Set<string>> {
  return new Set((await client.judgeAnswer.findMany({ where: { runId }, select: { itemId: true } })).map((a) => a.itemId));
}

/** What the run's answers so far spent (requests actually sent, not cached answers). */
export async function judgeRunSpent(runId: string, client: PrismaClient = db): Promise<{ tokens: number; usd: number }> {
  const sum = await client.judgeAnswer.aggregate({ where: { runId, cached: false }, _sum: { promptTokens: true, completionTokens: true, costUsd: true } });
  return { tokens: (sum._sum.promptTokens ?? 0) + (sum._sum.completionTokens ?? 0), usd: sum._sum.costUsd ?? 0 };
}

export interface JudgedItem {
  item: JudgeItem;
  raw: string[];
  /** The value stored as the judge's annotation; null when the replies could not be read. */
  value: unknown;
  error: string | null;
  promptTokens: number;
  completionTokens: number;
  costUsd: number | null;
  latencyMs: number;
  cached: boolean;
}

/**
 * Stores one item's answer in one transaction: the judge's annotation (the value `apply` makes
 * of what the judge stored before) through the task's storage with its history row, the
 * JudgeAnswer, and the run's progress.
 */
export async function storeJudgedItem(run: JudgeRun, question: JudgeQuestion, judged: Omit<JudgedItem, "value"> & { answer: Parameters<JudgeQuestion["apply"]>[1] | null; reason: string }, client: PrismaClient = db): Promise<void> {
  await client.$transaction(async (tx) => {
    let value: unknown = null;
    if (judged.answer !== null) value = await saveJudgeAnnotation(tx, run, question, judged.item, judged.answer, judged.reason);
    await tx.judgeAnswer.create({
      data: {
        runId: run.id,
        itemId: judged.item.id,
        raw: judged.raw,
        value: value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue),
        error: judged.error,
        promptTokens: judged.promptTokens,
        completionTokens: judged.completionTokens,
        costUsd: judged.costUsd,
        latencyMs: Math.round(judged.latencyMs),
        cached: judged.cached,
      },
    });
    await tx.judgeRun.update({ where: { id: run.id }, data: { done: { increment: 1 } } });
  });
}

async function saveJudgeAnnotation(tx: Tx, run: JudgeRun, question: JudgeQuestion, item: JudgeItem, answer: Parameters<JudgeQuestion["apply"]>[1], reason: string): Promise<unknown> {
  const task = TASKS[question.task];
  const kind = question.kind;
  const ctx = { tx, annotatorId: run.judgeId, codeChangeId: item.codeChangeId, studyId: run.studyId };
  // The save a workspace would send, with the value made from the judge's current one below.
  // A pair of the matching question is stored in its system comment's answers.
  const pair = question.pairs ? pairOfItem(item.id) : null;
  const targetId = pair?.commentId ?? item.id;
  // A comment's pairs are answered concurrently and stored in one row: one after the other.
  if (pair) await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${targetId}))::text`;
  const request = (value: unknown, baseVersion: number) => ({ kind, assignmentId: "", targetId, baseVersion, value }) as SaveRequest;
  const row = task.values[kind]!.row;
  const links = item.claims.map((c) => c.id);
  const probe = row ? await rowSaveTarget(ctx, task, row, targetId) : await TASK_QUERIES[task.task].saveTarget!(ctx, request(question.apply(null, answer, reason, links, pair?.humanCommentId), 0));
  const current = probe.current;
  const value = question.apply(current?.value ?? null, answer, reason, links, pair?.humanCommentId);
  const parsed = task.values[kind]!.schema.safeParse(value);
  if (!parsed.success) throw new AppError("INVALID_INPUT", { message: `the judge's ${question.key} of ${item.id} is not a valid ${kind}: ${parsed.error.issues[0]?.message}` });
  const target = row ? probe : await TASK_QUERIES[task.task].saveTarget!(ctx, request(value, current?.version ?? 0));
  let id: string;
  if (current) {
    if (!(await target.update(current.id, current.version, value))) throw new AppError("CONFLICT", { message: `the judge's annotation of ${item.id} changed meanwhile` });
    id = current.id;
  } else id = await target.create(value);
  await tx.annotationHistory.create({
    data: {
      kind: task.values[kind]!.history,
      annotationId: id,
      accountId: run.judgeId,
      action: current ? "UPDATE" : "CREATE",
      baseVersion: current?.version ?? 0,
      oldValue: current ? (current.value as Prisma.InputJsonValue) : Prisma.DbNull,
      newValue: value as Prisma.InputJsonValue,
    },
  });
  return value;
}

export async function finishJudgeRun(runId: string, outcome: { status: "DONE" | "FAILED"; error?: string }, client: PrismaClient = db): Promise<JudgeRun> {
  return client.judgeRun.update({ where: { id: runId }, data: { status: outcome.status, error: outcome.error ?? null, finishedAt: new Date() } });
}

/** A run with its answers' totals: parse failures, cached answers, tokens, cost, latency. */
export async function judgeRunSummary(runId: string, client: PrismaClient = db) {
  const run = await client.judgeRun.findUniqueOrThrow({ where: { id: runId }, include: { judge: { select: { name: true } }, prompt: { select: { preset: true } } } });
  const answers = await client.judgeAnswer.findMany({ where: { runId }, select: { error: true, cached: true, promptTokens: true, completionTokens: true, costUsd: true, latencyMs: true } });
  const unpriced = answers.some((a) => a.costUsd === null && !a.cached && a.promptTokens + a.completionTokens > 0);
  return {
    id: run.id,
    rater: run.judge.name,
    task: run.task,
    question: run.question,
    model: run.model,
    promptVersion: run.promptVersion,
    preset: run.prompt.preset,
    temperature: run.temperature,
    seed: run.seed,
    trials: run.trials,
    inConsensus: run.inConsensus,
    status: run.status,
    error: run.error,
    total: run.total,
    done: run.done,
    answers: answers.filter((a) => a.error === null).length,
    parseFailures: answers.filter((a) => a.error !== null).length,
    cached: answers.filter((a) => a.cached).length,
    promptTokens: answers.reduce((s, a) => s + a.promptTokens, 0),
    completionTokens: answers.reduce((s, a) => s + a.completionTokens, 0),
    costUsd: unpriced ? null : answers.reduce((s, a) => s + (a.costUsd ?? 0), 0),
  };
}


/** The judge raters with runs on the task in the study (every one, opted in or not). */
export async function studyJudges(studyId: string, task: TaskType, client: PrismaClient = db): Promise<Set<string>> {
  const runs = await client.judgeRun.findMany({ where: { studyId, task }, distinct: ["judgeId"], select: { judgeId: true } });
  return new Set(runs.map((r) => r.judgeId));
}
