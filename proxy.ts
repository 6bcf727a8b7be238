/**
 * Runs before every page, route handler and server action (Next 16's proxy, formerly
 * middleware): refuses state-changing requests from other sites with 403 (server actions
 * included, which Next alone would answer with a 500), a path or query holding text no request
 * may carry with 400 (lib/http/url-text.ts), an API token anywhere but the JSON routes under
 * /api with 401 (pages and server actions act on sessions only, lib/auth/session.ts), and server action calls Next could not decode with
 * 413 or 400 (lib/http/server-action.ts; Next answers them with a 500), and sets the security
 * headers with a fresh CSP nonce per request. Next reads the policy from the request headers and
 * puts the nonce on its own scripts; every page is rendered per request (the layout reads the session).
 */
import { type NextRequest, NextResponse } from "next/server";
import { AppError } from "@/lib/errors";
import { changesState, crossSiteReason } from "@/lib/http/origin";
import { errorResponse } from "@/lib/http/respond";
import { REQUEST_TARGET_HEADER } from "@/lib/http/request-start";
import { securityHeaders } from "@/lib/http/security-headers";
import { checkActionRequest, isActionRequest } from "@/lib/http/server-action";
import { urlTextProblem } from "@/lib/http/url-text";
import { PAGE_PATH_HEADER } from "@/lib/auth/callback";
import { bearerToken, TOKEN_NOT_HERE } from "@/lib/auth/bearer";

/** Throws the AppError a request is refused with before it reaches Next's handling. */
async function check(request: NextRequest): Promise<void> {
  const crossSite = changesState(request.method) ? crossSiteReason(request) : null;
  if (crossSite) throw new AppError("FORBIDDEN", { message: crossSite });
  if (!request.nextUrl.pathname.startsWith("/api/") && bearerToken(request.headers.get("authorization")) !== null)
    throw new AppError("UNAUTHENTICATED", { message: TOKEN_NOT_HERE });
  // As Next passes it on, and as the client sent it (Next re-encodes the query, bytes that are not UTF-8 becoming U+FFFD).
  for (const target of [request.nextUrl.pathname + request.nextUrl.search, request.headers.get(REQUEST_TARGET_HEADER)]) {
    const problem = target && urlTextProblem(target);
    if (problem) throw new AppError("INVALID_INPUT", { message: problem });
  }
  if (isActionRequest(request)) await checkActionRequest(request);
}

export async function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const headers = securityHeaders(request, nonce);
  const refused = await check(request).then(
    () => null,
    (error: unknown) => error,
  );
  let response: NextResponse;
  if (refused) response = errorResponse(refused);
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
