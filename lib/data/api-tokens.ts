/**
 * Personal access tokens (lib/auth/api-token.ts): an account makes, lists and revokes its own on
 * the account page; the CLI (the admin's rights) those of any account. A token is found by its
 * hash, and only while it is neither revoked nor expired and its account may sign in.
 */
import "server-only";
import type { SessionAccount } from "@/lib/auth/authenticate";
import { generateToken, type NewToken, tokenHash, tokenHint } from "@/lib/auth/api-token";
import { db, sql } from "@/lib/db/client";
import type { ApiScope } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ApiTokenRow {
  id: string;
  name: string;
  hint: string;
  scopes: ApiScope[];
  expiresAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

const ROW = { id: true, name: true, hint: true, scopes: true, expiresAt: true, lastUsedAt: true, revokedAt: true, createdAt: true } as const;

/** Makes a token for the account; the token itself is in the answer and nowhere else. */
export async function createApiToken(accountId: string, input: NewToken, now = new Date()): Promise<ApiTokenRow & { token: string }> {
  // A crowd participant labels by hand in the browser the link bound them to; a script of theirs would be a bot.
  const owner = await db.account.findUnique({ where: { id: accountId }, select: { crowdStudyId: true } });
  if (!owner || owner.crowdStudyId !== null) throw new AppError("FORBIDDEN", { message: "Participants of a crowd link get no API tokens." });
  const token = generateToken();
  const row = await db.apiToken.create({
    data: { accountId, name: input.name, hint: tokenHint(token), tokenHash: tokenHash(token), scopes: input.scopes, expiresAt: new Date(now.getTime() + input.expiresInDays * DAY_MS) },
    select: ROW,
  });
  return { ...row, token };
}

/** The id of the person account with this e-mail that may sign in (the CLI's `tokens create`). */
export async function tokenOwnerByEmail(email: string): Promise<{ id: string; email: string; role: string }> {
  const account = await db.account.findFirst({ where: { email: email.trim().toLowerCase(), kind: "PERSON", active: true }, select: { id: true, email: true, role: true } });
  if (!account) throw new AppError("NOT_FOUND", { message: `No active account with e-mail ${email}.` });
  return account;
}

/** An account's tokens, newest first (`accountId` undefined: every account's, for the CLI). */
export async function listApiTokens(accountId: string | undefined): Promise<(ApiTokenRow & { email: string })[]> {
  const rows = await db.apiToken.findMany({ where: accountId === undefined ? {} : { accountId }, orderBy: { createdAt: "desc" }, select: { ...ROW, account: { select: { email: true } } } });
  return rows.map(({ account, ...row }) => ({ ...row, email: account.email }));
}

/** Revokes one of the account's tokens (`accountId` undefined: any account's); another account's is not found. */
export async function revokeApiToken(accountId: string | undefined, id: string, now = new Date()): Promise<ApiTokenRow> {
  const { count } = await db.apiToken.updateMany({ where: { id, revokedAt: null, ...(accountId === undefined ? {} : { accountId }) }, data: { revokedAt: now } });
  const row = count === 0 ? null : await db.apiToken.findUnique({ where: { id }, select: ROW });
  if (!row) throw new AppError("NOT_FOUND", { message: "No such token that is not revoked yet." });
  return row;
}

export interface TokenAccount extends SessionAccount {
  scopes: ApiScope[];
  sessionVersion: number;
}

/**
 * The account a token acts as, with the token's scopes, or null for a token unknown, revoked or
 * expired, or whose account may not sign in. Runs on every request with a token; its last use
 * is recorded at most once a minute.
 */
export async function findTokenAccount(token: string): Promise<TokenAccount | null> {
  const rows = await sql<TokenAccount>(
    {
      name: "token-account",
      text: `WITH found AS (
        SELECT t."id" AS "tokenId", t."lastUsedAt", u."id", u."email", u."name", u."role", u."sessionVersion", t."scopes"::text[] AS "scopes"
        FROM "ApiToken" t JOIN "User" u ON u."id" = t."accountId"
        WHERE t."tokenHash" = $1 AND t."revokedAt" IS NULL AND t."expiresAt" > now() AND u."active" AND u."kind" = 'PERSON'
      ), touched AS (
        UPDATE "ApiToken" SET "lastUsedAt" = now() FROM found
        WHERE "ApiToken"."id" = found."tokenId" AND (found."lastUsedAt" IS NULL OR found."lastUsedAt" < now() - interval '1 minute')
      )
      SELECT "id", "email", "name", "role", "sessionVersion", "scopes" FROM found`,
    },
    [tokenHash(token)],
  );
  return rows[0] ?? null;
}
