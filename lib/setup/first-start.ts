/**
 * What `npm start` does once per database: make sure an admin and a lead can sign in.
 * Credentials come from ADMIN_EMAIL / ADMIN_PASSWORD and LEAD_EMAIL / LEAD_PASSWORD, or are
 * generated; a generated password is returned (and printed by the start script) only once
 * (lib/data/accounts.ts ensureInitialAccounts).
 */
import { randomBytes } from "node:crypto";
import type { Role } from "@/lib/generated/prisma/client";

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
