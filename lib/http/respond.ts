/** Maps errors to HTTP responses in one place: HttpError keeps its status, zod errors are 400. */
import { NextResponse } from "next/server";
import { ZodError } from "zod";
import { HttpError } from "@/lib/auth/session";
import { formatZodError } from "@/lib/validation/format";

export function errorResponse(error: unknown): NextResponse {
  if (error instanceof HttpError) return NextResponse.json({ error: error.message }, { status: error.status });
  if (error instanceof ZodError) return NextResponse.json({ error: formatZodError(error), issues: error.issues }, { status: 400 });
  console.error(error);
  return NextResponse.json({ error: "Internal error" }, { status: 500 });
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
