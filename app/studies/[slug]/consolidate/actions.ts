"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { consolidationSchema, saveConsolidation } from "@/lib/data/assignment-admin";

export const consolidate = action(LEAD_ROLES, consolidationSchema, async (input, account) => {
  const result = await saveConsolidation(account, input);
  revalidatePath(`/studies/${input.slug}/consolidate`);
  return result;
});
