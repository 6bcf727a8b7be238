/**
 * Read access to assignments. Annotator queries are always scoped by the annotator's own id and
 * the studies they are members of (lib/data/study-access.ts).
 */
import "server-only";
import { db } from "@/lib/db/client";
import { memberStudyWhere } from "@/lib/data/study-access";
import { codeChangeRound, roundMembershipSelect, roundsGate } from "@/lib/data/round-gate";
import { releaseDueRound } from "@/lib/data/rounds";
import { stageOrderOn } from "@/lib/annotation/stage-order";
import { afterOwnStage1, waitingFor, type Waiting } from "@/lib/annotation/waiting";
import type { AssignmentStatus, TaskType } from "@/lib/generated/prisma/client";

export interface QueueEntry {
  id: string;
  task: TaskType;
  status: AssignmentStatus;
  position: number;
  codeChange: { externalId: string; language: string; filePath: string };
  timeSpentMs: number;
  /** The calibration round the item waits for (its own, or the last one for an item outside every round), or null when the rounds do not hold it. */
  waitingForRound: number | null;
  /** What the item waits for (a calibration round, consolidation), or null when it can be worked on. */
  waiting: Waiting | null;
  /** Stage 2 whose stage 1 the annotator has still to do (lib/annotation/waiting afterOwnStage1). */
  afterOwnStage1: boolean;
}

export interface StudyQueue {
  study: { slug: string; name: string };
  /** A lead has paused the annotator in this study: the items cannot be opened (lib/data/study-access annotatingStudyWhere). */
  paused: boolean;
  /** Where the annotator stands in the study's qualification: items open once it is passed (lib/data/qualification.ts). */
  qualification: MemberQualification;
  /** Every open item is finished and some wait in a calibration round not released yet. */
  waitingForNextRound: boolean;
  done: number;
  total: number;
  timeSpentMs: number;
  entries: QueueEntry[];
}

export type MemberQualification = "none" | "pending" | "passed" | "failed";

/** An annotator's qualification in a study from their membership. */
function qualificationOfMember(required: boolean, members: readonly { role: string; qualifiedAt: Date | null; qualificationFailedAt: Date | null }[]): MemberQualification {
  const member = members.find((m) => m.role === "ANNOTATOR");
  if (!required || !member) return "none";
  return member.qualifiedAt ? "passed" : member.qualificationFailedAt ? "failed" : "pending";
}

/** What `assignmentStates` reads of each assignment. */
export const assignmentStateSelect = {
  id: true,
  status: true,
  task: true,
  codeChangeId: true,
  study: { select: { id: true, stageOrder: true, tasks: true } },
  codeChange: { select: { consolidatedAt: true, ...roundMembershipSelect } },
} as const;

interface StateRow {
  id: string;
  status: AssignmentStatus;
  task: TaskType;
  codeChangeId: string;
  study: { id: string; stageOrder: boolean | null; tasks: TaskType[] };
  codeChange: { consolidatedAt: Date | null; itemSetMembers: Parameters<typeof codeChangeRound>[0] };
}

export interface AssignmentState {
  waiting: Waiting | null;
  afterOwnStage1: boolean;
}

const isOpen = (a: { status: AssignmentStatus }) => a.status === "PENDING" || a.status === "IN_PROGRESS";

/**
 * Whether each of one annotator's assignments can be worked on now (lib/annotation/waiting): what
 * it waits for, and whether it is stage 2 after the annotator's own stage 1. Finished ones wait for
 * nothing. The queue shows it; the workspace's `n` and the move after a submit pass the others.
 */
export async function assignmentStates(client: typeof db, rows: readonly StateRow[]): Promise<Map<string, AssignmentState>> {
  const gates = new Map(await Promise.all([...new Set(rows.map((a) => a.study.id))].map(async (id) => [id, await roundsGate(client, id)] as const)));
  const stage1Open = new Set(rows.filter((a) => a.task === "CLAIM_VERIFICATION" && isOpen(a)).map((a) => a.codeChangeId));
  return new Map(
    rows.map((a) => {
      const item = {
        round: codeChangeRound(a.codeChange.itemSetMembers),
        rounds: gates.get(a.study.id) ?? null,
        task: a.task,
        stageOrder: stageOrderOn(a.study),
        consolidated: a.codeChange.consolidatedAt !== null,
        ownStage1Open: stage1Open.has(a.codeChangeId),
      };
      const finished = a.status === "DONE" || a.status === "SKIPPED";
      return [a.id, { waiting: a.status === "DONE" ? null : waitingFor(item), afterOwnStage1: !finished && afterOwnStage1(item) }];
    }),
  );
}

/** The annotator's own assignments in the studies they belong to, per study, in queue order, with progress and the calibration rounds they wait for. */
export async function listQueuesForAnnotator(annotatorId: string): Promise<StudyQueue[]> {
  // A round whose release rule has come to hold opens now (lib/data/rounds releaseDueRound).
  const waiting = await db.calibrationRound.findMany({ where: { releasedAt: null, study: { assignments: { some: { annotatorId: annotatorId } } } }, distinct: ["studyId"], select: { studyId: true } });
  for (const { studyId } of waiting) await releaseDueRound(studyId);
  const assignments = await db.assignment.findMany({
    where: { annotatorId: annotatorId, study: memberStudyWhere(annotatorId) },
    orderBy: [{ studyId: "asc" }, { position: "asc" }],
    select: {
      ...assignmentStateSelect,
      position: true,
      timeSpentMs: true,
      study: { select: { ...assignmentStateSelect.study.select, slug: true, name: true, qualificationRequired: true, members: { where: { accountId: annotatorId }, select: { pausedAt: true, role: true, qualifiedAt: true, qualificationFailedAt: true } } } },
      codeChange: { select: { ...assignmentStateSelect.codeChange.select, externalId: true, language: true, filePath: true } },
    },
  });
  const states = await assignmentStates(db, assignments);
  const queues = new Map<string, StudyQueue>();
  for (const a of assignments) {
    const { slug, name, members } = a.study;
    const queue = queues.get(slug) ?? { study: { slug, name }, paused: members.some((m) => m.pausedAt !== null), qualification: qualificationOfMember(a.study.qualificationRequired, members), waitingForNextRound: false, done: 0, total: 0, timeSpentMs: 0, entries: [] };
    queue.total += 1;
    if (a.status === "DONE") queue.done += 1;
    queue.timeSpentMs += a.timeSpentMs;
    const { waiting, afterOwnStage1 } = states.get(a.id)!;
    const { externalId, language, filePath } = a.codeChange;
    queue.entries.push({
      id: a.id,
      task: a.task,
      status: a.status,
      position: a.position,
      timeSpentMs: a.timeSpentMs,
      codeChange: { externalId, language, filePath },
      waitingForRound: waiting?.kind === "round" ? waiting.round : null,
      waiting,
      afterOwnStage1,
    });
    queues.set(slug, queue);
  }
  // A study whose qualification comes before any item is listed without items.
  const qualifying = await db.studyMember.findMany({
    where: { accountId: annotatorId, role: "ANNOTATOR", qualifiedAt: null, study: { qualificationRequired: true } },
    select: { role: true, qualifiedAt: true, qualificationFailedAt: true, study: { select: { slug: true, name: true } } },
    orderBy: { study: { name: "asc" } },
  });
  for (const m of qualifying) {
    if (!queues.has(m.study.slug)) queues.set(m.study.slug, { study: m.study, paused: false, qualification: qualificationOfMember(true, [m]), waitingForNextRound: false, done: 0, total: 0, timeSpentMs: 0, entries: [] });
  }
  for (const queue of queues.values()) {
    queue.waitingForNextRound = queue.entries.some((e) => e.waitingForRound !== null) && !queue.entries.some((e) => e.waitingForRound === null && isOpen(e));
  }
  return [...queues.values()];
}
