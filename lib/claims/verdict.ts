/**
 * The verdict policy of Table 1 (CRScore §4.1): which judgement of a claim the
 * claim-quality rates count. Per claim: the lead's consensus code where there is one; else the
 * judgement of the claim's primary annotator (the one an import declares primary, else the first
 * annotator assigned to the claim's change); else the only coded judgement. Never "the most
 * recently saved": the rates do not depend on the order sheets were imported or saved in.
 */

/** Where a claim's verdict came from; "unresolved": several coded judgements and no primary one. */
export type VerdictSource = "consensus" | "primary" | "first-assigned" | "only" | "unresolved" | "unlabelled";

export interface ClaimJudgementView<C> {
  annotatorId: string;
  /** Null: no code given (a note or an added claim only). */
  code: C | null;
  /** Written by an import that declared its annotator primary. */
  primary: boolean;
}

export interface ClaimVerdictInput<C> {
  /** The lead's consensus code of the claim, if any. */
  consensus: C | null;
  judgements: readonly ClaimJudgementView<C>[];
  /** The annotator first assigned to the claim's change (claim verification), if any. */
  firstAssigned: string | null;
}

export const VERDICT_POLICY =
  "per claim, the lead's consensus code where there is one; else the judgement of the claim's primary annotator (the one an import declares primary, else the first annotator assigned to its change); else its only coded judgement; never the most recently saved. Claims with several coded judgements and no primary annotator are unresolved and, like unlabelled claims, outside the rates";

export function claimVerdict<C>({ consensus, judgements, firstAssigned }: ClaimVerdictInput<C>): { code: C | null; source: VerdictSource } {
  if (consensus !== null) return { code: consensus, source: "consensus" };
  const coded = judgements.filter((j) => j.code !== null);
  const declared = coded.filter((j) => j.primary);
  if (declared.length === 1) return { code: declared[0].code, source: "primary" };
  const first = firstAssigned === null ? undefined : coded.find((j) => j.annotatorId === firstAssigned);
  if (declared.length === 0 && first) return { code: first.code, source: "first-assigned" };
  if (coded.length === 1) return { code: coded[0].code, source: "only" };
  return { code: null, source: coded.length === 0 ? "unlabelled" : "unresolved" };
}
