"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { slugField } from "@/lib/validation/study-fields";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { assignmentSettingsSchema, generateAssignments, generateConfirmedSchema, generateSchema, previewGenerate, reassignAssignment, reassignOpenAssignments, updateAssignmentSettings } from "@/lib/data/assignment-admin";

const refresh = (slug: string) => {
  revalidatePath(`/studies/${slug}/assignments`);
  revalidatePath(`/studies/${slug}`);
};

export const saveSettings = action(LEAD_ROLES, assignmentSettingsSchema, async (input, user) => {
  const saved = await updateAssignmentSettings(user, input);
  refresh(input.slug);
  return saved;
});

export const previewGeneration = action(LEAD_ROLES, generateSchema, (input, user) => previewGenerate(user, input.slug, input.annotatorIds));

export const generate = action(LEAD_ROLES, generateConfirmedSchema, async (input, user) => {
  const summary = await generateAssignments(user, input.slug, input.annotatorIds, input.confirm);
  refresh(input.slug);
  return summary;
});

export const reassign = action(LEAD_ROLES, z.object({ slug: slugField, assignmentId: z.string().min(1), toUserId: z.string().min(1) }), async (input, user) => {
  const moved = await reassignAssignment(user, input.slug, input.assignmentId, input.toUserId);
  refresh(input.slug);
  return moved;
});

export const reassignOpen = action(LEAD_ROLES, z.object({ slug: slugField, fromUserId: z.string().min(1), toUserId: z.string().min(1) }), async (input, user) => {
  const result = await reassignOpenAssignments(user, input.slug, input.fromUserId, input.toUserId);
  refresh(input.slug);
  return result;
});
