/**
 * Runs before every page, route handler and server action (Next 16's proxy, formerly
 * middleware): refuses state-changing requests from other sites with 403 (server actions
 * included, which Next alone would answer with a 500), and sets the security headers with a
 * fresh CSP nonce per request. Next reads the policy from the request headers and puts the
 * nonce on its own scripts; every page is rendered per request (the layout reads the session).
 */
import { type NextRequest, NextResponse } from "next/server";
import { AppError } from "@/lib/errors";
import { changesState, crossSiteReason } from "@/lib/http/origin";
import { errorResponse } from "@/lib/http/respond";
import { securityHeaders } from "@/lib/http/security-headers";
import { PAGE_PATH_HEADER } from "@/lib/auth/callback";

export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const headers = securityHeaders(request, nonce);
  const refused = changesState(request.method) ? crossSiteReason(request) : null;
  let response: NextResponse;
  if (refused) response = errorResponse(new AppError("FORBIDDEN", { message: refused }));
  else {
    const forwarded = new Headers(request.headers);
    forwarded.set("content-security-policy", headers["content-security-policy"]);
    // The page asked for, so a sign-in redirect can return to it (set here, never taken from the client).
    forwarded.set(PAGE_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
    response = NextResponse.next({ request: { headers: forwarded } });
  }
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
