/**
 * The numeric claim codes of the CRScore phase-1 sheets (CRScore §4.1, codebook Table 8:
 * 1 correct, 0 incorrect, -1 unverifiable, -2 incomplete; a stray 2 = ambiguous) and the
 * ClaimCode enum of the data model.
 */
import { CLAIM_CODE_BY_NAME, CLAIM_CODE_BY_VALUE } from "@/lib/annotation/codebook";
import type { ClaimCode, ClaimErrorType } from "@/lib/generated/prisma/enums";

/** The enum value of a sheet code, or null when the number is not in the codebook. */
export function claimCodeOfNumber(number: number): ClaimCode | null {
  return CLAIM_CODE_BY_VALUE.get(number)?.code ?? null;
}

/** The sheet code of an enum value (exports write the codes the papers use). */
export function numberOfClaimCode(code: ClaimCode): number {
  return CLAIM_CODE_BY_NAME.get(code)!.value;
}

export const SHEET_CLAIM_CODES = [...CLAIM_CODE_BY_VALUE.keys()].sort((a, b) => b - a);

/**
 * CRScore Table 12 error types as written in the `error type` column ("comprehension error").
 * Returns null for anything else (e.g. "context error", or two types in one cell), which the
 * importer keeps verbatim in the judgement's note.
 */
export function claimErrorTypeOf(cell: string): ClaimErrorType | null {
  const match = /^\s*(comprehension|knowledge|reasoning|localization|over[- ]?generali[sz]ation)(?:\s+error)?\s*$/i.exec(cell);
  if (!match) return null;
  const word = match[1].toLowerCase();
  return word.startsWith("over") ? "OVER_GENERALIZATION" : (word.toUpperCase() as ClaimErrorType);
}
