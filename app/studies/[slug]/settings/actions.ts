"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { studySettingsSchema, updateStudySettings } from "@/lib/data/study-settings";
import { commentQuestionsInput, updateCommentQuestions } from "@/lib/data/comment-questions";
import { qualificationSettingsSchema, updateQualificationSettings } from "@/lib/data/qualification";
import { crowdSettingsSchema, updateCrowdSettings } from "@/lib/data/participants";

export const saveStudySettings = action(LEAD_ROLES, studySettingsSchema, async (input, account) => {
  const saved = await updateStudySettings(account, input);
  revalidatePath(`/studies/${input.slug}`, "layout");
  return saved;
});

export const saveCommentQuestions = action(LEAD_ROLES, commentQuestionsInput, async (input, account) => {
  const saved = await updateCommentQuestions(account, input);
  revalidatePath(`/studies/${input.slug}`, "layout");
  return { notes: saved.notes };
});

export const saveQualificationSettings = action(LEAD_ROLES, qualificationSettingsSchema, async (input, account) => {
  const saved = await updateQualificationSettings(account, input);
  revalidatePath(`/studies/${input.slug}`, "layout");
  return saved;
});

export const saveCrowdSettings = action(LEAD_ROLES, crowdSettingsSchema, async (input, account) => {
  const saved = await updateCrowdSettings(account, input);
  revalidatePath(`/studies/${input.slug}`, "layout");
  return saved;
});
