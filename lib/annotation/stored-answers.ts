/**
 * An annotator's stored answers on one item as a flat list, one per claim, review or
 * pseudo-reference (null value when there is none yet): what the workspace starts from and
 * reconciles with, and what completeness (./completeness) reads on the server.
 */
import type { TaskWorkspace, Versioned } from "@/lib/tasks/types";
import type { SaveKind } from "./values";

export interface ServerState {
  id: string | null;
  version: number;
  value: unknown;
}

/** One stored annotation as the server reports it. */
export interface StoredEntry {
  kind: SaveKind;
  targetId: string;
  server: ServerState;
}

export const entryKey = (kind: SaveKind, targetId: string) => `${kind}:${targetId}`;

/** The stored annotations of a workspace's task, one per claim or review (null server value when none yet). */
export function storedEntries(task: TaskWorkspace): StoredEntry[] {
  const none = (v: Versioned<unknown> | undefined): ServerState => v ?? { id: null, version: 0, value: null };
  return [
    ...(task.claims?.references ?? []).map((r) => ({ kind: "claim" as const, targetId: r.id, server: none(task.claims!.judgements[r.id]) })),
    ...(task.claims?.added ?? []).map((a) => ({ kind: "added" as const, targetId: a.id, server: a })),
    ...(task.rating?.necessity ? task.rating.references : []).map((r) => ({ kind: "necessity" as const, targetId: r.id, server: none(task.rating!.necessity![r.id]) })),
    ...(task.rating?.reviews ?? []).map((r) => ({ kind: "rating" as const, targetId: r.id, server: none(task.rating!.ratings[r.id]) })),
    ...(task.grading?.reviews ?? []).map((r) => ({ kind: "grade" as const, targetId: r.id, server: none(task.grading!.grades[r.id]) })),
    ...(task.filtering?.reviews ?? []).map((r) => ({ kind: "filter" as const, targetId: r.id, server: none(task.filtering!.labels[r.id]) })),
    ...(task.commentQuestions?.comments ?? []).map((c) => ({ kind: "commentAnswers" as const, targetId: c.id, server: none(task.commentQuestions!.answers[c.id]) })),
  ];
}

/** The stored value of each answer, by kind and target (null when there is none). */
export function storedValues(task: TaskWorkspace): (kind: SaveKind, targetId: string) => unknown {
  const values = new Map(storedEntries(task).map((e) => [entryKey(e.kind, e.targetId), e.server.value]));
  return (kind, targetId) => values.get(entryKey(kind, targetId)) ?? null;
}
