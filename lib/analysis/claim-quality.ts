/**
 * Pseudo-reference quality per language (CRScore §4.1, Table 1): accuracy, error, unverifiable
 * and missing rates of the LLM-generated claims (claims and implications; static-analysis
 * smells are rule-based and not judged, as in the paper).
 *
 * A claim counts once, with the verdict the stated policy chooses (lib/claims/verdict.ts): the
 * lead's consensus code, else the primary annotator's judgement, else the only one; drafts
 * (judgements of unsubmitted assignments) only on request. The paper's Python figures
 * (83.65 / 12.02 / 4.33 % over 416 claims) use marcus's codes before data row 246 and
 * atharva's from row 246 on, where both judged the common claims: importing atharva's sheet as
 * primary reproduces exactly that, in either import order. Claims without a verdict are
 * "unlabelled" (or "unresolved"); the missing rate counts the claims annotators added
 * (ANNOTATOR_ADDED pseudo-references).
 */
import { claimQualityRates, type ClaimCodeCounts, claimVerdict, countClaimCodes, type ClaimQualityRates, VERDICT_POLICY, type VerdictSource } from "@/lib/claims";
import { countedWork, type DraftMode, isDraft, unsubmittedWork } from "./drafts";
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
  /** The verdict policy (lib/claims/verdict.ts). */
  rule: string;
  /** How many claims took their verdict from each source. */
  verdicts: Record<VerdictSource, number>;
  /** What the report counts (submitted work only, or drafts too). */
  counted: string;
  byLanguage: ClaimQualityRow[];
  overall: ClaimQualityRow;
}

const LLM_KINDS = ["CLAIM", "IMPLICATION"] as const;

export const CLAIM_VERDICT_RULE = `${VERDICT_POLICY}; rates over claims coded correct, incorrect or unverifiable (CRScore Table 1)`;

/** Table 1 row of a group of claims (their current codes, null when unlabelled) and added claims. */
export function claimQualityRow(language: string, codes: readonly (ClaimCode | null)[], addedClaims: number): ClaimQualityRow {
  const counts = countClaimCodes(codes.map((c) => (c === null ? null : numberOfClaimCode(c))));
  return { language, claims: codes.length, counts, addedClaims, rates: claimQualityRates(counts, addedClaims) };
}

export async function claimQualityReport(studyId: string, client: PrismaClient = db, drafts: DraftMode = "exclude"): Promise<ClaimQualityReport> {
  const inStudy = { codeChange: { studyId } };
  const [claims, judgements, added, consensus, assignments, unsubmitted] = await Promise.all([
    client.pseudoReference.findMany({ where: { ...inStudy, kind: { in: [...LLM_KINDS] } }, select: { id: true, codeChangeId: true, codeChange: { select: { language: true } } } }),
    client.claimJudgement.findMany({
      where: { pseudoReference: { ...inStudy, kind: { in: [...LLM_KINDS] } } },
      select: { pseudoReferenceId: true, annotatorId: true, code: true, importRun: { select: { primary: true } } },
    }),
    client.pseudoReference.findMany({ where: { ...inStudy, kind: "ANNOTATOR_ADDED" }, select: { codeChange: { select: { language: true } } } }),
    client.consensus.findMany({ where: { studyId, task: "CLAIM_VERIFICATION", question: "code" }, select: { itemId: true, value: true } }),
    client.assignment.findMany({ where: { studyId, taskType: "CLAIM_VERIFICATION" }, orderBy: [{ createdAt: "asc" }, { position: "asc" }, { id: "asc" }], select: { userId: true, codeChangeId: true } }),
    drafts === "include" ? new Set<string>() : unsubmittedWork(client, studyId, "CLAIM_VERIFICATION"),
  ]);
  const changeOf = new Map(claims.map((c) => [c.id, c.codeChangeId]));
  const judgementsOf = new Map<string, { annotatorId: string; code: ClaimCode | null; primary: boolean }[]>();
  for (const j of judgements) {
    if (isDraft(unsubmitted, j.annotatorId, changeOf.get(j.pseudoReferenceId) as string)) continue;
    const list = judgementsOf.get(j.pseudoReferenceId) ?? [];
    list.push({ annotatorId: j.annotatorId, code: j.code, primary: j.importRun?.primary ?? false });
    judgementsOf.set(j.pseudoReferenceId, list);
  }
  const consensusOf = new Map(consensus.map((c) => [c.itemId, c.value as ClaimCode]));
  const firstAssigned = new Map<string, string>();
  for (const a of assignments) if (!firstAssigned.has(a.codeChangeId)) firstAssigned.set(a.codeChangeId, a.userId);

  const verdicts: Record<VerdictSource, number> = { consensus: 0, primary: 0, "first-assigned": 0, only: 0, unresolved: 0, unlabelled: 0 };
  const verdict = new Map<string, ClaimCode | null>();
  for (const claim of claims) {
    const chosen = claimVerdict({ consensus: consensusOf.get(claim.id) ?? null, judgements: judgementsOf.get(claim.id) ?? [], firstAssigned: firstAssigned.get(claim.codeChangeId) ?? null });
    verdicts[chosen.source]++;
    verdict.set(claim.id, chosen.code);
  }

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
    verdicts,
    counted: countedWork(drafts),
    byLanguage: languages.map((language) => claimQualityRow(language, codesByLanguage.get(language) ?? [], addedByLanguage.get(language) ?? 0)),
    overall: claimQualityRow("all", [...codesByLanguage.values()].flat(), added.length),
  };
}
