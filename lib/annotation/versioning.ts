/**
 * Optimistic concurrency for annotations. Every save carries the version it was based on
 * (0 for a new annotation). The server accepts it only when that is still the stored version;
 * a save of the value already stored is accepted without a write, which makes a retried
 * request whose response was lost idempotent instead of a false conflict.
 */
import { sameValue } from "./values";

export interface Stored<V> {
  version: number;
  value: V;
}

export type SaveDecision = { type: "create" } | { type: "update" } | { type: "noop" } | { type: "conflict"; reason: string };

export function decideSave<V>(current: Stored<V> | null, baseVersion: number, attempted: V): SaveDecision {
  if (current === null) {
    return baseVersion === 0 ? { type: "create" } : { type: "conflict", reason: `based on version ${baseVersion}, but the annotation no longer exists` };
  }
  if (sameValue(current.value, attempted)) return { type: "noop" };
  if (baseVersion === current.version) return { type: "update" };
  return {
    type: "conflict",
    reason: baseVersion === 0 ? `created elsewhere meanwhile (now version ${current.version})` : `based on version ${baseVersion}, but version ${current.version} was saved meanwhile`,
  };
}
