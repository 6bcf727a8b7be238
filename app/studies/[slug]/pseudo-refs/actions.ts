"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { slugField } from "@/lib/validation/study-fields";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { setStudyClaimPrompt } from "@/lib/data/claim-prompt";
import { requireLedStudy } from "@/lib/data/study-access";
import { startPseudoRefsSchema, startWebPseudoReferenceRuns } from "@/lib/pseudo-refs/web";

export const startPseudoRefs = action(LEAD_ROLES, startPseudoRefsSchema.extend({ slug: slugField }), async (input, account) => {
  const study = await requireLedStudy(account, input.slug);
  const runs = await startWebPseudoReferenceRuns(study.id, input, account.id);
  revalidatePath(`/studies/${study.slug}/pseudo-refs`);
  return { runs };
});

export const saveClaimPrompt = action(LEAD_ROLES, z.object({ slug: slugField, prompt: z.string().max(20_000) }), async (input, account) => {
  const saved = await setStudyClaimPrompt(account, input.slug, input.prompt);
  revalidatePath(`/studies/${input.slug}/pseudo-refs`);
  return saved;
});
