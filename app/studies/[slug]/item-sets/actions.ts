"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { createItemSet, createItemSetFromTable, createItemSetSchema, deleteItemSet, deleteItemSetSchema, pickItemSetSchema } from "@/lib/data/item-sets";

export const createSet = action(LEAD_ROLES, createItemSetSchema, async (input, account) => {
  const created = await createItemSet(account, input);
  revalidatePath(`/studies/${input.slug}/item-sets`);
  return created;
});

export const createSetFromTable = action(LEAD_ROLES, pickItemSetSchema, async (input, account) => {
  const created = await createItemSetFromTable(account, input);
  revalidatePath(`/studies/${input.slug}/item-sets`);
  return created;
});

export const deleteSet = action(LEAD_ROLES, deleteItemSetSchema, async (input, account) => {
  const deleted = await deleteItemSet(account, input);
  revalidatePath(`/studies/${input.slug}/item-sets`);
  return deleted;
});
