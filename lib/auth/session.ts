/**
 * Authorization for pages, route handlers and server actions. Every entry point calls one of
 * these; the account is re-read from the database so a deactivated or demoted account, or a
 * session from before a password change (session version), loses access at once, not when its
 * token expires.
 *
 * Route handlers also take an API token (`Authorization: Bearer crj_…`, lib/auth/api-token.ts)
 * in place of the session: each names the scope a token needs to call it, and a token acts as
 * its account, so the role check and the queries' own scoping apply as to a session. Pages and
 * server actions never take a token (proxy.ts refuses one outside /api; an action names no scope).
 */
import { getServerSession } from "next-auth";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { PAGE_PATH_HEADER, signInPath } from "@/lib/auth/callback";
import { authOptions } from "@/lib/auth/options";
import { API_SCOPES, type ApiScopeName } from "@/lib/auth/api-token";
import { bearerToken, TOKEN_NOT_HERE } from "@/lib/auth/bearer";
import type { SessionAccount } from "@/lib/auth/authenticate";
import { findSessionAccount } from "@/lib/data/accounts";
import { findTokenAccount, type TokenAccount } from "@/lib/data/api-tokens";
import { AppError } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/client";

export const LEAD_ROLES: readonly Role[] = ["LEAD", "ADMIN"];

/** Who the session token names, read from the token alone (no database): for `saveAnnotation`, whose statement checks the account itself. */
export interface SessionClaims {
  id: string;
  sessionVersion: number | undefined;
}

export async function getSessionClaims(): Promise<SessionClaims | null> {
  const session = await getServerSession(authOptions);
  return session?.user?.id ? { id: session.user.id, sessionVersion: session.sessionVersion } : null;
}

export async function getSessionAccount(): Promise<SessionAccount | null> {
  const claims = await getSessionClaims();
  // A token from before the last password change or deactivation is no session any more.
  return claims ? findSessionAccount(claims.id, claims.sessionVersion) : null;
}

/**
 * The account of the request's API token, or null when it carries none. `scope`: what a token
 * needs for this route; undefined where tokens are refused (server actions).
 */
async function apiTokenAccount(scope: ApiScopeName | undefined): Promise<TokenAccount | null> {
  const token = bearerToken((await headers()).get("authorization"));
  if (token === null) return null;
  if (scope === undefined) throw new AppError("UNAUTHENTICATED", { message: TOKEN_NOT_HERE });
  const account = token === "malformed" ? null : await findTokenAccount(token);
  if (!account) throw new AppError("UNAUTHENTICATED", { message: "This API token is unknown, revoked or expired." });
  if (!account.scopes.includes(API_SCOPES[scope])) throw new AppError("FORBIDDEN", { message: `This API token lacks the ${scope} scope this route needs.` });
  return account;
}

/** For the save route: the session's (or API token's) claims; the save checks the account inside its own statement. */
export async function requireApiSessionClaims(scope: ApiScopeName): Promise<SessionClaims> {
  const tokenAccount = await apiTokenAccount(scope);
  const claims = tokenAccount ? { id: tokenAccount.id, sessionVersion: tokenAccount.sessionVersion } : await getSessionClaims();
  if (!claims) throw new AppError("UNAUTHENTICATED", { message: "Sign in first." });
  return claims;
}

/** For pages: redirects to sign-in (returning to the page afterwards) when signed out, answers 403 when the role is not allowed. */
export async function requirePageAccount(roles?: readonly Role[]): Promise<SessionAccount> {
  const account = await getSessionAccount();
  if (!account) redirect(signInPath((await headers()).get(PAGE_PATH_HEADER)));
  if (roles && !roles.includes(account.role)) forbidden();
  return account;
}

/**
 * For route handlers and server actions: throws AppError UNAUTHENTICATED / FORBIDDEN. `scope`:
 * the API token scope a route takes (lib/auth/api-token.ts); without it (server actions) a token
 * is refused.
 */
export async function requireApiAccount(roles?: readonly Role[], scope?: ApiScopeName): Promise<SessionAccount> {
  const tokenAccount = await apiTokenAccount(scope);
  const account = tokenAccount ? { id: tokenAccount.id, email: tokenAccount.email, name: tokenAccount.name, role: tokenAccount.role } : await getSessionAccount();
  if (!account) throw new AppError("UNAUTHENTICATED", { message: "Sign in first." });
  if (roles && !roles.includes(account.role)) throw new AppError("FORBIDDEN", { message: "Your role may not do this." });
  return account;
}

export function isLead(account: SessionAccount): boolean {
  return LEAD_ROLES.includes(account.role);
}
