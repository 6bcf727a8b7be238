"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { studySettingsSchema, updateStudySettings } from "@/lib/data/study-settings";

export const saveStudySettings = action(LEAD_ROLES, studySettingsSchema, async (input, user) => {
  const saved = await updateStudySettings(user, input);
  revalidatePath(`/studies/${input.slug}`, "layout");
  return saved;
});
