"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { queueLocationMatcher, startMatcherRunSchema } from "@/lib/matcher-runs/run";

export const startMatcherRun = action(LEAD_ROLES, startMatcherRunSchema, async (input, account) => {
  const run = await queueLocationMatcher(account, input);
  revalidatePath(`/studies/${input.slug}/tools`);
  return { runId: run.id, status: run.status };
});
