/** Checks email + password against the database, with per-account slow-down of failures. */
import { verifyPassword } from "@/lib/auth/password";
import { remainingLockMs } from "@/lib/auth/throttle";
import { db } from "@/lib/db/client";
import type { Role } from "@/lib/generated/prisma/client";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

export class SignInError extends Error {}

export async function authenticate(emailInput: string, password: string, now = new Date()): Promise<SessionUser> {
  const email = emailInput.trim().toLowerCase();
  const user = await db.user.findUnique({ where: { email } });
  // One message for unknown email and wrong password, so accounts cannot be probed.
  const wrong = new SignInError("Wrong email or password.");
  if (!user) throw wrong;
  const wait = remainingLockMs(user.failedLoginCount, user.lastFailedLoginAt, now);
  if (wait > 0) throw new SignInError(`Too many failed attempts for this account. Try again in ${Math.ceil(wait / 1000)} s.`);
  if (!user.passwordHash || !(await verifyPassword(password, user.passwordHash))) {
    await db.user.update({ where: { id: user.id }, data: { failedLoginCount: { increment: 1 }, lastFailedLoginAt: now } });
    throw wrong;
  }
  if (!user.active) throw new SignInError("This account is not active yet. Ask a study lead to activate it.");
  if (user.failedLoginCount > 0) await db.user.update({ where: { id: user.id }, data: { failedLoginCount: 0, lastFailedLoginAt: null } });
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}
