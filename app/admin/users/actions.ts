"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/safe-action";
import { passwordSchema } from "@/lib/auth/password";
import { LEAD_ROLES } from "@/lib/auth/session";
import { createAccount as create, setAccountActive, setAccountPassword } from "@/lib/data/accounts";
import { newUserSchema } from "@/lib/data/users";

const accountId = z.object({ userId: z.string().min(1) });
const withPassword = accountId.extend({ password: passwordSchema });

export const createAccount = action(LEAD_ROLES, newUserSchema.extend({ password: passwordSchema }), async (input, user) => {
  const created = await create(user, input);
  revalidatePath("/admin/users");
  return { id: created.id };
});

/** Activates an imported account by giving it a password. */
export const activateAccount = action(LEAD_ROLES, withPassword, async (input, user) => {
  await setAccountPassword(user, input.userId, input.password, { activate: true });
  revalidatePath("/admin/users");
  return { id: input.userId };
});

export const resetPassword = action(LEAD_ROLES, withPassword, async (input, user) => {
  await setAccountPassword(user, input.userId, input.password, { activate: false });
  revalidatePath("/admin/users");
  return { id: input.userId };
});

export const deactivateAccount = action(LEAD_ROLES, accountId, async (input, user) => {
  await setAccountActive(user, input.userId, false);
  revalidatePath("/admin/users");
  return { id: input.userId };
});

export const reactivateAccount = action(LEAD_ROLES, accountId, async (input, user) => {
  await setAccountActive(user, input.userId, true);
  revalidatePath("/admin/users");
  return { id: input.userId };
});
