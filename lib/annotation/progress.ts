/** An annotator's progress from their assignments: how many per task are assigned, submitted, drafts (started, not submitted) or skipped, and their time on task. */
import type { AssignmentStatus, TaskType } from "@/lib/generated/prisma/enums";

export interface TaskCounts {
  total: number;
  done: number;
  skipped: number;
  /** Started and not submitted: the annotator's drafts (lib/analysis/drafts.ts). */
  inProgress: number;
}

export interface Progress {
  byTask: Partial<Record<TaskType, TaskCounts>>;
  total: number;
  done: number;
  skipped: number;
  timeSpentMs: number;
}

export function progressOf(assignments: readonly { task: TaskType; status: AssignmentStatus; timeSpentMs: number }[]): Progress {
  const byTask: Progress["byTask"] = {};
  for (const a of assignments) {
    const row = (byTask[a.task] ??= { total: 0, done: 0, skipped: 0, inProgress: 0 });
    row.total++;
    if (a.status === "DONE") row.done++;
    if (a.status === "SKIPPED") row.skipped++;
    if (a.status === "IN_PROGRESS") row.inProgress++;
  }
  return {
    byTask,
    total: assignments.length,
    done: assignments.filter((a) => a.status === "DONE").length,
    skipped: assignments.filter((a) => a.status === "SKIPPED").length,
    timeSpentMs: assignments.reduce((sum, a) => sum + a.timeSpentMs, 0),
  };
}
