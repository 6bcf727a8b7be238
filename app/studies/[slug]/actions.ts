"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { slugField } from "@/lib/validation/study-fields";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { setStageOrder } from "@/lib/data/studies";

export const changeStageOrder = action(LEAD_ROLES, z.object({ slug: slugField, on: z.boolean() }), async (input, account) => {
  await setStageOrder(account, input.slug, input.on);
  revalidatePath(`/studies/${input.slug}`);
  return { on: input.on };
});
