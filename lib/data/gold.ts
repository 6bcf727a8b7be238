/**
 * Gold items: a lead's known answers, stored as consensus values marked gold,
 * each for one claim or one review and one task. A code change with a gold answer for any of its
 * claims or reviews is mixed into annotators' queues for that task as an attention check
 * (Study.goldPerQueue: the queue's unit is the change); what agreement and exports leave out
 * unless asked for is only the answered item of that task, so the change's other reviews count.
 */
import "server-only";
import type { Prisma, PrismaClient } from "@/lib/db/client";
import type { AnswerValue } from "@/lib/agreement";
import type { TaskType } from "@/lib/generated/prisma/enums";

type Client = PrismaClient | Prisma.TransactionClient;

/** Whether analyses take gold items: leave them out (default), take them too, or only them. */
export type GoldMode = "exclude" | "include" | "only";

export interface GoldAnswer {
  task: TaskType;
  itemId: string;
  question: string;
  value: AnswerValue;
}

export function goldAnswers(client: Client, studyId: string): Promise<GoldAnswer[]> {
  return client.consensus.findMany({ where: { studyId, gold: true }, select: { task: true, itemId: true, question: true, value: true } }) as Promise<GoldAnswer[]>;
}

/** The study's gold items (code changes) with the tasks they have gold answers for. */
export async function goldCodeChanges(client: Client, studyId: string): Promise<Map<string, Set<TaskType>>> {
  const answers = await goldAnswers(client, studyId);
  if (answers.length === 0) return new Map();
  const ids = [...new Set(answers.map((a) => a.itemId))];
  const [claims, reviews, comments] = await Promise.all([
    client.pseudoReference.findMany({ where: { id: { in: ids }, codeChange: { studyId } }, select: { id: true, codeChangeId: true } }),
    client.review.findMany({ where: { id: { in: ids }, codeChange: { studyId } }, select: { id: true, codeChangeId: true } }),
    // A review comment's assignment is on its pull request's first file (comment questions).
    client.reviewComment.findMany({ where: { id: { in: ids }, codeChange: { studyId } }, select: { id: true, pullRequest: { select: { codeChanges: { select: { id: true }, orderBy: [{ position: "asc" }, { id: "asc" }], take: 1 } } } } }),
  ]);
  const changeOf = new Map([...claims, ...reviews, ...comments.map((c) => ({ id: c.id, codeChangeId: c.pullRequest.codeChanges[0].id }))].map((r) => [r.id, r.codeChangeId]));
  const out = new Map<string, Set<TaskType>>();
  for (const a of answers) {
    const change = changeOf.get(a.itemId);
    if (!change) continue;
    if (!out.has(change)) out.set(change, new Set());
    out.get(change)!.add(a.task);
  }
  return out;
}

/** Per task, the claims and reviews with a known answer for it. */
export type GoldItems = ReadonlyMap<TaskType, ReadonlySet<string>>;

export async function goldItems(client: Client, studyId: string): Promise<GoldItems> {
  const out = new Map<TaskType, Set<string>>();
  for (const a of await client.consensus.findMany({ where: { studyId, gold: true }, select: { task: true, itemId: true } })) {
    if (!out.has(a.task)) out.set(a.task, new Set());
    out.get(a.task)!.add(a.itemId);
  }
  return out;
}

/** Whether an item is kept under a gold mode, given whether it has a known answer for the task. */
export function keptUnder(mode: GoldMode, isGold: boolean): boolean {
  return mode === "include" || (mode === "only") === isGold;
}
