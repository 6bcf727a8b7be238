"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { createItemSet, createItemSetFromTable, createItemSetSchema, deleteItemSet, deleteItemSetSchema, pickItemSetSchema } from "@/lib/data/item-sets";

export const createSet = action(LEAD_ROLES, createItemSetSchema, async (input, user) => {
  const created = await createItemSet(user, input);
  revalidatePath(`/studies/${input.slug}/item-sets`);
  return created;
});

export const createSetFromTable = action(LEAD_ROLES, pickItemSetSchema, async (input, user) => {
  const created = await createItemSetFromTable(user, input);
  revalidatePath(`/studies/${input.slug}/item-sets`);
  return created;
});

export const deleteSet = action(LEAD_ROLES, deleteItemSetSchema, async (input, user) => {
  const deleted = await deleteItemSet(user, input);
  revalidatePath(`/studies/${input.slug}/item-sets`);
  return deleted;
});
