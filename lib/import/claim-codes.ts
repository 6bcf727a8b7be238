/**
 * The numeric claim codes of the CRScore phase-1 sheets (CRScore §4.1, codebook Table 8:
 * 1 correct, 0 incorrect, -1 unverifiable, -2 incomplete; a stray 2 = ambiguous) and the
 * ClaimCode enum of the data model.
 */
import { CLAIM_CODES } from "@/lib/claims";
import type { ClaimCode, ClaimErrorType } from "@/lib/generated/prisma/enums";

type CodeName = keyof typeof CLAIM_CODES;

const ENUM_OF_NUMBER = new Map<number, ClaimCode>((Object.entries(CLAIM_CODES) as [CodeName, number][]).map(([name, number]) => [number, name.toUpperCase() as ClaimCode]));

/** The enum value of a sheet code, or null when the number is not in the codebook. */
export function claimCodeOfNumber(number: number): ClaimCode | null {
  return ENUM_OF_NUMBER.get(number) ?? null;
}

/** The sheet code of an enum value (exports write the codes the papers use). */
export function numberOfClaimCode(code: ClaimCode): number {
  return CLAIM_CODES[code.toLowerCase() as CodeName];
}

export const SHEET_CLAIM_CODES = [...ENUM_OF_NUMBER.keys()].sort((a, b) => b - a);

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
