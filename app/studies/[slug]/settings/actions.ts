"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { studySettingsSchema, updateStudySettings } from "@/lib/data/study-settings";

export const saveStudySettings = action(LEAD_ROLES, studySettingsSchema, async (input, account) => {
  const saved = await updateStudySettings(account, input);
  revalidatePath(`/studies/${input.slug}`, "layout");
  return saved;
});
