/**
 * Claim judgement codes of the CRScore phase-1 codebook (CRScore §4.1, Appendix D.1; the
 * "Correctness" column of py_claim_acc_annot_*.csv).
 */
export const CLAIM_CODES = {
  correct: 1,
  incorrect: 0,
  unverifiable: -1,
  /** The LLM claim was truncated (not in the paper's rates). */
  incomplete: -2,
  /** Stray code found twice in the Python sheets; not part of the codebook's rates. */
  ambiguous: 2,
} as const;

export type ClaimCode = (typeof CLAIM_CODES)[keyof typeof CLAIM_CODES];

export interface ClaimCodeCounts {
  correct: number;
  incorrect: number;
  unverifiable: number;
  incomplete: number;
  ambiguous: number;
  /** Claims without a judgement (blank cells). */
  unlabelled: number;
}

const NAME_OF_CODE = new Map<number, keyof typeof CLAIM_CODES>(Object.entries(CLAIM_CODES).map(([name, code]) => [code, name as keyof typeof CLAIM_CODES]));

/**
 * Counts judgement codes; `null` is an unlabelled claim. Codes outside the codebook are a
 * data error and throw (the importer validates sheets before they reach this).
 */
export function countClaimCodes(codes: Iterable<number | null>): ClaimCodeCounts {
  const counts: ClaimCodeCounts = { correct: 0, incorrect: 0, unverifiable: 0, incomplete: 0, ambiguous: 0, unlabelled: 0 };
  for (const code of codes) {
    if (code === null) {
      counts.unlabelled++;
      continue;
    }
    const name = NAME_OF_CODE.get(code);
    if (name === undefined) throw new RangeError(`unknown claim judgement code ${code}; expected one of ${[...NAME_OF_CODE.keys()].join(", ")}`);
    counts[name]++;
  }
  return counts;
}
