"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { addLeadPromptVersion, previewJudgePrompt } from "@/lib/data/judge-lab";
import { addPromptVersionSchema, previewPromptSchema, resumeJudgeRunSchema, resumeWebJudgeRun, startJudgeRunSchema, startWebJudgeRun } from "@/lib/judge-runs/web";

export const startJudgeRun = action(LEAD_ROLES, startJudgeRunSchema, async (input, account) => {
  const started = await startWebJudgeRun(account, input);
  revalidatePath(`/studies/${input.slug}/judges`);
  return started;
});

export const resumeJudgeRun = action(LEAD_ROLES, resumeJudgeRunSchema, async (input, account) => {
  const resumed = await resumeWebJudgeRun(account, input);
  revalidatePath(`/studies/${input.slug}/judges`);
  return resumed;
});

export const addPromptVersion = action(LEAD_ROLES, addPromptVersionSchema, async (input, account) => {
  const added = await addLeadPromptVersion(account, input);
  revalidatePath(`/studies/${input.slug}/judges/prompts`);
  return added;
});

export const previewPrompt = action(LEAD_ROLES, previewPromptSchema, (input, account) => previewJudgePrompt(account, input));
