/**
 * X-Forwarded-For completed by this server, as every proxy completes it: the address the
 * connection came from is appended to what the request brought. Next.js only fills the header in
 * when a request has none, so a client could otherwise write any address into it; with this, the
 * last entry is always the connection's, and the sign-in throttle (lib/auth/throttle.ts) reads the
 * client from the right end, skipping as many entries as TRUSTED_PROXIES says proxies appended.
 *
 * Node's diagnostics channel `http.server.request.start` runs before the server's request
 * listener, for every HTTP server of the process, so Next's own server (`next start`, or
 * scripts/web.ts) needs no wrapping; instrumentation.ts installs it when the server starts.
 */
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

const INSTALLED = Symbol.for("crjudge.forwarded-for");

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
}

/** Completes X-Forwarded-For on every request this process's HTTP servers receive from now on (once per process). */
export function completeForwardedFor(): void {
  const process = globalThis as { [INSTALLED]?: boolean };
  if (process[INSTALLED]) return;
  process[INSTALLED] = true;
  subscribe("http.server.request.start", onRequestStart);
}
