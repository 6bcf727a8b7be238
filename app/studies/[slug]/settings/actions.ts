"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { studySettingsSchema, updateStudySettings } from "@/lib/data/study-settings";
import { commentQuestionsInput, updateCommentQuestions } from "@/lib/data/comment-questions";
import { qualificationSettingsSchema, updateQualificationSettings } from "@/lib/data/qualification";
import { crowdSettingsSchema, updateCrowdSettings } from "@/lib/data/participants";
import { removeWebhook } from "@/lib/data/webhooks";
import { slugField } from "@/lib/validation/study-fields";
import { addCheckedWebhook, resend } from "@/lib/webhooks/manage";

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

/** Adds a webhook to the study; its secret is in the answer (and on this page for the study's leads). */
export const addStudyWebhook = action(LEAD_ROLES, z.object({ slug: slugField, url: z.string().trim().min(1, "Give the receiver's URL.").max(2000) }), async (input, account) => {
  const added = await addCheckedWebhook(account, input.slug, input.url);
  revalidatePath(`/studies/${input.slug}/settings`);
  return added;
});

export const removeStudyWebhook = action(LEAD_ROLES, z.object({ slug: slugField, webhookId: z.string().min(1) }), async (input, account) => {
  await removeWebhook(account, input.slug, input.webhookId);
  revalidatePath(`/studies/${input.slug}/settings`);
  return { id: input.webhookId };
});

/** Sends a delivery again (the same event id), its retries starting over. */
export const resendWebhookDelivery = action(LEAD_ROLES, z.object({ slug: slugField, deliveryId: z.string().min(1) }), async (input, account) => {
  await resend(account, input.slug, input.deliveryId);
  revalidatePath(`/studies/${input.slug}/settings`);
  return { id: input.deliveryId };
});
