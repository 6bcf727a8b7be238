/**
 * Read access to assignments. Annotator queries are always scoped by the annotator's own id and
 * the studies they are members of (lib/data/study-access.ts).
 */
import { db } from "@/lib/db/client";
import { memberStudyWhere } from "@/lib/data/study-access";
import type { AssignmentStatus, TaskType } from "@/lib/generated/prisma/client";

export interface QueueEntry {
  id: string;
  taskType: TaskType;
  status: AssignmentStatus;
  position: number;
  codeChange: { externalId: string; language: string; filePath: string };
  timeSpentMs: number;
}

export interface StudyQueue {
  study: { slug: string; name: string };
  /** A lead has paused the annotator in this study: the items cannot be opened (lib/data/study-access annotatingStudyWhere). */
  paused: boolean;
  done: number;
  total: number;
  timeSpentMs: number;
  entries: QueueEntry[];
}

/** The annotator's own assignments in the studies they belong to, per study, in queue order, with progress. */
export async function listQueuesForAnnotator(userId: string): Promise<StudyQueue[]> {
  const assignments = await db.assignment.findMany({
    where: { userId, study: memberStudyWhere(userId) },
    orderBy: [{ studyId: "asc" }, { position: "asc" }],
    select: {
      id: true,
      taskType: true,
      status: true,
      position: true,
      timeSpentMs: true,
      study: { select: { slug: true, name: true, members: { where: { userId }, select: { pausedAt: true } } } },
      codeChange: { select: { externalId: true, language: true, filePath: true } },
    },
  });
  const queues = new Map<string, StudyQueue>();
  for (const { study: { members, ...study }, ...entry } of assignments) {
    const queue = queues.get(study.slug) ?? { study, paused: members.some((m) => m.pausedAt !== null), done: 0, total: 0, timeSpentMs: 0, entries: [] };
    queue.total += 1;
    if (entry.status === "DONE") queue.done += 1;
    queue.timeSpentMs += entry.timeSpentMs;
    queue.entries.push(entry);
    queues.set(study.slug, queue);
  }
  return [...queues.values()];
}
