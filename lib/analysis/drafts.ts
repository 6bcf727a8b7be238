/**
 * What counts: reports count submitted work. A rating is a draft while its annotator's
 * assignment for the item's code change and task is not submitted (pending, in progress or
 * skipped); work without an assignment (imported sheets, work whose assignment moved on) counts
 * as submitted. Drafts are left out unless a report asks for them, and each report says how many.
 */
import type { PrismaClient } from "@/lib/db/client";
import type { TaskType } from "@/lib/generated/prisma/enums";

export type DraftMode = "exclude" | "include";

const key = (userId: string, codeChangeId: string) => `${userId}|${codeChangeId}`;

/** The (annotator, code change) pairs of the study whose assignment of this task is not submitted. */
export async function unsubmittedWork(client: PrismaClient, studyId: string, task: TaskType): Promise<Set<string>> {
  const open = await client.assignment.findMany({ where: { studyId, taskType: task, status: { not: "DONE" } }, select: { userId: true, codeChangeId: true } });
  return new Set(open.map((a) => key(a.userId, a.codeChangeId)));
}

/** Whether a judgement or rating of this annotator on this code change is a draft. */
export const isDraft = (unsubmitted: ReadonlySet<string>, userId: string, codeChangeId: string) => unsubmitted.has(key(userId, codeChangeId));

/** How a report states what it counts. */
export function countedWork(drafts: DraftMode): string {
  return drafts === "include" ? "submitted work and drafts (unsubmitted work included on request)" : "submitted work only (drafts of unsubmitted assignments left out)";
}
