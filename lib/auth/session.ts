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
import type { SessionUser } from "@/lib/auth/authenticate";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/client";

export const LEAD_ROLES: readonly Role[] = ["LEAD", "ADMIN"];

export async function getSessionUser(): Promise<SessionUser | null> {
  const session = await getServerSession(authOptions);
  if (!session?.user?.id) return null;
  const user = await db.user.findUnique({ where: { id: session.user.id } });
  // A token from before the last password change or deactivation is no session any more.
  if (!user || !user.active || user.sessionVersion !== session.sessionVersion) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

/** For pages: redirects to sign-in (returning to the page afterwards) when signed out, answers 403 when the role is not allowed. */
export async function requirePageUser(roles?: readonly Role[]): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect(signInPath((await headers()).get(PAGE_PATH_HEADER)));
  if (roles && !roles.includes(user.role)) forbidden();
  return user;
}

/** For route handlers and server actions: throws AppError UNAUTHENTICATED / FORBIDDEN. */
export async function requireApiUser(roles?: readonly Role[]): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) throw new AppError("UNAUTHENTICATED", { message: "Sign in first." });
  if (roles && !roles.includes(user.role)) throw new AppError("FORBIDDEN", { message: "Your role may not do this." });
  return user;
}

export function isLead(user: SessionUser): boolean {
  return LEAD_ROLES.includes(user.role);
}
