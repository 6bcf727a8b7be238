"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { addMemberSchema, addStudyMember, removeMemberSchema, removeStudyMember } from "@/lib/data/study-members";

export const addMember = action(LEAD_ROLES, addMemberSchema, async (input, user) => {
  const added = await addStudyMember(user, input);
  revalidatePath(`/studies/${input.slug}/members`);
  return added;
});

export const removeMember = action(LEAD_ROLES, removeMemberSchema, async (input, user) => {
  const removed = await removeStudyMember(user, input);
  revalidatePath(`/studies/${input.slug}/members`);
  return removed;
});
