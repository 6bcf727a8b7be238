/**
 * What this server notes on every request before Next.js reads it, through Node's diagnostics
 * channel `http.server.request.start` (it runs before the server's request listener, for every
 * HTTP server of the process, so Next's own server, `next start` or scripts/web.ts, needs no
 * wrapping; instrumentation.ts subscribes when the server starts):
 *
 * - X-Forwarded-For completed as every proxy completes it: the address the connection came from
 *   is appended to what the request brought. Next.js only fills the header in when a request has
 *   none, so a client could otherwise write any address into it; with this, the last entry is
 *   always the connection's, and the sign-in throttle (lib/auth/throttle.ts) reads the client
 *   from the right end, skipping as many entries as TRUSTED_PROXIES says proxies appended.
 * - The request target as the client sent it (REQUEST_TARGET_HEADER). Next decodes the query and
 *   encodes it again, so bytes that are not UTF-8 (an encoded lone surrogate) arrive as U+FFFD
 *   and only the original shows them (lib/http/url-text.ts, proxy.ts).
 */
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

export const REQUEST_TARGET_HEADER = "x-crjudge-request-target";

const SUBSCRIBED = Symbol.for("crjudge.request-start");

/** The header with `peer` appended (several headers of that name are one list). */
export function appendForwardedFor(header: string | string[] | undefined, peer: string | undefined): string | undefined {
  const before = Array.isArray(header) ? header.join(", ") : header;
  if (!peer) return before;
  return before?.trim() ? `${before}, ${peer}` : peer;
}

function onRequestStart(message: unknown): void {
  const { request, socket } = message as { request: IncomingMessage; socket: Socket };
  const completed = appendForwardedFor(request.headers["x-forwarded-for"], socket.remoteAddress);
  if (completed !== undefined) request.headers["x-forwarded-for"] = completed;
  // Replaces whatever a client sent under this name.
  request.headers[REQUEST_TARGET_HEADER] = request.url ?? "";
}

/** Notes the above on every request this process's HTTP servers receive from now on (subscribes once per process). */
export function observeRequests(): void {
  const process = globalThis as { [SUBSCRIBED]?: boolean };
  if (process[SUBSCRIBED]) return;
  process[SUBSCRIBED] = true;
  subscribe("http.server.request.start", onRequestStart);
}
