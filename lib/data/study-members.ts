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
import { leadStudyWhere, requireLedStudy } from "@/lib/data/study-access";
import type { Role, StudyRole } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";
import type { SessionAccount } from "@/lib/auth/authenticate";

export interface MemberRow {
  accountId: string;
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
export async function listStudyMembers(account: Pick<SessionAccount, "id" | "role">, slug: string): Promise<{ study: { id: string; slug: string; name: string }; members: MemberRow[] }> {
  const study = await db.study.findFirst({
    where: { slug, ...leadStudyWhere(account) },
    select: {
      id: true,
      slug: true,
      name: true,
      owner: { select: { id: true, email: true, name: true, role: true, active: true } },
      members: { select: { role: true, account: { select: { id: true, email: true, name: true, role: true, active: true } } } },
    },
  });
  if (!study) throw new AppError("NOT_FOUND", { message: "No such study." });
  const counts = await db.assignment.groupBy({ by: ["annotatorId"], where: { studyId: study.id }, _count: true });
  const assignments = (accountId: string) => counts.find((c) => c.annotatorId === accountId)?._count ?? 0;
  const row = (account: { id: string; email: string; name: string; role: Role; active: boolean }, role: StudyRole, owner: boolean): MemberRow => ({
    accountId: account.id,
    email: account.email,
    name: account.name,
    accountRole: account.role,
    active: account.active,
    role,
    owner,
    assignments: assignments(account.id),
  });
  const ownerId = study.owner?.id;
  const members = study.members.filter((m) => m.account.id !== ownerId).map((m) => row(m.account, m.role, false));
  const order = (r: MemberRow) => (r.role === "LEAD" ? 0 : 1);
  members.sort((a, b) => order(a) - order(b) || a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
  return { study: { id: study.id, slug: study.slug, name: study.name }, members: [...(study.owner ? [row(study.owner, "LEAD", true)] : []), ...members] };
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
export async function addStudyMember(lead: Pick<SessionAccount, "id" | "role">, input: z.infer<typeof addMemberSchema>): Promise<{ accountId: string; role: StudyRole }> {
  const study = await requireLedStudy(lead, input.slug);
  if (input.role === "LEAD" && lead.role !== "ADMIN") throw new AppError("FORBIDDEN", { message: "Only an admin may add a study lead." });
  const account = await db.account.findFirst({ where: { email: input.email, ...addableAccountsWhere(lead) }, select: { id: true, role: true } });
  if (!account) throw new AppError("INVALID_INPUT", { message: NOT_ADDABLE_MESSAGE });
  if (account.id === study.ownerId) throw new AppError("INVALID_INPUT", { message: "This account owns the study already." });
  if (input.role === "LEAD" && account.role === "ANNOTATOR") throw new AppError("INVALID_INPUT", { message: "An annotator account cannot lead a study; add it as an annotator." });
  await db.studyMember.upsert({
    where: { studyId_accountId: { studyId: study.id, accountId: account.id } },
    create: { studyId: study.id, accountId: account.id, role: input.role },
    update: { role: input.role },
  });
  return { accountId: account.id, role: input.role };
}

export const removeMemberSchema = z.object({ slug: slugField, accountId: z.string().min(1) });

/** Removes a member (their assignments and annotations stay); the owner cannot be removed. */
export async function removeStudyMember(account: Pick<SessionAccount, "id" | "role">, input: z.infer<typeof removeMemberSchema>): Promise<{ removed: number }> {
  const study = await requireLedStudy(account, input.slug);
  if (input.accountId === study.ownerId) throw new AppError("INVALID_INPUT", { message: "The owner of a study cannot be removed." });
  const { count } = await db.studyMember.deleteMany({ where: { studyId: study.id, accountId: input.accountId } });
  if (count === 0) throw new AppError("NOT_FOUND", { message: "No such member of this study." });
  return { removed: count };
}
