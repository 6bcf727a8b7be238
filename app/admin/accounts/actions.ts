"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/safe-action";
import { passwordSchema } from "@/lib/auth/password";
import { LEAD_ROLES } from "@/lib/auth/session";
import { createAccount as create, newAccountSchema, setAccountActive, setAccountPassword } from "@/lib/data/accounts";

const target = z.object({ accountId: z.string().min(1) });
const withPassword = target.extend({ password: passwordSchema });

export const createAccount = action(LEAD_ROLES, newAccountSchema.extend({ password: passwordSchema }), async (input, account) => {
  const created = await create(account, input);
  revalidatePath("/admin/accounts");
  return { id: created.id };
});

/** Activates an imported account by giving it a password. */
export const activateAccount = action(LEAD_ROLES, withPassword, async (input, account) => {
  await setAccountPassword(account, input.accountId, input.password, { activate: true });
  revalidatePath("/admin/accounts");
  return { id: input.accountId };
});

export const resetPassword = action(LEAD_ROLES, withPassword, async (input, account) => {
  await setAccountPassword(account, input.accountId, input.password, { activate: false });
  revalidatePath("/admin/accounts");
  return { id: input.accountId };
});

export const deactivateAccount = action(LEAD_ROLES, target, async (input, account) => {
  await setAccountActive(account, input.accountId, false);
  revalidatePath("/admin/accounts");
  return { id: input.accountId };
});

export const reactivateAccount = action(LEAD_ROLES, target, async (input, account) => {
  await setAccountActive(account, input.accountId, true);
  revalidatePath("/admin/accounts");
  return { id: input.accountId };
});
