/**
 * Annotators named in imported files become accounts that cannot sign in until a lead
 * activates them, and members of the study (lib/data/import-writer.ts resolveAnnotators).
 */
import { annotatorKey, type AnnotatorRef } from "./bundle";
import { InvariantError } from "@/lib/errors";

export interface ResolvedAnnotators {
  /** Account id by annotatorKey(). */
  annotatorIdOf: Map<string, string>;
  names: string[];
}

export function annotatorIdOf(resolved: ResolvedAnnotators, ref: AnnotatorRef): string {
  const id = resolved.annotatorIdOf.get(annotatorKey(ref));
  if (id === undefined) throw new InvariantError(`annotator ${ref.name} was not resolved`);
  return id;
}
