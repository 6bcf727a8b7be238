/** A study's own prompt of LLM claim generation (CRScore §3.2), set by its leads. */
import "server-only";
import { AppError } from "@/lib/errors";
import { db } from "@/lib/db/client";
import { claimPromptProblem } from "@/lib/pseudo-refs/claim-prompt";
import { requireLedStudy } from "./study-access";
import type { SessionAccount } from "@/lib/auth/authenticate";

/** Saves the template ("" goes back to the product's); refuses one the generation could not use. */
export async function setStudyClaimPrompt(account: Pick<SessionAccount, "id" | "role">, slug: string, prompt: string): Promise<{ custom: boolean }> {
  const study = await requireLedStudy(account, slug);
  const trimmed = prompt.trim();
  const problem = trimmed ? claimPromptProblem(trimmed) : null;
  if (problem) throw new AppError("INVALID_INPUT", { message: `The prompt cannot be used: ${problem}.` });
  await db.study.update({ where: { id: study.id }, data: { claimPrompt: trimmed } });
  return { custom: trimmed !== "" };
}

/** The study's own template ("" when it has none: the product's is used). */
export async function studyClaimPrompt(studyId: string): Promise<string> {
  return (await db.study.findUniqueOrThrow({ where: { id: studyId }, select: { claimPrompt: true } })).claimPrompt;
}
