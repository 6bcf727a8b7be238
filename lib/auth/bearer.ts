/**
 * The API token a request carries, read without dependencies: route handlers read it
 * (lib/auth/session.ts) and proxy.ts, which refuses it on pages and server actions.
 */
export const TOKEN_PREFIX = "crj_";
/** Why a token is refused on a page or a server action. */
export const TOKEN_NOT_HERE = "API tokens are accepted by the JSON routes under /api only, not by pages or server actions.";
const TOKEN_PATTERN = /^crj_[A-Za-z0-9_-]{43}$/;

/**
 * The token of an `Authorization: Bearer …` header: null without the header (a session may
 * apply), "malformed" for a Bearer credential that cannot be one of ours.
 */
export function bearerToken(authorization: string | null): string | null | "malformed" {
  if (authorization === null) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) return /^Bearer\b/i.test(authorization) ? "malformed" : null;
  return TOKEN_PATTERN.test(match[1]) ? match[1] : "malformed";
}
