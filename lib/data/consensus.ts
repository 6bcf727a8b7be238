/**
 * The consensus answers of a task's items: the lead's stored decisions (adjudicated, or gold)
 * and, where there is none, the annotators' unanimous answer (lib/tasks/consensus.ts).
 */
import "server-only";
import type { Prisma, PrismaClient } from "@/lib/db/client";
import type { TaskType } from "@/lib/generated/prisma/enums";
import type { AnswerValue } from "@/lib/agreement";
import { itemValues } from "@/lib/analysis/gather";
import { gatherTaskColumns } from "@/lib/data/task-answers";
import type { StudyForAnalysis } from "@/lib/data/studies";
import { consensusOf, type ConsensusValue } from "@/lib/tasks/consensus";

type Client = PrismaClient | Prisma.TransactionClient;

export interface StoredConsensus {
  id: string;
  value: AnswerValue;
  reason: string;
  version: number;
  decidedBy: string | null;
  decidedAt: Date;
  /** A known answer (gold item, lib/data/gold). */
  gold: boolean;
}

/** The lead's consensus values of one task: item id → question → value. */
export async function storedConsensus(client: Client, studyId: string, task: TaskType): Promise<Map<string, Map<string, StoredConsensus>>> {
  const rows = await client.consensus.findMany({ where: { studyId, task }, include: { decidedBy: { select: { name: true } } } });
  const out = new Map<string, Map<string, StoredConsensus>>();
  for (const r of rows) {
    if (!out.has(r.itemId)) out.set(r.itemId, new Map());
    out.get(r.itemId)!.set(r.question, { id: r.id, value: r.value as AnswerValue, reason: r.reason, version: r.version, decidedBy: r.decidedBy?.name ?? null, decidedAt: r.decidedAt, gold: r.gold });
  }
  return out;
}

/** The consensus of every rated item of one task (adjudicated, else unanimous): item id → question key → consensus. */
export async function taskConsensus(client: PrismaClient, study: StudyForAnalysis, task: TaskType): Promise<Map<string, Map<string, ConsensusValue>>> {
  // One statement at a time: exports read this, and must not take more than one connection of the pool.
  const data = await gatherTaskColumns(study, task, client, { gold: "include", oneConnection: true });
  const stored = await storedConsensus(client, study.id, task);
  const values = data.questions.map((q) => itemValues(data, q));
  const index = new Map(data.items.map((item, u) => [item.id, u]));
  const out = new Map<string, Map<string, ConsensusValue>>();
  for (const itemId of new Set([...index.keys(), ...stored.keys()])) {
    const u = index.get(itemId);
    const entries = new Map<string, ConsensusValue>();
    data.questions.forEach((q, k) => {
      const c = consensusOf(u === undefined ? [] : values[k][u], stored.get(itemId)?.get(q.question.key)?.value);
      if (c) entries.set(q.question.key, c);
    });
    if (entries.size > 0) out.set(itemId, entries);
  }
  return out;
}

