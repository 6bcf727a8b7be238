/**
 * Annotators' reads and writes in the workspace. Every query is scoped by the annotator's own
 * id in its where-clause (assignment `{ id, accountId }` in a study the annotator is a member of,
 * annotation `{ annotatorId, ... }`), so a forged assignment, claim or review id finds nothing
 * and writes nothing (404).
 *
 * Writes use optimistic concurrency (lib/annotation/versioning): a save names the version it
 * was based on; an accepted change bumps the version and appends an AnnotationHistory row with
 * the old and new value in the same transaction; a stale save is refused (ConflictError, 409)
 * and leaves a CONFLICT history row holding the refused value next to the stored one.
 */
import "server-only";
import type { SessionAccount } from "@/lib/auth/authenticate";
import type { SessionClaims } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { db, Prisma } from "@/lib/db/client";
import { annotatingStudyWhere, memberStudyWhere, PAUSED_MESSAGE, QUALIFICATION_MESSAGE } from "@/lib/data/study-access";
import { heldByRounds, codeChangeRound, roundMembershipSelect, roundsGate } from "@/lib/data/round-gate";
import { releaseDueRoundAfter } from "@/lib/data/rounds";
import { FINISH_STAGE_1, waitingFor, waitingText } from "@/lib/annotation/waiting";
import { assignmentStates, assignmentStateSelect } from "@/lib/data/assignments";
import type { AssignmentStatus, TaskType } from "@/lib/generated/prisma/client";
import { hashSeed } from "@/lib/annotation/random";
import { stageOrderOn, type StageOrderSetting } from "@/lib/annotation/stage-order";
import type { StudyScales } from "@/lib/analysis/questions";
import { decideSave } from "@/lib/annotation/versioning";
import { saveInOneStatement } from "@/lib/data/annotation-statement";
import { findSessionAccount } from "@/lib/data/accounts";
import { MAX_TIME_REPORT_MS, type SaveRequest } from "@/lib/annotation/values";
import { describeMissing, type MissingAnswer } from "@/lib/annotation/completeness";
import { addAnnotationTime, importedAnnotation, rowSaveTarget } from "@/lib/data/annotation-rows";
import { TASK_QUERIES } from "@/lib/data/task-queries";
import { storedEntries, storedValues } from "@/lib/annotation/stored-answers";
import { commentQuestionsOf } from "@/lib/annotation/comment-questions";
import { missingAnswers, TASKS, taskOfKind, taskOfTimeKey, type WorkspaceData } from "@/lib/tasks";
import type { StoredEntry, TaskWorkspace } from "@/lib/tasks/types";
import type { DiffSource } from "@/lib/diff";
import { FIRST_FILES, firstScreenFiles } from "@/lib/review-comments/display";

export type { Versioned, WorkspaceData, WorkspaceReview } from "@/lib/tasks";
export { stage2ReferencesFor } from "@/lib/data/review-ratings";

type Tx = Prisma.TransactionClient;

/** A save based on a stale version: CONFLICT carrying both values, so the workspace can offer a choice. */
export class ConflictError extends AppError {
  constructor(
    readonly current: { id: string | null; version: number; value: unknown } | null,
    readonly attempted: { baseVersion: number; value: unknown },
    reason: string,
  ) {
    super("CONFLICT", { message: `Not saved: this annotation was changed elsewhere (${reason}). Both values are shown; choose which to keep.`, details: { conflict: { current, attempted } } });
  }
}

// ---------------------------------------------------------------------------------------------
// Reading the workspace

async function findOwnAssignment(client: Tx | typeof db, accountId: string, assignmentId: string) {
  const assignment = await client.assignment.findFirst({
    where: { id: assignmentId, annotatorId: accountId, study: annotatingStudyWhere(accountId), codeChange: { NOT: heldByRounds } },
    select: { id: true, annotatorId: true, studyId: true, codeChangeId: true, task: true, status: true, skipReason: true, timeSpentMs: true, position: true, inReliabilitySet: true },
  });
  if (assignment) return assignment;
  // Paused in the assignment's study, or held by the calibration rounds: say so (423) rather than "no such assignment".
  const own = await client.assignment.findFirst({
    where: { id: assignmentId, annotatorId: accountId, study: memberStudyWhere(accountId) },
    select: { studyId: true, task: true, study: { select: { members: { where: { accountId }, select: { pausedAt: true, role: true, qualifiedAt: true } }, qualificationRequired: true } }, codeChange: { select: roundMembershipSelect } },
  });
  if (own?.study.members.some((m) => m.pausedAt !== null)) throw new AppError("LOCKED", { message: PAUSED_MESSAGE });
  if (own?.study.qualificationRequired && own.study.members.some((m) => m.role === "ANNOTATOR" && m.qualifiedAt === null)) throw new AppError("LOCKED", { message: QUALIFICATION_MESSAGE });
  const waiting = own && waitingFor({ round: codeChangeRound(own.codeChange.itemSetMembers), rounds: await roundsGate(client, own.studyId), task: own.task, stageOrder: false, consolidated: false, ownStage1Open: false });
  if (waiting) throw new AppError("LOCKED", { message: waitingText(waiting) });
  throw new AppError("NOT_FOUND", { message: "No such assignment in your queue." });
}

/** Everything the workspace page shows for one of the annotator's own assignments. */
/** The import that wrote some of the account's answers of this task on this code change, if any. */
export async function importedHere(accountId: string, codeChangeId: string, task: TaskType): Promise<WorkspaceData["imported"]> {
  const found = await importedAnnotation(db, TASKS[task], accountId, codeChangeId);
  if (!found?.importRun) return null;
  return { file: found.importedFile ?? "", by: found.importRun.createdBy?.name ?? "the command line", at: found.importRun.createdAt.toISOString() };
}

/** What the workspace reads of a study. */
export const workspaceStudySelect = { slug: true, name: true, guidelines: true, likertDimensions: true, likertMin: true, likertMax: true, hideSystemNames: true, assignmentSeed: true, stageOrder: true, tasks: true, commentQuestions: true } as const;

/** The study's part of the workspace data. */
export function workspaceStudy(study: WorkspaceData["study"]): WorkspaceData["study"] {
  return { slug: study.slug, name: study.name, guidelines: study.guidelines, likertDimensions: study.likertDimensions, likertMin: study.likertMin, likertMax: study.likertMax, hideSystemNames: study.hideSystemNames };
}

/**
 * The code change as the workspace shows it: the item, and its diff first among the pull
 * request's files; with `files`, the diffs of at most that many of the pull request's first
 * files, those the first screen shows (`firstScreenFiles`; the annotator's pull-request workspace
 * loads the others as they near the screen: `assignmentFileSource`).
 */
export async function readItem(codeChangeId: string, files?: number): Promise<Pick<WorkspaceData, "item" | "sources">> {
  const change = await db.codeChange.findUniqueOrThrow({
    where: { id: codeChangeId },
    select: {
      id: true,
      externalId: true,
      language: true,
      filePath: true,
      diff: true,
      oldFile: true,
      newFile: true,
      consolidatedAt: true,
      pullRequest: {
        select: {
          externalId: true,
          title: true,
          repository: true,
          description: true,
          // The item's own file is read above, once.
          codeChanges: { where: { id: { not: codeChangeId } }, orderBy: [{ position: "asc" }, { id: "asc" }], ...(files === undefined ? {} : { take: Math.max(0, files - 1) }), select: { id: true, filePath: true, language: true, diff: true, oldFile: true, newFile: true } },
        },
      },
    },
  });
  const own: DiffSource = { key: change.id, path: change.filePath, language: change.language, diff: change.diff, oldFile: change.oldFile, newFile: change.newFile, primary: true };
  const siblings: DiffSource[] = (change.pullRequest?.codeChanges ?? []).map((c) => ({ key: c.id, path: c.filePath, language: c.language, diff: c.diff, oldFile: c.oldFile, newFile: c.newFile }));
  return {
    item: {
      id: change.id,
      externalId: change.externalId,
      language: change.language,
      filePath: change.filePath,
      pullRequest: change.pullRequest ? { externalId: change.pullRequest.externalId, title: change.pullRequest.title, repository: change.pullRequest.repository, description: change.pullRequest.description } : null,
      consolidated: change.consolidatedAt !== null,
    },
    sources: files === undefined ? [own, ...siblings] : firstScreenFiles([own, ...siblings]),
  };
}

/** The annotator's queue in one study with what each assignment waits for, and `workable`: what can be worked on now. */
async function queueStates(accountId: string, studyId: string) {
  const queue = await db.assignment.findMany({ where: { annotatorId: accountId, studyId }, orderBy: { position: "asc" }, select: assignmentStateSelect });
  const states = await assignmentStates(db, queue);
  // n and the move after a submit pass items that wait (a round, a consolidation) or come after the annotator's own stage 1.
  const workable = (a: { id: string }) => {
    const state = states.get(a.id);
    return state?.waiting === null && !state.afterOwnStage1;
  };
  return { queue, states, workable };
}

/** The first open, workable assignment after position `index` of the queue, wrapping around. */
function nextOpenOf(queue: readonly { id: string; status: AssignmentStatus }[], workable: (a: { id: string }) => boolean, index: number) {
  const open = (a: { id: string; status: AssignmentStatus }) => (a.status === "PENDING" || a.status === "IN_PROGRESS") && workable(a);
  return queue.slice(index + 1).find(open) ?? queue.slice(0, Math.max(0, index)).find(open) ?? null;
}

/**
 * The open item the annotator can work on after one of their own assignments that cannot be
 * opened now (it waits for a round): where its locked page sends them. Null when none is open,
 * or when the annotator is paused in the study.
 */
export async function nextOpenAfter(accountId: string, assignmentId: string): Promise<string | null> {
  const own = await db.assignment.findFirst({ where: { id: assignmentId, annotatorId: accountId, study: annotatingStudyWhere(accountId) }, select: { studyId: true } });
  if (!own) return null;
  const { queue, workable } = await queueStates(accountId, own.studyId);
  return nextOpenOf(queue, workable, queue.findIndex((a) => a.id === assignmentId))?.id ?? null;
}

export async function getWorkspace(accountId: string, assignmentId: string): Promise<WorkspaceData> {
  const assignment = await findOwnAssignment(db, accountId, assignmentId);
  // Independent reads (the task's waits for the study only), made together.
  const studyRead = db.study.findUniqueOrThrow({ where: { id: assignment.studyId }, select: workspaceStudySelect });
  const [study, { item, sources }, { queue, states, workable }, imported, task] = await Promise.all([
    studyRead,
    readItem(assignment.codeChangeId, TASKS[assignment.task].itemKind === "reviewComment" ? FIRST_FILES : undefined),
    queueStates(accountId, assignment.studyId),
    importedHere(accountId, assignment.codeChangeId, assignment.task),
    studyRead.then((s) => readTask(accountId, assignment, s)),
  ]);

  const index = queue.findIndex((a) => a.id === assignment.id);
  const nextOpen = nextOpenOf(queue, workable, index);

  const own = states.get(assignment.id);
  const stage1 = queue.find((a) => a.codeChangeId === item.id && a.task === "CLAIM_VERIFICATION");
  const blockedBy: WorkspaceData["blockedBy"] = own?.afterOwnStage1 ? { assignmentId: stage1?.id ?? null, message: FINISH_STAGE_1 } : own?.waiting ? { assignmentId: null, message: waitingText(own.waiting) } : null;

  const data: WorkspaceData = {
    assignment: {
      id: assignment.id,
      task: assignment.task,
      status: assignment.status,
      skipReason: assignment.skipReason,
      timeSpentMs: assignment.timeSpentMs,
      position: assignment.position,
      inReliabilitySet: assignment.inReliabilitySet,
    },
    study: workspaceStudy(study),
    item,
    sources,
    queue: {
      index,
      total: queue.length,
      done: queue.filter((a) => a.status === "DONE").length,
      previousId: queue[index - 1]?.id ?? null,
      nextId: queue.slice(index + 1).find(workable)?.id ?? null,
      nextOpenId: nextOpen?.id ?? null,
      waiting: queue.filter((a) => !workable(a)).length,
    },
    blockedBy,
    imported,
    stored: [],
  };
  Object.assign(data, task, { stored: storedEntries(task) });
  return data;
}

/**
 * One file of the pull request of one of the annotator's own assignments: its diff and contents,
 * which the pull-request workspace loads when the file comes near the screen (404 for a file of
 * another pull request, or an assignment not the annotator's).
 */
export async function assignmentFileSource(accountId: string, assignmentId: string, codeChangeId: string): Promise<DiffSource> {
  const assignment = await findOwnAssignment(db, accountId, assignmentId);
  const file = await db.codeChange.findFirst({
    where: { id: codeChangeId, pullRequest: { codeChanges: { some: { id: assignment.codeChangeId } } } },
    select: { id: true, filePath: true, language: true, diff: true, oldFile: true, newFile: true },
  });
  if (!file) throw new AppError("NOT_FOUND", { message: "No such file in this assignment's pull request." });
  return { key: file.id, path: file.filePath, language: file.language, diff: file.diff, oldFile: file.oldFile, newFile: file.newFile };
}

/** What `readTask` reads of a study. */
const taskStudySelect = { likertDimensions: true, likertMin: true, likertMax: true, hideSystemNames: true, assignmentSeed: true, stageOrder: true, tasks: true, commentQuestions: true } as const;

/**
 * The task part of the workspace (items and the annotator's stored answers) of one task on one
 * code change, in the annotator's own order of the reviews: what their workspace shows.
 */
export function readTask(accountId: string, assignment: { task: TaskType; codeChangeId: string }, study: Omit<StudyScales, "commentQuestions"> & StageOrderSetting & { hideSystemNames: boolean; assignmentSeed: number; commentQuestions: unknown }): Promise<TaskWorkspace> {
  const reviewSeed = hashSeed(study.assignmentSeed, accountId, assignment.codeChangeId, "reviews");
  const { likertDimensions, likertMin, likertMax, hideSystemNames } = study;
  const scales = { likertDimensions, likertMin, likertMax, commentQuestions: commentQuestionsOf(study.commentQuestions) };
  return TASK_QUERIES[assignment.task].readWorkspace({ client: db, accountId, codeChangeId: assignment.codeChangeId, study: { ...scales, hideSystemNames, stageOrder: stageOrderOn(study) }, reviewSeed });
}

/** What the annotator has stored on one of their own assignments now: the workspace reconciles with it after Back, forward or a change in another tab. */
export type StoredAnswers = { status: AssignmentStatus; timeSpentMs: number; stored: StoredEntry[] };

export async function getStoredAnswers(accountId: string, assignmentId: string): Promise<StoredAnswers> {
  const assignment = await findOwnAssignment(db, accountId, assignmentId);
  const study = await db.study.findUniqueOrThrow({ where: { id: assignment.studyId }, select: taskStudySelect });
  return { status: assignment.status, timeSpentMs: assignment.timeSpentMs, stored: storedEntries(await readTask(accountId, assignment, study)) };
}

// ---------------------------------------------------------------------------------------------
// Saving annotations

type OwnAssignment = Awaited<ReturnType<typeof findOwnAssignment>>;

export interface SaveResult {
  /** The annotation's id (for an added claim: the new pseudo-reference's id). */
  id: string | null;
  version: number;
  value: unknown;
  /** false when the value was already stored (a retried save) and nothing was written. */
  changed: boolean;
}

/**
 * Thrown inside the transaction to roll it back. With `current`, the save is stale and is
 * reported as a conflict; without, a concurrent save won a race and the save is tried again.
 */
class StaleSave extends Error {
  constructor(
    readonly reason: string,
    readonly current: { id: string; version: number; value: unknown } | null | undefined,
  ) {
    super(reason);
  }
}

function checkTask(assignment: OwnAssignment, kind: SaveRequest["kind"]) {
  const task = taskOfKind(kind).task;
  if (assignment.task !== task) throw new AppError("INVALID_INPUT", { message: `This assignment is ${assignment.task.toLowerCase().replace("_", " ")}, not ${task.toLowerCase().replace("_", " ")}.` });
  if (assignment.status === "SKIPPED") throw new AppError("LOCKED", { message: "You skipped this item; resume it before annotating." });
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/** Saves one annotation of the account's own assignment; see the module comment for the rules. */
export async function saveAnnotation(session: SessionClaims, request: SaveRequest): Promise<SaveResult> {
  // The common save is one statement; what it leaves (conflicts, repeats, refusals, ratings,
  // added claims, an account that may no longer act) takes the transaction, which decides and explains.
  await TASK_QUERIES[taskOfKind(request.kind).task].check?.(db, session.id, request);
  const saved = await saveInOneStatement(session, request);
  if (saved) return saved;
  const account = await findSessionAccount(session.id, session.sessionVersion);
  if (!account) throw new AppError("UNAUTHENTICATED", { message: "Sign in first." });
  const historyKind = taskOfKind(request.kind).values[request.kind]!.history;
  const deleting = request.kind === "addedClaim" && request.value.deleted === true;
  let stale: StaleSave | null = null;
  for (let attempt = 0; attempt < 3 && !stale; attempt++) {
    try {
      return await db.$transaction((tx) => applySave(tx, account, request, deleting));
    } catch (error) {
      // A concurrent save of the same annotation won the race: read again (it then shows as a conflict).
      if (error instanceof StaleSave && error.current !== undefined) stale = error;
      else if (!(error instanceof StaleSave) && !isUniqueViolation(error)) throw error;
    }
  }
  const current = stale?.current ?? null;
  const reason = stale?.reason ?? "concurrent saves";
  await db.annotationHistory.create({
    data: {
      kind: historyKind,
      annotationId: current?.id ?? request.targetId,
      accountId: account.id,
      action: "CONFLICT",
      baseVersion: request.baseVersion,
      oldValue: current ? (current.value as Prisma.InputJsonValue) : Prisma.DbNull,
      newValue: request.value as Prisma.InputJsonValue,
    },
  });
  throw new ConflictError(current, { baseVersion: request.baseVersion, value: request.value }, reason);
}

async function applySave(tx: Tx, account: SessionAccount, request: SaveRequest, deleting: boolean): Promise<SaveResult> {
  const historyKind = taskOfKind(request.kind).values[request.kind]!.history;
  const assignment = await findOwnAssignment(tx, account.id, request.assignmentId);
  checkTask(assignment, request.kind);
  const task = taskOfKind(request.kind);
  const row = task.values[request.kind]!.row;
  const ctx = { tx, annotatorId: account.id, codeChangeId: assignment.codeChangeId, studyId: assignment.studyId };
  const target = await (row ? rowSaveTarget(ctx, task, row, request.targetId) : TASK_QUERIES[task.task].saveTarget!(ctx, request));
  const current = target.current;
  if (deleting) {
    if (!current) return { id: null, version: 0, value: null, changed: false };
    if (current.version !== request.baseVersion) throw new StaleSave(`based on version ${request.baseVersion}, but version ${current.version} was saved meanwhile`, current);
    if (!(await target.remove!(current.id, request.baseVersion))) throw new StaleSave("race", undefined);
    await tx.annotationHistory.create({ data: { kind: historyKind, annotationId: current.id, accountId: account.id, action: "DELETE", baseVersion: request.baseVersion, oldValue: current.value as Prisma.InputJsonValue } });
    await touchAssignment(tx, assignment);
    return { id: current.id, version: 0, value: null, changed: true };
  }
  const decision = decideSave(current, request.baseVersion, request.value);
  if (decision.type === "noop") return { id: current!.id, version: current!.version, value: current!.value, changed: false };
  if (decision.type === "conflict") throw new StaleSave(decision.reason, current);
  let id: string;
  let version: number;
  if (decision.type === "create") {
    id = await target.create(request.value);
    version = 1;
  } else {
    id = current!.id;
    if (!(await target.update(id, request.baseVersion, request.value))) throw new StaleSave("race", undefined);
    version = request.baseVersion + 1;
  }
  await tx.annotationHistory.create({
    data: {
      kind: historyKind,
      annotationId: id,
      accountId: account.id,
      action: decision.type === "create" ? "CREATE" : "UPDATE",
      baseVersion: request.baseVersion,
      oldValue: current ? (current.value as Prisma.InputJsonValue) : Prisma.DbNull,
      newValue: request.value as Prisma.InputJsonValue,
    },
  });
  await touchAssignment(tx, assignment);
  return { id, version, value: request.value, changed: true };
}

/** The first change to an assignment starts it. */
async function touchAssignment(tx: Tx, assignment: OwnAssignment): Promise<void> {
  if (assignment.status === "PENDING") await tx.assignment.updateMany({ where: { id: assignment.id, annotatorId: assignment.annotatorId, status: "PENDING" }, data: { status: "IN_PROGRESS", startedAt: new Date() } });
}

// ---------------------------------------------------------------------------------------------
// Assignment life cycle: submit, skip, resume, time spent

/** What is still missing before the item can be submitted, by claim, review and dimension; empty when complete. */
export async function missingForSubmit(accountId: string, assignment: { task: TaskType; codeChangeId: string; studyId: string }): Promise<MissingAnswer[]> {
  const study = await db.study.findUniqueOrThrow({ where: { id: assignment.studyId }, select: taskStudySelect });
  const task = await readTask(accountId, assignment, study);
  return missingAnswers(task, storedValues(task), study.likertDimensions);
}

/**
 * Submits the account's own assignment: refused (422, naming what is missing and listing it as
 * `missing`) while incomplete; submitting twice is harmless. `onSubmitted` hears of a submission
 * that was not done before (webhooks).
 */
export async function submitAssignment(accountId: string, assignmentId: string, onSubmitted?: (submitted: { studyId: string; assignmentId: string; task: TaskType; codeChangeId: string; annotatorId: string }) => Promise<void>): Promise<{ status: AssignmentStatus }> {
  const assignment = await findOwnAssignment(db, accountId, assignmentId);
  if (assignment.status === "SKIPPED") throw new AppError("LOCKED", { message: "You skipped this item; resume it before submitting." });
  const missing = await missingForSubmit(accountId, assignment);
  if (missing.length > 0) throw new AppError("INCOMPLETE", { message: `Not complete yet, still missing: ${describeMissing(missing)}.`, details: { missing } });
  if (assignment.status !== "DONE") {
    await db.assignment.updateMany({ where: { id: assignment.id, annotatorId: accountId }, data: { status: "DONE", completedAt: new Date(), startedAt: assignment.status === "PENDING" ? new Date() : undefined } });
    await onSubmitted?.({ studyId: assignment.studyId, assignmentId: assignment.id, task: assignment.task, codeChangeId: assignment.codeChangeId, annotatorId: accountId });
    await releaseDueRoundAfter(assignment.studyId, assignment.codeChangeId);
  }
  return { status: "DONE" };
}

export async function skipAssignment(accountId: string, assignmentId: string, reason: string): Promise<{ status: AssignmentStatus }> {
  const assignment = await findOwnAssignment(db, accountId, assignmentId);
  if (assignment.status === "DONE") throw new AppError("CONFLICT", { message: "This item is already submitted." });
  await db.assignment.updateMany({ where: { id: assignment.id, annotatorId: accountId }, data: { status: "SKIPPED", skipReason: reason } });
  await releaseDueRoundAfter(assignment.studyId, assignment.codeChangeId);
  return { status: "SKIPPED" };
}

export async function resumeAssignment(accountId: string, assignmentId: string): Promise<{ status: AssignmentStatus }> {
  const assignment = await findOwnAssignment(db, accountId, assignmentId);
  if (assignment.status !== "SKIPPED") return { status: assignment.status };
  await db.assignment.updateMany({ where: { id: assignment.id, annotatorId: accountId }, data: { status: "IN_PROGRESS", skipReason: null, startedAt: new Date() } });
  return { status: "IN_PROGRESS" };
}

export { MAX_TIME_REPORT_MS };

/**
 * Adds active time to the assignment and, per annotated claim or review ("judgement:<id>",
 * "rating:<id>", "grade:<id>", "label:<id>"), to the annotator's own annotation of it.
 */
export async function recordTimeSpent(accountId: string, assignmentId: string, deltaMs: number, targets: Record<string, number> = {}): Promise<{ timeSpentMs: number }> {
  const assignment = await findOwnAssignment(db, accountId, assignmentId);
  const delta = Math.max(0, Math.min(MAX_TIME_REPORT_MS, Math.round(deltaMs)));
  const clamp = (ms: number) => Math.max(0, Math.min(delta, Math.round(ms)));
  const codeChangeId = assignment.codeChangeId;
  await db.$transaction(async (tx) => {
    await tx.assignment.updateMany({
      where: { id: assignment.id, annotatorId: accountId },
      data: { timeSpentMs: { increment: delta }, ...(assignment.status === "PENDING" ? { status: "IN_PROGRESS", startedAt: new Date() } : {}) },
    });
    for (const [key, ms] of Object.entries(targets).slice(0, 200)) {
      const [kind, id] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
      const task = taskOfTimeKey(kind);
      if (task) await addAnnotationTime(tx, task, accountId, id, codeChangeId, clamp(ms));
    }
  });
  return { timeSpentMs: assignment.timeSpentMs + delta };
}
