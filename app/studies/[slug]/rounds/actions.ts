"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { createRounds, createRoundsSchema, openOutsideRounds, openOutsideRoundsSchema, previewRounds, previewRoundsSchema, releaseRound, releaseRoundSchema, roundRuleSchema, setRoundRule } from "@/lib/data/rounds";

export const previewMakeRounds = action(LEAD_ROLES, previewRoundsSchema, (input, user) => previewRounds(user, input));

export const makeRounds = action(LEAD_ROLES, createRoundsSchema, async (input, user) => {
  const made = await createRounds(user, input);
  revalidatePath(`/studies/${input.slug}/rounds`);
  return made;
});

export const openItemsOutsideRounds = action(LEAD_ROLES, openOutsideRoundsSchema, async (input, user) => {
  const opened = await openOutsideRounds(user, input);
  revalidatePath(`/studies/${input.slug}/rounds`);
  return opened;
});

export const releaseNextRound = action(LEAD_ROLES, releaseRoundSchema, async (input, user) => {
  const released = await releaseRound(user, input);
  revalidatePath(`/studies/${input.slug}/rounds`);
  return released;
});

export const saveRoundRule = action(LEAD_ROLES, roundRuleSchema, async (input, user) => {
  const rule = await setRoundRule(user, input);
  revalidatePath(`/studies/${input.slug}/rounds`);
  return rule;
});
