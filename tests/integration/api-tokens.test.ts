/**
 * API tokens on PostgreSQL: only the hash is stored; a token finds its account with its scopes
 * while it is neither revoked nor expired and the account may sign in; an account revokes only
 * its own; the CLI makes (printing the token once), lists and revokes them.
 */
import { beforeAll, describe, expect, inject, test } from "vitest";
import { newTokenSchema, tokenHash } from "@/lib/auth/api-token";
import { bearerToken } from "@/lib/auth/bearer";
import { addAccount } from "@/lib/data/accounts";
import { createApiToken, findTokenAccount, listApiTokens, revokeApiToken } from "@/lib/data/api-tokens";
import { createClient } from "@/lib/db/client";
import { cli } from "./cli";

describe("API tokens", () => {
  const db = createClient(inject("databaseUrl"));
  const tag = `tok${Date.now()}`;
  beforeAll(() => {
    process.env.DATABASE_URL = inject("databaseUrl");
  });

  test("a token is stored as its SHA-256 only and finds its account with its scopes", async () => {
    const account = await addAccount({ email: `${tag}-a@test.local`, role: "LEAD", password: "token-password-1" }, db);
    const made = await createApiToken(account.id, newTokenSchema.parse({ name: "nightly", scopes: ["read", "import", "read"] }));
    expect(made.token).toMatch(/^crj_[A-Za-z0-9_-]{43}$/);
    expect(bearerToken(`Bearer ${made.token}`)).toBe(made.token);
    const stored = await db.apiToken.findUniqueOrThrow({ where: { id: made.id } });
    expect(stored.tokenHash).toBe(tokenHash(made.token));
    expect(JSON.stringify(stored)).not.toContain(made.token.slice(8));
    expect(stored.scopes).toEqual(["READ", "IMPORT"]);
    expect(Math.round((stored.expiresAt.getTime() - stored.createdAt.getTime()) / 86_400_000)).toBe(90);
    const found = await findTokenAccount(made.token);
    expect(found).toMatchObject({ id: account.id, role: "LEAD", scopes: ["READ", "IMPORT"] });
    expect((await db.apiToken.findUniqueOrThrow({ where: { id: made.id } })).lastUsedAt).not.toBeNull();
    // one character off is another token
    expect(await findTokenAccount(made.token.slice(0, -1) + (made.token.endsWith("A") ? "B" : "A"))).toBeNull();
  });

  test("a crowd participant gets no token", async () => {
    const participant = await addAccount({ email: `${tag}-p@participants.invalid`, role: "ANNOTATOR", password: "token-password-1" }, db);
    await db.account.update({ where: { id: participant.id }, data: { crowdPlatform: "prolific", crowdId: `${tag}-pid`, crowdStudyId: `${tag}-study` } });
    await expect(createApiToken(participant.id, newTokenSchema.parse({ name: "bot", scopes: ["assign"] }))).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await db.apiToken.count({ where: { accountId: participant.id } })).toBe(0);
  });

  test("revoked and expired tokens, and tokens of a deactivated account, find nothing; an account revokes only its own", async () => {
    const owner = await addAccount({ email: `${tag}-b@test.local`, role: "ANNOTATOR", password: "token-password-1" }, db);
    const other = await addAccount({ email: `${tag}-c@test.local`, role: "ANNOTATOR", password: "token-password-1" }, db);
    const made = await createApiToken(owner.id, newTokenSchema.parse({ name: "revoked", scopes: ["assign"] }));
    await expect(revokeApiToken(other.id, made.id)).rejects.toThrow(/No such token/);
    expect(await findTokenAccount(made.token)).not.toBeNull();
    await revokeApiToken(owner.id, made.id);
    expect(await findTokenAccount(made.token)).toBeNull();
    await expect(revokeApiToken(owner.id, made.id)).rejects.toThrow(/No such token/);

    const expired = await createApiToken(owner.id, newTokenSchema.parse({ name: "old", scopes: ["assign"], expiresInDays: 1 }), new Date(Date.now() - 2 * 86_400_000));
    expect(await findTokenAccount(expired.token)).toBeNull();

    const live = await createApiToken(owner.id, newTokenSchema.parse({ name: "live", scopes: ["assign"] }));
    expect(await findTokenAccount(live.token)).not.toBeNull();
    await db.account.update({ where: { id: owner.id }, data: { active: false } });
    expect(await findTokenAccount(live.token)).toBeNull();
    expect((await listApiTokens(owner.id)).map((t) => t.name)).toEqual(["live", "old", "revoked"]);
    expect(await listApiTokens(other.id)).toEqual([]);
  });

  test("bad input is refused with what is wrong", () => {
    expect(() => newTokenSchema.parse({ name: "x", scopes: ["write"] })).toThrow(/scopes/);
    expect(() => newTokenSchema.parse({ name: "", scopes: ["read"] })).toThrow(/Name the token/);
    expect(() => newTokenSchema.parse({ name: "x", scopes: [] })).toThrow(/at least one scope/);
    expect(() => newTokenSchema.parse({ name: "x", scopes: ["read"], expiresInDays: 1000 })).toThrow(/expiresInDays/);
    expect(bearerToken(null)).toBeNull();
    expect(bearerToken("Basic abc")).toBeNull();
    expect(bearerToken("Bearer not-ours")).toBe("malformed");
  });

  test("the CLI makes a token (printed once), lists it without the token and revokes it", async () => {
    const account = await addAccount({ email: `${tag}-cli@test.local`, role: "LEAD", password: "token-password-1" }, db);
    const made = await cli("tokens", "create", "--email", account.email, "--scopes", "read,assign", "--name", "ci job", "--expires-days", "7");
    expect(made.code, made.stderr).toBe(0);
    const created = JSON.parse(made.stdout) as { id: string; token: string; scopes: string[]; expiresAt: string };
    expect(created.scopes).toEqual(["read", "assign"]);
    expect((await findTokenAccount(created.token))?.id).toBe(account.id);
    const listed = await cli("tokens", "list", "--email", account.email);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).not.toContain(created.token);
    expect((JSON.parse(listed.stdout) as { id: string; name: string }[]).map((t) => t.name)).toEqual(["ci job"]);
    const revoked = await cli("tokens", "revoke", "--id", created.id);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(await findTokenAccount(created.token)).toBeNull();
    const wrong = await cli("tokens", "create", "--email", account.email, "--scopes", "write", "--name", "x");
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/scopes/);
  });
});
