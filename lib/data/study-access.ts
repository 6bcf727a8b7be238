/**
 * Who may see and change which study. A study has an owner (`createdById`, its creator) and
 * members with a role in that study (StudyMember: LEAD or ANNOTATOR). Admins lead every study;
 * a lead leads the studies they own or are a LEAD member of; annotators lead none and see only
 * their own assignments in studies they are members of.
 *
 * Authorization is part of the query (documenso's getDocumentWhereInput): every lead query of a
 * page, route, server action, export, import, report, metric run, assignment or consolidation
 * finds its study through `leadStudyWhere`, so a forged slug or id of someone else's study finds
 * nothing and answers 404, exactly like a study that does not exist.
 */
import "server-only";
import type { SessionUser } from "@/lib/auth/authenticate";
import { db, type Prisma, type PrismaClient } from "@/lib/db/client";
import type { Study } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";
import { withCommentQuestions, type CommentQuestion } from "@/lib/annotation/comment-questions";

/** What the scope needs to know about the signed-in user. */
export type StudyUser = Pick<SessionUser, "id" | "role">;

/** The command line's operator: an admin's rights, no account. */
export const COMMAND_LINE: StudyUser = { id: "command-line", role: "ADMIN" };

type Client = Pick<PrismaClient, "study"> | Pick<Prisma.TransactionClient, "study">;

/** The Prisma `where` of the studies this user leads (see the file comment). */
export function leadStudyWhere(user: StudyUser): Prisma.StudyWhereInput {
  if (user.role === "ADMIN") return {};
  if (user.role === "LEAD") return { OR: [{ createdById: user.id }, { members: { some: { userId: user.id, role: "LEAD" } } }] };
  return { id: { in: [] } };
}

/** The Prisma `where` of the studies this user belongs to in any role (annotators' queues). */
export function memberStudyWhere(userId: string): Prisma.StudyWhereInput {
  return { OR: [{ createdById: userId }, { members: { some: { userId } } }] };
}

/**
 * The studies in which this user may open and save items: as memberStudyWhere, except those
 * where a lead has paused them (quality control, StudyMember.pausedAt).
 */
export function annotatingStudyWhere(userId: string): Prisma.StudyWhereInput {
  return { OR: [{ createdById: userId }, { members: { some: { userId, pausedAt: null } } }] };
}

/** Shown to a paused annotator instead of their items. */
export const PAUSED_MESSAGE = "A lead of this study has paused your work on it (quality control). Ask them to resume it.";

/** The accounts that belong to a study this user leads, in any role. */
export function membersOfLedStudiesWhere(user: StudyUser): Prisma.UserWhereInput {
  return { memberships: { some: { study: leadStudyWhere(user) } } };
}

/**
 * The accounts every study of which (owned, or member of in any role) this user leads, among
 * them those of no study: the accounts no other lead has a say over.
 */
export function onlyInLedStudiesWhere(user: StudyUser): Prisma.UserWhereInput {
  return { memberships: { every: { study: leadStudyWhere(user) } }, studiesCreated: { every: leadStudyWhere(user) } };
}

/** The study with this slug if the user leads it, else null (whether it exists or not). */
export async function findLedStudy(user: StudyUser, slug: string, client: Client = db): Promise<LedStudy | null> {
  const study = await client.study.findFirst({ where: { slug, ...leadStudyWhere(user) } });
  return study && withCommentQuestions(study);
}

/** A study as a lead's lookup gives it: its row, with its comment questions read. */
export type LedStudy = Omit<Study, "commentQuestions"> & { commentQuestions: CommentQuestion[] };

/** The study with this slug if the user leads it; 404 otherwise, the same as for no such study. */
export async function requireLedStudy(user: StudyUser, slug: string, client: Client = db): Promise<LedStudy> {
  const study = await findLedStudy(user, slug, client);
  if (!study) throw new AppError("NOT_FOUND", { message: "No such study." });
  return study;
}

/**
 * Whether the user may import into the study with this slug from the web: one they lead, or
 * none yet (the import creates it and the user owns it); not another lead's study.
 */
export async function canImportInto(user: StudyUser, slug: string, client: Client = db): Promise<boolean> {
  const existing = await client.study.findUnique({ where: { slug }, select: { id: true } });
  return !existing || (await findLedStudy(user, slug, client)) !== null;
}

/** As canImportInto; another lead's study answers 404, as if absent. */
export async function requireImportTarget(user: StudyUser, slug: string, client: Client = db): Promise<void> {
  if (!(await canImportInto(user, slug, client))) throw new AppError("NOT_FOUND", { message: "No such study." });
}
