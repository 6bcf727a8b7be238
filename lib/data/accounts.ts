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
import { z } from "zod";
import type { SessionAccount } from "@/lib/auth/authenticate";
import { hashPassword, passwordSchema } from "@/lib/auth/password";
import { membersOfLedStudiesWhere, onlyInLedStudiesWhere } from "@/lib/data/study-access";
import { db, sql, type Prisma, type PrismaClient } from "@/lib/db/client";
import type { Account, Role } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";
import { env, type Env } from "@/lib/env";
import { type CreatedAccount, generatedPassword } from "@/lib/setup/first-start";

export const newAccountSchema = z.object({
  email: z.email().transform((email) => email.toLowerCase()),
  name: z.string().trim().max(200).optional(),
  role: z.enum(["ADMIN", "LEAD", "ANNOTATOR"]),
  password: passwordSchema.optional(),
});
export type NewAccount = z.input<typeof newAccountSchema>;

/** Creates an account; without a password the account cannot sign in until one is set. */
export async function addAccount(input: NewAccount, client: Pick<PrismaClient, "account"> = db): Promise<Account> {
  const data = newAccountSchema.parse(input);
  const existing = await client.account.findUnique({ where: { email: data.email } });
  if (existing) throw new AppError("CONFLICT", { message: `An account with email ${data.email} already exists` });
  return client.account.create({
    data: {
      email: data.email,
      name: data.name || data.email.split("@")[0],
      role: data.role as Role,
      passwordHash: data.password ? await hashPassword(data.password) : null,
      active: data.password !== undefined,
    },
  });
}

/**
 * The account for an annotator named in an imported file (e.g. "marcus"): created inactive,
 * with no password, until a lead activates it.
 */
export async function findOrCreateImportedAnnotator(name: string, client: Pick<PrismaClient, "account"> = db): Promise<Account> {
  const slug = name.trim().toLowerCase().replace(/[^a-z0-9._-]+/g, "-");
  const email = `${slug}@imported.invalid`;
  return client.account.upsert({
    where: { email },
    update: {},
    create: { email, name: name.trim(), role: "ANNOTATOR", active: false },
  });
}

/**
 * The account behind a session token, if it still may act: active, and with the session version
 * the token was issued for (a password change or deactivation raises it). Runs on every request.
 */
export async function findSessionAccount(id: string, sessionVersion: number | undefined): Promise<SessionAccount | null> {
  const rows = await sql<SessionAccount>(
    { name: "session-account", text: `SELECT "id", "email", "name", "role" FROM "User" WHERE "id" = $1 AND "active" AND "kind" = 'PERSON' AND "sessionVersion" = $2` },
    [id, sessionVersion ?? -1],
  );
  return rows[0] ?? null;
}

/** Display names of annotators (their e-mail when the name is empty): reports and reasons name people, not ids. */
export async function raterNames(ids: readonly string[], client: PrismaClient = db): Promise<Map<string, string>> {
  const accounts = await client.account.findMany({ where: { id: { in: [...ids] } }, select: { id: true, name: true, email: true } });
  return new Map(accounts.map((u) => [u.id, u.name || u.email]));
}

/** An account of `role` unless one exists (`npm start`, once per database: lib/setup/first-start.ts). */
export async function ensureAccount(client: PrismaClient, role: Role, email: string, password: string | undefined): Promise<CreatedAccount | null> {
  if (await client.account.findFirst({ where: { role } })) return null;
  const plain = password ?? generatedPassword();
  await addAccount({ email, role, name: role === "ADMIN" ? "Admin" : "Study lead", password: plain }, client);
  return { email: email.toLowerCase(), role, password: plain, generated: password === undefined };
}

export async function ensureInitialAccounts(client: PrismaClient, config: Pick<Env, "ADMIN_EMAIL" | "ADMIN_PASSWORD" | "LEAD_EMAIL" | "LEAD_PASSWORD"> = env()): Promise<CreatedAccount[]> {
  const created = [
    await ensureAccount(client, "ADMIN", config.ADMIN_EMAIL, config.ADMIN_PASSWORD),
    await ensureAccount(client, "LEAD", config.LEAD_EMAIL, config.LEAD_PASSWORD),
  ];
  return created.filter((account): account is CreatedAccount => account !== null);
}

/** The accounts `actor` may manage (see the file comment). */
export function manageableAccountsWhere(actor: Pick<SessionAccount, "id" | "role">): Prisma.AccountWhereInput {
  // A judge rater's account (docs/judges.md) is nobody's to manage: it never gets a password or becomes active.
  if (actor.role === "ADMIN") return { kind: "PERSON" };
  if (actor.role !== "LEAD") return { id: { in: [] } };
  return { role: "ANNOTATOR", kind: "PERSON", ...onlyInLedStudiesWhere(actor) };
}

/** The accounts `actor` may add to a study they lead (see the file comment). */
export function addableAccountsWhere(actor: Pick<SessionAccount, "id" | "role">): Prisma.AccountWhereInput {
  if (actor.role === "ADMIN") return { kind: "PERSON" };
  if (actor.role !== "LEAD") return { id: { in: [] } };
  return { role: "ANNOTATOR", kind: "PERSON", OR: [onlyInLedStudiesWhere(actor), membersOfLedStudiesWhere(actor)] };
}

/** The accounts page: every account for admins, the manageable ones for leads. */
export function listAccounts(actor: Pick<SessionAccount, "id" | "role">) {
  return db.account.findMany({
    where: manageableAccountsWhere(actor),
    orderBy: [{ role: "asc" }, { email: "asc" }],
    select: { id: true, email: true, name: true, role: true, active: true, createdAt: true, passwordHash: true },
  }).then((rows) => rows.map(({ passwordHash, ...account }) => ({ ...account, hasPassword: passwordHash !== null })));
}

/** Leads create annotators; only admins create leads and admins. */
export async function createAccount(actor: Pick<SessionAccount, "id" | "role">, input: NewAccount) {
  if (input.role !== "ANNOTATOR" && actor.role !== "ADMIN") throw new AppError("FORBIDDEN", { message: "Only an admin may create lead or admin accounts." });
  if (actor.role !== "ADMIN" && actor.role !== "LEAD") throw new AppError("FORBIDDEN", { message: "Your role may not create accounts." });
  return addAccount(input);
}

/**
 * Changes one manageable account in one statement; 0 rows means the id is unknown or not
 * the actor's to manage, which are answered alike.
 */
async function updateManageable(actor: Pick<SessionAccount, "id" | "role">, accountId: string, data: Prisma.AccountUpdateManyMutationInput, extra: Prisma.AccountWhereInput = {}): Promise<void> {
  const { count } = await db.account.updateMany({ where: { AND: [{ id: accountId }, manageableAccountsWhere(actor), extra] }, data });
  if (count === 0) throw new AppError("NOT_FOUND", { message: "No such account, or not one you may manage." });
}

/** A new password for an account (activation of an imported account, or a reset); ends its sessions. */
export async function setAccountPassword(actor: Pick<SessionAccount, "id" | "role">, accountId: string, password: string, { activate }: { activate: boolean }): Promise<void> {
  const passwordHash = await hashPassword(password);
  await updateManageable(actor, accountId, { passwordHash, sessionVersion: { increment: 1 }, ...(activate ? { active: true } : {}) });
}

/** Deactivation ends the account's sessions and refuses sign-in; reactivation allows it again with the same password. */
export async function setAccountActive(actor: Pick<SessionAccount, "id" | "role">, accountId: string, active: boolean): Promise<void> {
  // An admin cannot deactivate their own account (there may be no other admin to undo it).
  const data = active ? { active } : { active, sessionVersion: { increment: 1 } };
  await updateManageable(actor, accountId, data, active ? { passwordHash: { not: null } } : { id: { not: actor.id } });
}

/** Every account with its studies (owned, or member of with the role there), for operators (`cli accounts`). */
export async function listAccountsWithStudies() {
  const accounts = await db.account.findMany({
    orderBy: [{ role: "asc" }, { email: "asc" }],
    select: { id: true, email: true, name: true, role: true, active: true, ownedStudies: { select: { slug: true } }, memberships: { select: { role: true, study: { select: { slug: true } } } } },
  });
  return accounts.map(({ ownedStudies, memberships, ...account }) => ({
    ...account,
    studies: [...ownedStudies.map((s) => ({ slug: s.slug, role: "OWNER" })), ...memberships.map((m) => ({ slug: m.study.slug, role: m.role }))],
  }));
}
