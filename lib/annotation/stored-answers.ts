/**
 * An annotator's stored answers on one item as a flat list, one per claim, review,
 * pseudo-reference or review comment (null value when there is none yet; each task's descriptor
 * lists its own, `stored`): what the workspace starts from and
 * reconciles with, and what completeness (./completeness) reads on the server.
 */
import { TASK_LIST } from "@/lib/tasks";
import type { StoredEntry, TaskWorkspace } from "@/lib/tasks/types";
import { entryKey, type SaveKind } from "./values";

/** The stored annotations of a workspace's task, one per claim, review or comment (null server value when none yet), from the descriptors. */
export function storedEntries(task: TaskWorkspace): StoredEntry[] {
  return TASK_LIST.flatMap((t) => t.stored(task));
}

/** The stored value of each answer, by kind and target (null when there is none). */
export function storedValues(task: TaskWorkspace): (kind: SaveKind, targetId: string) => unknown {
  const values = new Map(storedEntries(task).map((e) => [entryKey(e.kind, e.targetId), e.server.value]));
  return (kind, targetId) => values.get(entryKey(kind, targetId)) ?? null;
}
