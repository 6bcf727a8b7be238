"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/safe-action";
import { newTokenSchema } from "@/lib/auth/api-token";
import { createApiToken, revokeApiToken } from "@/lib/data/api-tokens";

/** A new API token of the signed-in account; the answer is the only place the token is shown. */
export const createToken = action(undefined, newTokenSchema, async (input, account) => {
  const created = await createApiToken(account.id, input);
  revalidatePath("/account");
  return { id: created.id, token: created.token };
});

/** Revokes one of the signed-in account's own tokens (another account's is not found). */
export const revokeToken = action(undefined, z.object({ tokenId: z.string().min(1) }), async (input, account) => {
  await revokeApiToken(account.id, input.tokenId);
  revalidatePath("/account");
  return { id: input.tokenId };
});
