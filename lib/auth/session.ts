/**
 * Authorization for pages, route handlers and server actions. Every entry point calls one of
 * these; the account is re-read from the database so a deactivated or demoted account, or a
 * session from before a password change (session version), loses access at once, not when its
 * token expires.
 */
import { getServerSession } from "next-auth";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { PAGE_PATH_HEADER, signInPath } from "@/lib/auth/callback";
import { authOptions } from "@/lib/auth/options";
import type { SessionAccount } from "@/lib/auth/authenticate";
import { findSessionAccount } from "@/lib/data/accounts";
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

/** For the save route: the token's claims; the save checks the account inside its own statement. */
export async function requireApiSessionClaims(): Promise<SessionClaims> {
  const claims = await getSessionClaims();
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

/** For route handlers and server actions: throws AppError UNAUTHENTICATED / FORBIDDEN. */
export async function requireApiAccount(roles?: readonly Role[]): Promise<SessionAccount> {
  const account = await getSessionAccount();
  if (!account) throw new AppError("UNAUTHENTICATED", { message: "Sign in first." });
  if (roles && !roles.includes(account.role)) throw new AppError("FORBIDDEN", { message: "Your role may not do this." });
  return account;
}

export function isLead(account: SessionAccount): boolean {
  return LEAD_ROLES.includes(account.role);
}
