"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { addMemberSchema, addStudyMember, removeMemberSchema, removeStudyMember } from "@/lib/data/study-members";

export const addMember = action(LEAD_ROLES, addMemberSchema, async (input, account) => {
  const added = await addStudyMember(account, input);
  revalidatePath(`/studies/${input.slug}/members`);
  return added;
});

export const removeMember = action(LEAD_ROLES, removeMemberSchema, async (input, account) => {
  const removed = await removeStudyMember(account, input);
  revalidatePath(`/studies/${input.slug}/members`);
  return removed;
});
