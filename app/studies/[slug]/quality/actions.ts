"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { pauseSchema, qualitySettingsSchema, setAnnotatorPaused, updateQualitySettings } from "@/lib/data/quality";

export const saveQualitySettings = action(LEAD_ROLES, qualitySettingsSchema, async (input, account) => {
  const saved = await updateQualitySettings(account, input);
  revalidatePath(`/studies/${input.slug}/quality`);
  return saved;
});

export const pauseAnnotator = action(LEAD_ROLES, pauseSchema, async (input, account) => {
  const result = await setAnnotatorPaused(account, input);
  revalidatePath(`/studies/${input.slug}/quality`);
  return result;
});
