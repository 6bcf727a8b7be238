"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { createRounds, createRoundsSchema, openOutsideRounds, openOutsideRoundsSchema, previewRounds, previewRoundsSchema, releaseRound, releaseRoundSchema, roundRuleSchema, setRoundRule } from "@/lib/data/rounds";

export const previewMakeRounds = action(LEAD_ROLES, previewRoundsSchema, (input, account) => previewRounds(account, input));

export const makeRounds = action(LEAD_ROLES, createRoundsSchema, async (input, account) => {
  const made = await createRounds(account, input);
  revalidatePath(`/studies/${input.slug}/rounds`);
  return made;
});

export const openItemsOutsideRounds = action(LEAD_ROLES, openOutsideRoundsSchema, async (input, account) => {
  const opened = await openOutsideRounds(account, input);
  revalidatePath(`/studies/${input.slug}/rounds`);
  return opened;
});

export const releaseNextRound = action(LEAD_ROLES, releaseRoundSchema, async (input, account) => {
  const released = await releaseRound(account, input);
  revalidatePath(`/studies/${input.slug}/rounds`);
  return released;
});

export const saveRoundRule = action(LEAD_ROLES, roundRuleSchema, async (input, account) => {
  const rule = await setRoundRule(account, input);
  revalidatePath(`/studies/${input.slug}/rounds`);
  return rule;
});
