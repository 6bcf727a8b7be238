/**
 * Checks email + password against the database. Every attempt is counted first (under the
 * browser's device cookie for this account when it has one, else per account e-mail and per
 * client address, lib/auth/throttle.ts), and an unknown e-mail is treated exactly like a known
 * one: same count, same message, one bcrypt comparison each.
 */
import type { DeviceToken } from "@/lib/auth/device-cookie";
import { MAX_PASSWORD_BYTES, verifyPassword } from "@/lib/auth/password";
import { deviceKey, signInKeys } from "@/lib/auth/throttle";
import { countSignInAttempt, signInAccount, signInSucceeded } from "@/lib/data/sign-in-throttle";
import type { Role } from "@/lib/generated/prisma/client";

export interface SessionAccount {
  id: string;
  email: string;
  name: string;
  role: Role;
}

export class SignInError extends Error {}

/** A bcrypt hash (cost 10, as lib/auth/password.ts) of a password no account has. */
const UNKNOWN_ACCOUNT_HASH = "$2b$10$9fpHENvQcgJ/oFFXRbHosOjwhAJRJDpSVHqD5XLN5RcagD6QJhllO";

/** `device`: the browser's valid device cookie, if any (it counts only for the account it names). */
export async function authenticate(emailInput: string, password: string, address: string, device: DeviceToken | null = null): Promise<SessionAccount & { sessionVersion: number }> {
  const email = emailInput.trim().toLowerCase();
  const keys = signInKeys(email, address);
  const counted = device?.email === email ? { forget: [deviceKey(device.nonce)], giveBack: [] } : { forget: [keys.account], giveBack: [keys.address] };
  const attempt = await countSignInAttempt([...counted.forget, ...counted.giveBack]);
  if (!attempt.checked) throw new SignInError(`Too many sign-in attempts. Try again in ${Math.ceil(attempt.retryAfterMs / 1000)} s.`);
  const account = await signInAccount(email);
  const matches = await verifyPassword(password, account?.passwordHash ?? UNKNOWN_ACCOUNT_HASH);
  // bcrypt ignores bytes after the 72nd; no password set here is longer, so a longer one is wrong.
  if (!account?.passwordHash || !matches || Buffer.byteLength(password, "utf8") > MAX_PASSWORD_BYTES) throw new SignInError("Wrong email or password.");
  if (!account.active) throw new SignInError("This account is not active. Ask a study lead to activate it.");
  await signInSucceeded(counted.forget, counted.giveBack);
  return { id: account.id, email: account.email, name: account.name, role: account.role, sessionVersion: account.sessionVersion };
}
