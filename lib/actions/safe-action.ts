/**
 * One wrapper for every server action: checks the role, validates input with zod and turns
 * failures into a result the form can show ({ ok: false, error }) instead of a crash.
 */
import type { z } from "zod";
import type { SessionUser } from "@/lib/auth/authenticate";
import { requireApiUser } from "@/lib/auth/session";
import type { Role } from "@/lib/generated/prisma/client";
import { errorMessage } from "@/lib/validation/format";

export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string };

export function action<S extends z.ZodType, T>(
  roles: readonly Role[] | undefined,
  schema: S,
  body: (input: z.output<S>, user: SessionUser) => Promise<T>,
): (input: unknown) => Promise<ActionResult<T>> {
  return async (input: unknown) => {
    try {
      const user = await requireApiUser(roles);
      return { ok: true, data: await body(schema.parse(input), user) };
    } catch (error) {
      return { ok: false, error: errorMessage(error) };
    }
  };
}
