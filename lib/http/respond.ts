/**
 * The one wrapper of route handlers: requests that change something must come from this site
 * (403), carry the content type the route declares (415) within its size limit (413), and be
 * valid JSON / multipart without text PostgreSQL cannot store (400), before the route runs;
 * every thrown error becomes a JSON response with the status of the one mapping in lib/errors.
 */
import { NextResponse } from "next/server";
import { AppError, publicError } from "@/lib/errors";
import { type Accepts, type BodyOf, JSON_MAX_BYTES, readBody } from "@/lib/http/body";
import { changesState, crossSiteReason } from "@/lib/http/origin";

export function errorResponse(error: unknown): NextResponse {
  const app = publicError(error);
  const headers = app.retryAfterSeconds === undefined ? undefined : { "retry-after": String(app.retryAfterSeconds) };
  return NextResponse.json({ ...app.details, error: app.userMessage, code: app.code }, { status: app.status, headers });
}

export interface RouteOptions<K extends Accepts> {
  /** The body a POST/PUT/PATCH/DELETE takes: JSON (the default) or multipart form data. */
  accepts?: K;
  /** Largest body accepted; JSON_MAX_BYTES (1 MiB) unless given. */
  maxBytes?: number;
}

/** Wraps a route handler: checks state-changing requests, reads their body once (the third argument) and maps errors. */
export function handler<C = unknown, K extends Accepts = "json">(
  fn: (request: Request, context: C, body: BodyOf<K>) => Promise<Response>,
  options: RouteOptions<K> = {},
): (request: Request, context: C) => Promise<Response> {
  return async (request: Request, context: C) => {
    try {
      let body = undefined as BodyOf<K>;
      if (changesState(request.method)) {
        // proxy.ts refuses these first; checked again so no route depends on its matcher.
        const crossSite = crossSiteReason(request);
        if (crossSite) throw new AppError("FORBIDDEN", { message: crossSite });
        body = await readBody(request, options.accepts ?? ("json" as K), options.maxBytes ?? JSON_MAX_BYTES);
      }
      return await fn(request, context, body);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
