/**
 * Personal access tokens: `crj_` and 43 characters of base64url (32 random bytes). Only their
 * SHA-256 is stored: a fast hash suffices for a random secret of 256 bits, which no one can
 * guess from its hash, unlike a password. A token acts as its account, within its scopes and
 * never beyond the account's role (lib/auth/session.ts).
 */
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { TOKEN_PREFIX } from "@/lib/auth/bearer";
import type { ApiScope } from "@/lib/generated/prisma/enums";

/** The scopes by their names in the CLI, the account page and the OpenAPI document. */
export const API_SCOPES = { read: "READ", import: "IMPORT", assign: "ASSIGN" } as const satisfies Record<string, ApiScope>;
export type ApiScopeName = keyof typeof API_SCOPES;
export const SCOPE_NAMES = Object.keys(API_SCOPES) as ApiScopeName[];
export const SCOPE_DESCRIPTIONS: Record<ApiScopeName, string> = {
  read: "reports and exports",
  import: "imports and the items' management (uploads, metric runs)",
  assign: "assignments (saves, submits, skips, time)",
};

export const scopeName = (scope: ApiScope) => scope.toLowerCase() as ApiScopeName;

export const DEFAULT_EXPIRY_DAYS = 90;
export const MAX_EXPIRY_DAYS = 366;

export const newTokenSchema = z.object({
  name: z.string().trim().min(1, "Name the token (what script uses it).").max(100),
  scopes: z.array(z.enum(SCOPE_NAMES)).min(1, "Choose at least one scope.").transform((names) => [...new Set(names)].map((n) => API_SCOPES[n])),
  expiresInDays: z.number().int().min(1).max(MAX_EXPIRY_DAYS).default(DEFAULT_EXPIRY_DAYS),
});
export type NewToken = z.output<typeof newTokenSchema>;

/** "read,import" as the CLI takes it; unknown names are refused by the schema. */
export const parseScopeList = (text: string) => text.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);

export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

export function tokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** What lists show of a token: its prefix and first four characters. */
export const tokenHint = (token: string) => token.slice(0, TOKEN_PREFIX.length + 4);
