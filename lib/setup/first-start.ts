/**
 * What `npm start` does once per database: make sure an admin and a lead can sign in.
 * Credentials come from ADMIN_EMAIL / ADMIN_PASSWORD and LEAD_EMAIL / LEAD_PASSWORD, or are
 * generated; a generated password is returned (and printed by the start script) only once.
 */
import { randomBytes } from "node:crypto";
import { createUser } from "@/lib/data/users";
import type { PrismaClient } from "@/lib/db/client";
import type { Role } from "@/lib/generated/prisma/client";
import { env, type Env } from "@/lib/env";

export interface CreatedAccount {
  email: string;
  role: Role;
  password: string;
  generated: boolean;
}

/** A random password for an account whose password is not given (printed once, never stored). */
export function generatedPassword(): string {
  return randomBytes(12).toString("base64url");
}

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
