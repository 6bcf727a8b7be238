"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { createStudy, newStudySchema } from "@/lib/data/studies";

export const createNewStudy = action(LEAD_ROLES, newStudySchema, async (input, account) => {
  const created = await createStudy(account, input);
  revalidatePath("/studies");
  return created;
});
