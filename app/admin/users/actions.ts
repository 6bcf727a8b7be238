"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { createUser, newUserSchema, setPassword } from "@/lib/data/users";
import { AppError } from "@/lib/errors";

/** Leads create annotators; only admins create leads and admins. */
export const createAccount = action(LEAD_ROLES, newUserSchema.extend({ password: z.string().min(8, "Password must have at least 8 characters") }), async (input, user) => {
  if (input.role !== "ANNOTATOR" && user.role !== "ADMIN") throw new AppError("FORBIDDEN", { message: "Only an admin may create lead or admin accounts." });
  const created = await createUser(input);
  revalidatePath("/admin/users");
  return { id: created.id, email: created.email };
});

/** Activates an imported (or deactivated) annotator by giving it a password. */
export const activateAccount = action(LEAD_ROLES, z.object({ userId: z.string().min(1), password: z.string().min(8, "Password must have at least 8 characters") }), async (input) => {
  const updated = await setPassword(input.userId, input.password);
  revalidatePath("/admin/users");
  return { id: updated.id };
});
