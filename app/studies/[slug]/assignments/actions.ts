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

export const saveSettings = action(LEAD_ROLES, assignmentSettingsSchema, async (input, account) => {
  const saved = await updateAssignmentSettings(account, input);
  refresh(input.slug);
  return saved;
});

export const previewGeneration = action(LEAD_ROLES, generateSchema, (input, account) => previewGenerate(account, input.slug, input.annotatorIds));

export const generate = action(LEAD_ROLES, generateConfirmedSchema, async (input, account) => {
  const summary = await generateAssignments(account, input.slug, input.annotatorIds, input.confirm);
  refresh(input.slug);
  return summary;
});

export const reassign = action(LEAD_ROLES, z.object({ slug: slugField, assignmentId: z.string().min(1), toAnnotatorId: z.string().min(1) }), async (input, account) => {
  const moved = await reassignAssignment(account, input.slug, input.assignmentId, input.toAnnotatorId);
  refresh(input.slug);
  return moved;
});

export const reassignOpen = action(LEAD_ROLES, z.object({ slug: slugField, fromAnnotatorId: z.string().min(1), toAnnotatorId: z.string().min(1) }), async (input, account) => {
  const result = await reassignOpenAssignments(account, input.slug, input.fromAnnotatorId, input.toAnnotatorId);
  refresh(input.slug);
  return result;
});
