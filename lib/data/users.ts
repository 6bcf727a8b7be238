/** Data access for accounts. */
import "server-only";
import { z } from "zod";
import { hashPassword, passwordSchema } from "@/lib/auth/password";
import { db, sql, type PrismaClient } from "@/lib/db/client";
import type { SessionUser } from "@/lib/auth/authenticate";
import type { Role, User } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";
import { env, type Env } from "@/lib/env";
import { type CreatedAccount, generatedPassword } from "@/lib/setup/first-start";

export const newUserSchema = z.object({
  email: z.email().transform((email) => email.toLowerCase()),
  name: z.string().trim().max(200).optional(),
  role: z.enum(["ADMIN", "LEAD", "ANNOTATOR"]),
  password: passwordSchema.optional(),
});
export type NewUser = z.input<typeof newUserSchema>;

/** Creates an account; without a password the account cannot sign in until one is set. */
export async function createUser(input: NewUser, client: Pick<PrismaClient, "user"> = db): Promise<User> {
  const data = newUserSchema.parse(input);
  const existing = await client.user.findUnique({ where: { email: data.email } });
  if (existing) throw new AppError("CONFLICT", { message: `A user with email ${data.email} already exists` });
  return client.user.create({
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
export async function findOrCreateImportedAnnotator(name: string, client: Pick<PrismaClient, "user"> = db): Promise<User> {
  const slug = name.trim().toLowerCase().replace(/[^a-z0-9._-]+/g, "-");
  const email = `${slug}@imported.invalid`;
  return client.user.upsert({
    where: { email },
    update: {},
    create: { email, name: name.trim(), role: "ANNOTATOR", active: false },
  });
}

/**
 * The account behind a session token, if it still may act: active, and with the session version
 * the token was issued for (a password change or deactivation raises it). Runs on every request.
 */
export async function findSessionAccount(id: string, sessionVersion: number | undefined): Promise<SessionUser | null> {
  const rows = await sql<SessionUser>(
    { name: "session-account", text: `SELECT "id", "email", "name", "role" FROM "User" WHERE "id" = $1 AND "active" AND "sessionVersion" = $2` },
    [id, sessionVersion ?? -1],
  );
  return rows[0] ?? null;
}

/** Display names of annotators (their e-mail when the name is empty): reports and reasons name people, not ids. */
export async function raterNames(ids: readonly string[], client: PrismaClient = db): Promise<Map<string, string>> {
  const users = await client.user.findMany({ where: { id: { in: [...ids] } }, select: { id: true, name: true, email: true } });
  return new Map(users.map((u) => [u.id, u.name || u.email]));
}

/** An account of `role` unless one exists (`npm start`, once per database: lib/setup/first-start.ts). */
export async function ensureAccount(client: PrismaClient, role: Role, email: string, password: string | undefined): Promise<CreatedAccount | null> {
  if (await client.user.findFirst({ where: { role } })) return null;
  const plain = password ?? generatedPassword();
  await createUser({ email, role, name: role === "ADMIN" ? "Admin" : "Study lead", password: plain }, client);
  return { email: email.toLowerCase(), role, password: plain, generated: password === undefined };
}

export async function ensureInitialAccounts(client: PrismaClient, config: Pick<Env, "ADMIN_EMAIL" | "ADMIN_PASSWORD" | "LEAD_EMAIL" | "LEAD_PASSWORD"> = env()): Promise<CreatedAccount[]> {
  const created = [
    await ensureAccount(client, "ADMIN", config.ADMIN_EMAIL, config.ADMIN_PASSWORD),
    await ensureAccount(client, "LEAD", config.LEAD_EMAIL, config.LEAD_PASSWORD),
  ];
  return created.filter((account): account is CreatedAccount => account !== null);
}
