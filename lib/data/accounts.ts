/**
 * Managing accounts: who may create, activate, reset, deactivate and reactivate whom, and whom
 * a lead may add to a study. Admins manage and add every account. A lead manages only annotator
 * accounts every study of which they lead (or that belong to no study yet): an annotator who
 * also belongs to another lead's study is the admin's to manage. A lead adds to their studies
 * only annotators no other lead has a say over, or who are in one of their studies already, so
 * adding an account never makes it theirs to manage. Nobody else manages or adds any.
 *
 * The rules are part of every query (`manageableAccountsWhere`, `addableAccountsWhere`), checked
 * when the change runs: an id outside them finds nothing, so a lead who sends the admin's id, or
 * the id of an annotator another lead added meanwhile, changes no row and is told there is no
 * such account.
 */
import "server-only";
import type { SessionUser } from "@/lib/auth/authenticate";
import { hashPassword } from "@/lib/auth/password";
import { membersOfLedStudiesWhere, onlyInLedStudiesWhere } from "@/lib/data/study-access";
import { createUser, type NewUser } from "@/lib/data/users";
import { db, type Prisma } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

type Actor = Pick<SessionUser, "id" | "role">;

/** The accounts `actor` may manage (see the file comment). */
export function manageableAccountsWhere(actor: Actor): Prisma.UserWhereInput {
  if (actor.role === "ADMIN") return {};
  if (actor.role !== "LEAD") return { id: { in: [] } };
  return { role: "ANNOTATOR", ...onlyInLedStudiesWhere(actor) };
}

/** The accounts `actor` may add to a study they lead (see the file comment). */
export function addableAccountsWhere(actor: Actor): Prisma.UserWhereInput {
  if (actor.role === "ADMIN") return {};
  if (actor.role !== "LEAD") return { id: { in: [] } };
  return { role: "ANNOTATOR", OR: [onlyInLedStudiesWhere(actor), membersOfLedStudiesWhere(actor)] };
}

/** The accounts page: every account for admins, the manageable ones for leads. */
export function listAccounts(actor: Actor) {
  return db.user.findMany({
    where: manageableAccountsWhere(actor),
    orderBy: [{ role: "asc" }, { email: "asc" }],
    select: { id: true, email: true, name: true, role: true, active: true, createdAt: true, passwordHash: true },
  }).then((rows) => rows.map(({ passwordHash, ...account }) => ({ ...account, hasPassword: passwordHash !== null })));
}

/** Leads create annotators; only admins create leads and admins. */
export async function createAccount(actor: Actor, input: NewUser) {
  if (input.role !== "ANNOTATOR" && actor.role !== "ADMIN") throw new AppError("FORBIDDEN", { message: "Only an admin may create lead or admin accounts." });
  if (actor.role !== "ADMIN" && actor.role !== "LEAD") throw new AppError("FORBIDDEN", { message: "Your role may not create accounts." });
  return createUser(input);
}

/**
 * Changes one manageable account in one statement; 0 rows means the id is unknown or not
 * the actor's to manage, which are answered alike.
 */
async function updateManageable(actor: Actor, userId: string, data: Prisma.UserUpdateManyMutationInput, extra: Prisma.UserWhereInput = {}): Promise<void> {
  const { count } = await db.user.updateMany({ where: { AND: [{ id: userId }, manageableAccountsWhere(actor), extra] }, data });
  if (count === 0) throw new AppError("NOT_FOUND", { message: "No such account, or not one you may manage." });
}

/** A new password for an account (activation of an imported account, or a reset); ends its sessions. */
export async function setAccountPassword(actor: Actor, userId: string, password: string, { activate }: { activate: boolean }): Promise<void> {
  const passwordHash = await hashPassword(password);
  await updateManageable(actor, userId, { passwordHash, sessionVersion: { increment: 1 }, ...(activate ? { active: true } : {}) });
}

/** Deactivation ends the account's sessions and refuses sign-in; reactivation allows it again with the same password. */
export async function setAccountActive(actor: Actor, userId: string, active: boolean): Promise<void> {
  // An admin cannot deactivate their own account (there may be no other admin to undo it).
  const data = active ? { active } : { active, sessionVersion: { increment: 1 } };
  await updateManageable(actor, userId, data, active ? { passwordHash: { not: null } } : { id: { not: actor.id } });
}

/** Every account with its studies (owned, or member of with the role there), for operators (`cli users`). */
export async function listAccountsWithStudies() {
  const users = await db.user.findMany({
    orderBy: [{ role: "asc" }, { email: "asc" }],
    select: { id: true, email: true, name: true, role: true, active: true, studiesCreated: { select: { slug: true } }, memberships: { select: { role: true, study: { select: { slug: true } } } } },
  });
  return users.map(({ studiesCreated, memberships, ...account }) => ({
    ...account,
    studies: [...studiesCreated.map((s) => ({ slug: s.slug, role: "OWNER" })), ...memberships.map((m) => ({ slug: m.study.slug, role: m.role }))],
  }));
}
