/**
 * Annotators named in imported files become accounts that cannot sign in until a lead
 * activates them, and members of the study.
 */
import { findOrCreateImportedAnnotator } from "@/lib/data/users";
import type { Prisma } from "@/lib/db/client";
import { annotatorKey, bundleAnnotators, type AnnotatorRef, type StudyBundle } from "./bundle";
import { InvariantError } from "@/lib/errors";

export interface ResolvedAnnotators {
  /** User id by annotatorKey(). */
  userIdOf: Map<string, string>;
  names: string[];
}

/**
 * The user of each annotator in the bundle: the user with the file's user id when this
 * database has one (a JSONL export of this product re-imported), otherwise the imported
 * account of that name.
 */
export async function resolveAnnotators(tx: Prisma.TransactionClient, studyId: string, bundle: StudyBundle): Promise<ResolvedAnnotators> {
  const refs = bundleAnnotators(bundle);
  const ids = refs.map((r) => r.id).filter((id): id is string => id !== null);
  const known = new Set((await tx.user.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((u) => u.id));
  const userIdOf = new Map<string, string>();
  const names: string[] = [];
  for (const ref of refs) {
    const userId = ref.id !== null && known.has(ref.id) ? ref.id : (await findOrCreateImportedAnnotator(ref.name, tx)).id;
    userIdOf.set(annotatorKey(ref), userId);
    names.push(ref.name);
  }
  if (userIdOf.size > 0) {
    await tx.studyMember.createMany({ data: [...new Set(userIdOf.values())].map((userId) => ({ studyId, userId, role: "ANNOTATOR" as const })), skipDuplicates: true });
  }
  return { userIdOf, names };
}

export function userIdOf(resolved: ResolvedAnnotators, ref: AnnotatorRef): string {
  const id = resolved.userIdOf.get(annotatorKey(ref));
  if (id === undefined) throw new InvariantError(`annotator ${ref.name} was not resolved`);
  return id;
}
