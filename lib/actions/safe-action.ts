/**
 * One wrapper for every server action: checks the role, validates input with zod (and refuses
 * text PostgreSQL cannot store) and turns
 * failures into a result the form can show ({ ok: false, error, code }) instead of a crash;
 * server errors are logged and shown as a generic message (lib/errors).
 */
import type { z } from "zod";
import type { SessionAccount } from "@/lib/auth/authenticate";
import { requireApiAccount } from "@/lib/auth/session";
import type { Role } from "@/lib/generated/prisma/client";
import { AppError, type ErrorCode, publicError } from "@/lib/errors";
import { findUnsafeText } from "@/lib/validation/text";

export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string; code: ErrorCode };

export function action<S extends z.ZodType, T>(
  roles: readonly Role[] | undefined,
  schema: S,
  body: (input: z.output<S>, account: SessionAccount) => Promise<T>,
): (input: unknown) => Promise<ActionResult<T>> {
  return async (input: unknown) => {
    try {
      const account = await requireApiAccount(roles);
      const unsafe = findUnsafeText(input);
      if (unsafe) throw new AppError("INVALID_INPUT", { message: unsafe });
      return { ok: true, data: await body(schema.parse(input), account) };
    } catch (error) {
      const app = publicError(error);
      return { ok: false, error: app.userMessage, code: app.code };
    }
  };
}
