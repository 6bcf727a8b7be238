/** Route handlers' errors as JSON responses, with the status of the one mapping in lib/errors. */
import { NextResponse } from "next/server";
import { publicError } from "@/lib/errors";

export function errorResponse(error: unknown): NextResponse {
  const app = publicError(error);
  const headers = app.retryAfterSeconds === undefined ? undefined : { "retry-after": String(app.retryAfterSeconds) };
  return NextResponse.json({ ...app.details, error: app.userMessage, code: app.code }, { status: app.status, headers });
}

/** Wraps a route handler so that every thrown error becomes a clear JSON response. */
export function handler<A extends unknown[]>(fn: (...args: A) => Promise<Response>): (...args: A) => Promise<Response> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
