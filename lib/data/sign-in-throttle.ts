/**
 * The sign-in attempt counts (lib/auth/throttle.ts explains the policy) in PostgreSQL, so that
 * every web process shares them. One INSERT … ON CONFLICT DO UPDATE per key counts the attempt
 * and decides, under the row lock, whether it is checked; parallel attempts queue on that lock,
 * so a burst gets exactly the free attempts checked and no more. And the account a sign-in
 * checks the password of (lib/auth/authenticate.ts).
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { ThrottleKey } from "@/lib/auth/throttle";
import { FORGET_AFTER_MS } from "@/lib/auth/throttle";
import { db, Prisma } from "@/lib/db/client";

export interface AttemptVerdict {
  checked: boolean;
  /** When refused: how long until an attempt will be checked again. */
  retryAfterMs: number;
}

/** The wait after `attempts` counted attempts, in milliseconds (0 while attempts are free). */
function delayMs(attempts: Prisma.Sql, { free, capMs }: ThrottleKey["policy"]): Prisma.Sql {
  return Prisma.sql`(CASE WHEN ${attempts} < ${free}::int THEN 0 ELSE LEAST(${capMs}::float8, 1000 * power(2::float8, ${attempts} - ${free}::int)) END * interval '1 millisecond')`;
}

async function countOne({ key, policy }: ThrottleKey, attemptId: string): Promise<AttemptVerdict> {
  const forgotten = Prisma.sql`t."lastAttemptAt" < clock_timestamp() - ${FORGET_AFTER_MS}::float8 * interval '1 millisecond'`;
  const open = Prisma.sql`(${forgotten} OR t."admittedAt" + ${delayMs(Prisma.sql`t."attempts"`, policy)} <= clock_timestamp())`;
  const [row] = await db.$queryRaw<{ checked: boolean; waitMs: number }[]>`
    INSERT INTO "SignInThrottle" AS t ("key", "attempts", "admittedAt", "attemptId", "lastAttemptAt")
    VALUES (${key}, 1, clock_timestamp(), ${attemptId}, clock_timestamp())
    ON CONFLICT ("key") DO UPDATE SET
      "attempts" = CASE WHEN ${forgotten} THEN 1 ELSE LEAST(t."attempts", 1000) + 1 END,
      "admittedAt" = CASE WHEN ${open} THEN clock_timestamp() ELSE t."admittedAt" END,
      "attemptId" = CASE WHEN ${open} THEN EXCLUDED."attemptId" ELSE t."attemptId" END,
      "lastAttemptAt" = clock_timestamp()
    RETURNING "attemptId" = ${attemptId} AS "checked",
      EXTRACT(EPOCH FROM "admittedAt" + ${delayMs(Prisma.sql`"attempts"`, policy)} - clock_timestamp())::float8 * 1000 AS "waitMs"`;
  return { checked: row.checked, retryAfterMs: Math.max(0, row.waitMs) };
}

/** Counts one attempt under every key; it is checked only if every key lets it through. */
export async function countSignInAttempt(keys: readonly ThrottleKey[]): Promise<AttemptVerdict> {
  const attemptId = randomUUID();
  const verdicts = [];
  for (const key of keys) verdicts.push(await countOne(key, attemptId));
  const refused = verdicts.filter((v) => !v.checked);
  return { checked: refused.length === 0, retryAfterMs: Math.max(0, ...refused.map((v) => v.retryAfterMs)) };
}

/**
 * After a successful sign-in the keys in `forget` (the account, or the device cookie) start
 * afresh and those in `giveBack` (the address) get their attempt back, so many people signing
 * in from one address do not slow each other; counts idle for a day go.
 */
export async function signInSucceeded(forget: readonly ThrottleKey[], giveBack: readonly ThrottleKey[]): Promise<void> {
  await db.$executeRaw`DELETE FROM "SignInThrottle" WHERE "key" = ANY(${forget.map((k) => k.key)}::text[]) OR "lastAttemptAt" < clock_timestamp() - interval '1 day'`;
  if (giveBack.length) await db.$executeRaw`UPDATE "SignInThrottle" SET "attempts" = GREATEST("attempts" - 1, 0) WHERE "key" = ANY(${giveBack.map((k) => k.key)}::text[])`;
}

/** The account with this (lower-case) e-mail, as sign-in checks it; null when there is none. */
export function signInAccount(email: string) {
  // Only a person signs in: a judge rater's account (kind JUDGE) is never found here.
  return db.account.findUnique({ where: { email, kind: "PERSON" }, select: { id: true, email: true, name: true, role: true, passwordHash: true, active: true, sessionVersion: true } });
}
