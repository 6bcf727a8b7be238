"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { consensusSchema, saveConsensus } from "@/lib/data/adjudication";

export const decideConsensus = action(LEAD_ROLES, consensusSchema, async (input, account) => {
  const result = await saveConsensus(account, input);
  revalidatePath(`/studies/${input.slug}/adjudicate`);
  return result;
});
