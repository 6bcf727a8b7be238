/**
 * Read access to assignments. Annotator queries are always scoped by the annotator's own id and
 * the studies they are members of (lib/data/study-access.ts).
 */
import { db } from "@/lib/db/client";
import { memberStudyWhere } from "@/lib/data/study-access";
import { itemRound, roundMembershipSelect, roundsGate } from "@/lib/data/round-gate";
import { releaseDueRound } from "@/lib/data/rounds";
import { stageOrderOn } from "@/lib/annotation/stage-order";
import { waitingFor, type Waiting } from "@/lib/annotation/waiting";
import type { AssignmentStatus, TaskType } from "@/lib/generated/prisma/client";

export interface QueueEntry {
  id: string;
  taskType: TaskType;
  status: AssignmentStatus;
  position: number;
  codeChange: { externalId: string; language: string; filePath: string };
  timeSpentMs: number;
  /** The calibration round the item waits for (its own, or the last one for an item outside every round), or null when the rounds do not hold it. */
  waitingForRound: number | null;
  /** What the item waits for (a calibration round, consolidation), or null when it can be worked on. */
  waiting: Waiting | null;
}

export interface StudyQueue {
  study: { slug: string; name: string };
  /** A lead has paused the annotator in this study: the items cannot be opened (lib/data/study-access annotatingStudyWhere). */
  paused: boolean;
  /** Every open item is finished and some wait in a calibration round not released yet. */
  waitingForNextRound: boolean;
  done: number;
  total: number;
  timeSpentMs: number;
  entries: QueueEntry[];
}

/** The annotator's own assignments in the studies they belong to, per study, in queue order, with progress and the calibration rounds they wait for. */
export async function listQueuesForAnnotator(userId: string): Promise<StudyQueue[]> {
  // A round whose release rule has come to hold opens now (lib/data/rounds releaseDueRound).
  const waiting = await db.calibrationRound.findMany({ where: { releasedAt: null, study: { assignments: { some: { userId } } } }, distinct: ["studyId"], select: { studyId: true } });
  for (const { studyId } of waiting) await releaseDueRound(studyId);
  const assignments = await db.assignment.findMany({
    where: { userId, study: memberStudyWhere(userId) },
    orderBy: [{ studyId: "asc" }, { position: "asc" }],
    select: {
      id: true,
      taskType: true,
      status: true,
      position: true,
      timeSpentMs: true,
      codeChangeId: true,
      study: { select: { id: true, slug: true, name: true, stageOrder: true, taskTypes: true, members: { where: { userId }, select: { pausedAt: true } } } },
      codeChange: { select: { externalId: true, language: true, filePath: true, consolidatedAt: true, ...roundMembershipSelect } },
    },
  });
  const gates = new Map(await Promise.all([...new Set(assignments.map((a) => a.study.id))].map(async (id) => [id, await roundsGate(db, id)] as const)));
  const open = (e: { status: AssignmentStatus }) => e.status === "PENDING" || e.status === "IN_PROGRESS";
  const stage1Open = new Set(assignments.filter((a) => a.taskType === "CLAIM_VERIFICATION" && open(a)).map((a) => a.codeChangeId));
  const queues = new Map<string, StudyQueue>();
  for (const { study: { members, id: studyId, stageOrder, taskTypes, ...study }, codeChange: { itemSetMembers, consolidatedAt, ...codeChange }, codeChangeId, ...entry } of assignments) {
    const queue = queues.get(study.slug) ?? { study, paused: members.some((m) => m.pausedAt !== null), waitingForNextRound: false, done: 0, total: 0, timeSpentMs: 0, entries: [] };
    queue.total += 1;
    if (entry.status === "DONE") queue.done += 1;
    queue.timeSpentMs += entry.timeSpentMs;
    const waiting = entry.status === "DONE" ? null : waitingFor({ round: itemRound(itemSetMembers), rounds: gates.get(studyId) ?? null, task: entry.taskType, stageOrder: stageOrderOn({ stageOrder, taskTypes }), consolidated: consolidatedAt !== null, ownStage1Open: stage1Open.has(codeChangeId) });
    queue.entries.push({ ...entry, codeChange, waitingForRound: waiting?.kind === "round" ? waiting.round : null, waiting });
    queues.set(study.slug, queue);
  }
  for (const queue of queues.values()) {
    queue.waitingForNextRound = queue.entries.some((e) => e.waitingForRound !== null) && !queue.entries.some((e) => e.waitingForRound === null && open(e));
  }
  return [...queues.values()];
}
