"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions/safe-action";
import { answerQualification, qualificationAnswerInput, qualificationStepInput, takeQualificationStep } from "@/lib/data/qualification";

export const takeStep = action(["ANNOTATOR"], qualificationStepInput, async (input, account) => {
  const result = await takeQualificationStep(account, input);
  revalidatePath(`/qualification/${input.slug}`);
  return result;
});

export const answerGold = action(["ANNOTATOR"], qualificationAnswerInput, (input, account) => answerQualification(account, input));
