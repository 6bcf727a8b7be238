/**
 * The members page of a study: its owner and members, added and removed by the study's leads.
 * A lead adds only the annotators lib/data/accounts.ts lets them add (none another lead has a say
 * over), and only as annotators; admins add any account, leads as study leads too (a study lead
 * must have a lead or admin account). The owner cannot be removed. Every call finds the study
 * through leadStudyWhere.
 */
import "server-only";
import { z } from "zod";
import { slugField } from "@/lib/validation/study-fields";
import { addableAccountsWhere } from "@/lib/data/accounts";
import { db } from "@/lib/db/client";
import { leadStudyWhere, requireLedStudy, type StudyUser } from "@/lib/data/study-access";
import type { Role, StudyRole } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";

export interface MemberRow {
  userId: string;
  email: string;
  name: string;
  /** The account's role (admin, lead, annotator). */
  accountRole: Role;
  active: boolean;
  /** The role in this study; the owner is listed as a lead. */
  role: StudyRole;
  owner: boolean;
  assignments: number;
}

/** The study's owner first, then its leads, then its annotators (each by name). */
export async function listStudyMembers(user: StudyUser, slug: string): Promise<{ study: { id: string; slug: string; name: string }; members: MemberRow[] }> {
  const study = await db.study.findFirst({
    where: { slug, ...leadStudyWhere(user) },
    select: {
      id: true,
      slug: true,
      name: true,
      createdBy: { select: { id: true, email: true, name: true, role: true, active: true } },
      members: { select: { role: true, user: { select: { id: true, email: true, name: true, role: true, active: true } } } },
    },
  });
  if (!study) throw new AppError("NOT_FOUND", { message: "No such study." });
  const counts = await db.assignment.groupBy({ by: ["userId"], where: { studyId: study.id }, _count: true });
  const assignments = (userId: string) => counts.find((c) => c.userId === userId)?._count ?? 0;
  const row = (account: { id: string; email: string; name: string; role: Role; active: boolean }, role: StudyRole, owner: boolean): MemberRow => ({
    userId: account.id,
    email: account.email,
    name: account.name,
    accountRole: account.role,
    active: account.active,
    role,
    owner,
    assignments: assignments(account.id),
  });
  const ownerId = study.createdBy?.id;
  const members = study.members.filter((m) => m.user.id !== ownerId).map((m) => row(m.user, m.role, false));
  const order = (r: MemberRow) => (r.role === "LEAD" ? 0 : 1);
  members.sort((a, b) => order(a) - order(b) || a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
  return { study: { id: study.id, slug: study.slug, name: study.name }, members: [...(study.createdBy ? [row(study.createdBy, "LEAD", true)] : []), ...members] };
}

export const addMemberSchema = z.object({
  slug: slugField,
  email: z.email("Give the e-mail address of an existing account.").transform((email) => email.trim().toLowerCase()),
  role: z.enum(["LEAD", "ANNOTATOR"]),
});

/**
 * What a lead is told for every e-mail they may not add, whether an account has it or not, so
 * the answer tells nothing about which e-mails have accounts.
 */
export const NOT_ADDABLE_MESSAGE =
  "No account you may add has this e-mail. Create a new annotator on the accounts page first; an annotator of another lead's study is added by an admin.";

/** Adds an account to the study (or changes its role there). */
export async function addStudyMember(user: StudyUser, input: z.infer<typeof addMemberSchema>): Promise<{ userId: string; role: StudyRole }> {
  const study = await requireLedStudy(user, input.slug);
  if (input.role === "LEAD" && user.role !== "ADMIN") throw new AppError("FORBIDDEN", { message: "Only an admin may add a study lead." });
  const account = await db.user.findFirst({ where: { email: input.email, ...addableAccountsWhere(user) }, select: { id: true, role: true } });
  if (!account) throw new AppError("INVALID_INPUT", { message: NOT_ADDABLE_MESSAGE });
  if (account.id === study.createdById) throw new AppError("INVALID_INPUT", { message: "This account owns the study already." });
  if (input.role === "LEAD" && account.role === "ANNOTATOR") throw new AppError("INVALID_INPUT", { message: "An annotator account cannot lead a study; add it as an annotator." });
  await db.studyMember.upsert({
    where: { studyId_userId: { studyId: study.id, userId: account.id } },
    create: { studyId: study.id, userId: account.id, role: input.role },
    update: { role: input.role },
  });
  return { userId: account.id, role: input.role };
}

export const removeMemberSchema = z.object({ slug: slugField, userId: z.string().min(1) });

/** Removes a member (their assignments and annotations stay); the owner cannot be removed. */
export async function removeStudyMember(user: StudyUser, input: z.infer<typeof removeMemberSchema>): Promise<{ removed: number }> {
  const study = await requireLedStudy(user, input.slug);
  if (input.userId === study.createdById) throw new AppError("INVALID_INPUT", { message: "The owner of a study cannot be removed." });
  const { count } = await db.studyMember.deleteMany({ where: { studyId: study.id, userId: input.userId } });
  if (count === 0) throw new AppError("NOT_FOUND", { message: "No such member of this study." });
  return { removed: count };
}
