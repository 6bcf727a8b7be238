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
import type { SessionAccount } from "@/lib/auth/authenticate";
import { db, Prisma, type PrismaClient } from "@/lib/db/client";
import type { Study } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";
import { countedRaterSql } from "@/lib/data/judge-runs";
import { withCommentQuestions, type CommentQuestion } from "@/lib/annotation/comment-questions";


/** The command line's operator: an admin's rights, no account. */
export const COMMAND_LINE: Pick<SessionAccount, "id" | "role"> = { id: "command-line", role: "ADMIN" };

type Client = Pick<PrismaClient, "study"> | Pick<Prisma.TransactionClient, "study">;

/** The Prisma `where` of the studies this account leads (see the file comment). */
export function leadStudyWhere(account: Pick<SessionAccount, "id" | "role">): Prisma.StudyWhereInput {
  if (account.role === "ADMIN") return {};
  if (account.role === "LEAD") return { OR: [{ ownerId: account.id }, { members: { some: { accountId: account.id, role: "LEAD" } } }] };
  return { id: { in: [] } };
}

/** The Prisma `where` of the studies this account belongs to in any role (annotators' queues). */
export function memberStudyWhere(accountId: string): Prisma.StudyWhereInput {
  return { OR: [{ ownerId: accountId }, { members: { some: { accountId } } }] };
}

/**
 * The studies in which this account may open and save items: as memberStudyWhere, except those
 * where a lead has paused them (quality control, StudyMember.pausedAt) or whose qualification
 * they have not passed.
 */
export function annotatingStudyWhere(accountId: string): Prisma.StudyWhereInput {
  return { OR: [{ ownerId: accountId }, { members: { some: { accountId, pausedAt: null, ...admittedMemberWhere } } }] };
}

/** Prisma: a membership whose items are open as far as qualification goes (passed, a lead, or none required; lib/data/qualification.ts). */
export const admittedMemberWhere: Prisma.StudyMemberWhereInput = { OR: [{ qualifiedAt: { not: null } }, { role: "LEAD" }, { study: { qualificationRequired: false } }] };

/** SQL (membership `m` of study `s`): as admittedMemberWhere. */
export const ADMITTED_MEMBER_SQL = `(m."qualifiedAt" IS NOT NULL OR m.role = 'LEAD' OR NOT s."qualificationRequired")`;

/** SQL: the annotator's answers count in the study's statistics (not one who failed its qualification). */
export function qualifiedRaterSql(annotator: Prisma.Sql, studyId: string): Prisma.Sql {
  // NOT IN a list PostgreSQL reads once (a hashed subplan): as NOT EXISTS, once the ratings had
  // statistics it planned an anti-join that read the 100,000 ratings of a big study 40 % slower.
  return Prisma.sql`${annotator} NOT IN (SELECT q."userId" FROM "StudyMember" q WHERE q."studyId" = ${studyId} AND q."qualificationFailedAt" IS NOT NULL)`;
}

/**
 * The raters of the study whose answers stay out of consensus, gold accuracy and adjudication:
 * the judges and members that countedRaterSql or qualifiedRaterSql leave out (judges none of
 * whose runs opted in, annotators who failed the study's qualification).
 */
export async function uncountedRaters(studyId: string, client: Pick<PrismaClient, "$queryRaw"> = db): Promise<Set<string>> {
  const rater = Prisma.sql`r.id`;
  const rows = await client.$queryRaw<{ id: string }[]>`SELECT r.id FROM (SELECT "judgeId" AS id FROM "JudgeRun" WHERE "studyId" = ${studyId} UNION SELECT "userId" FROM "StudyMember" WHERE "studyId" = ${studyId}) r
    WHERE NOT (${countedRaterSql(rater, studyId)} AND ${qualifiedRaterSql(rater, studyId)})`;
  return new Set(rows.map((r) => r.id));
}

/** Shown instead of items to an annotator who has not passed the study's qualification. */
export const QUALIFICATION_MESSAGE = "This study asks you to pass its qualification before its items open.";

/** Shown to a paused annotator instead of their items. */
export const PAUSED_MESSAGE = "A lead of this study has paused your work on it (quality control). Ask them to resume it.";

/** The accounts that belong to a study this account leads, in any role. */
export function membersOfLedStudiesWhere(account: Pick<SessionAccount, "id" | "role">): Prisma.AccountWhereInput {
  return { memberships: { some: { study: leadStudyWhere(account) } } };
}

/**
 * The accounts every study of which (owned, or member of in any role) this account leads, among
 * them those of no study: the accounts no other lead has a say over.
 */
export function onlyInLedStudiesWhere(account: Pick<SessionAccount, "id" | "role">): Prisma.AccountWhereInput {
  return { memberships: { every: { study: leadStudyWhere(account) } }, ownedStudies: { every: leadStudyWhere(account) } };
}

/** The study with this slug if the account leads it, else null (whether it exists or not). */
export async function findLedStudy(account: Pick<SessionAccount, "id" | "role">, slug: string, client: Client = db): Promise<LedStudy | null> {
  const study = await client.study.findFirst({ where: { slug, ...leadStudyWhere(account) } });
  return study && withCommentQuestions(study);
}

/** A study as a lead's lookup gives it: its row, with its comment questions read. */
export type LedStudy = Omit<Study, "commentQuestions"> & { commentQuestions: CommentQuestion[] };

/** The study with this slug if the account leads it; 404 otherwise, the same as for no such study. */
export async function requireLedStudy(account: Pick<SessionAccount, "id" | "role">, slug: string, client: Client = db): Promise<LedStudy> {
  const study = await findLedStudy(account, slug, client);
  if (!study) throw new AppError("NOT_FOUND", { message: "No such study." });
  return study;
}

/**
 * Whether the account may import into the study with this slug from the web: one they lead, or
 * none yet (the import creates it and the account owns it); not another lead's study.
 */
export async function canImportInto(account: Pick<SessionAccount, "id" | "role">, slug: string, client: Client = db): Promise<boolean> {
  const existing = await client.study.findUnique({ where: { slug }, select: { id: true } });
  return !existing || (await findLedStudy(account, slug, client)) !== null;
}

/** As canImportInto; another lead's study answers 404, as if absent. */
export async function requireImportTarget(account: Pick<SessionAccount, "id" | "role">, slug: string, client: Client = db): Promise<void> {
  if (!(await canImportInto(account, slug, client))) throw new AppError("NOT_FOUND", { message: "No such study." });
}
