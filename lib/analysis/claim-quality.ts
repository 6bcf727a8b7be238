/**
 * Pseudo-reference quality per language (CRScore §4.1, Table 1): accuracy, error, unverifiable
 * and missing rates of the LLM-generated claims (claims and implications; static-analysis
 * smells are rule-based and not judged, as in the paper).
 *
 * A claim counts once, with its current verdict: the most recently saved judgement that
 * gives a code (by updatedAt, then id; a judgement with only a note or an added claim gives none). The paper's Python figures (83.65 / 12.02 / 4.33 % over 416 claims) use
 * marcus's codes before data row 246 and atharva's from row 246 on, where both judged the
 * common claims: importing marcus's sheet and then atharva's reproduces exactly that.
 * Claims without a coded judgement are "unlabelled"; the missing rate counts the claims
 * annotators added (ANNOTATOR_ADDED pseudo-references).
 */
import { claimQualityRates, type ClaimCodeCounts, countClaimCodes, type ClaimQualityRates } from "@/lib/claims";
import { db, type PrismaClient } from "@/lib/db/client";
import type { ClaimCode } from "@/lib/generated/prisma/enums";
import { numberOfClaimCode } from "@/lib/import/claim-codes";

export interface ClaimQualityRow {
  /** A language, or "all". */
  language: string;
  /** LLM-generated claims of these changes. */
  claims: number;
  counts: ClaimCodeCounts;
  addedClaims: number;
  rates: ClaimQualityRates;
}

export interface ClaimQualityReport {
  rule: string;
  byLanguage: ClaimQualityRow[];
  overall: ClaimQualityRow;
}

const LLM_KINDS = ["CLAIM", "IMPLICATION"] as const;

export const CLAIM_VERDICT_RULE =
  "one verdict per LLM claim: its most recently saved judgement with a code; claims without a coded judgement are unlabelled; rates over claims coded correct, incorrect or unverifiable (CRScore Table 1)";

/** Table 1 row of a group of claims (their current codes, null when unlabelled) and added claims. */
export function claimQualityRow(language: string, codes: readonly (ClaimCode | null)[], addedClaims: number): ClaimQualityRow {
  const counts = countClaimCodes(codes.map((c) => (c === null ? null : numberOfClaimCode(c))));
  return { language, claims: codes.length, counts, addedClaims, rates: claimQualityRates(counts, addedClaims) };
}

export async function claimQualityReport(studyId: string, client: PrismaClient = db): Promise<ClaimQualityReport> {
  const inStudy = { codeChange: { studyId } };
  const [claims, judgements, added] = await Promise.all([
    client.pseudoReference.findMany({ where: { ...inStudy, kind: { in: [...LLM_KINDS] } }, select: { id: true, codeChange: { select: { language: true } } } }),
    client.claimJudgement.findMany({
      where: { pseudoReference: { ...inStudy, kind: { in: [...LLM_KINDS] } }, code: { not: null } },
      orderBy: [{ updatedAt: "asc" }, { id: "asc" }],
      select: { pseudoReferenceId: true, code: true },
    }),
    client.pseudoReference.findMany({ where: { ...inStudy, kind: "ANNOTATOR_ADDED" }, select: { codeChange: { select: { language: true } } } }),
  ]);
  const verdict = new Map<string, ClaimCode>();
  for (const j of judgements) if (j.code !== null) verdict.set(j.pseudoReferenceId, j.code);

  const codesByLanguage = new Map<string, (ClaimCode | null)[]>();
  for (const claim of claims) {
    const list = codesByLanguage.get(claim.codeChange.language) ?? [];
    list.push(verdict.get(claim.id) ?? null);
    codesByLanguage.set(claim.codeChange.language, list);
  }
  const addedByLanguage = new Map<string, number>();
  for (const a of added) addedByLanguage.set(a.codeChange.language, (addedByLanguage.get(a.codeChange.language) ?? 0) + 1);

  const languages = [...new Set([...codesByLanguage.keys(), ...addedByLanguage.keys()])].sort();
  return {
    rule: CLAIM_VERDICT_RULE,
    byLanguage: languages.map((language) => claimQualityRow(language, codesByLanguage.get(language) ?? [], addedByLanguage.get(language) ?? 0)),
    overall: claimQualityRow("all", [...codesByLanguage.values()].flat(), added.length),
  };
}
