/**
 * Counts of claim judgement codes as the CRScore phase-1 sheets write them (CRScore §4.1,
 * Appendix D.1; the "Correctness" column of py_claim_acc_annot_*.csv). The codes themselves are
 * defined once, in lib/annotation/codebook.ts (`CLAIM_CODE_INFO`).
 */
import { CLAIM_CODE_BY_VALUE } from "@/lib/annotation/codebook";

export interface ClaimCodeCounts {
  correct: number;
  incorrect: number;
  unverifiable: number;
  /** The LLM claim was truncated (not in the paper's rates). */
  incomplete: number;
  /** Stray code found twice in the Python sheets; not part of the codebook's rates. */
  ambiguous: number;
  /** Claims without a judgement (blank cells). */
  unlabelled: number;
}

/**
 * Counts judgement codes (the sheets' numbers); `null` is an unlabelled claim. Codes outside the
 * codebook are a data error and throw (the importer validates sheets before they reach this).
 */
export function countClaimCodes(codes: Iterable<number | null>): ClaimCodeCounts {
  const counts: ClaimCodeCounts = { correct: 0, incorrect: 0, unverifiable: 0, incomplete: 0, ambiguous: 0, unlabelled: 0 };
  for (const code of codes) {
    if (code === null) {
      counts.unlabelled++;
      continue;
    }
    const info = CLAIM_CODE_BY_VALUE.get(code);
    if (info === undefined) throw new RangeError(`unknown claim judgement code ${code}; expected one of ${[...CLAIM_CODE_BY_VALUE.keys()].join(", ")}`);
    counts[info.code.toLowerCase() as Exclude<keyof ClaimCodeCounts, "unlabelled">]++;
  }
  return counts;
}
