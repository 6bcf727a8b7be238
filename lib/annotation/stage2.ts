/**
 * The pseudo-references of stage 2 (review rating) from the result of stage 1 (claim
 * verification), CRScore Figure 7 and section 4.2: incorrect and unverifiable claims are
 * removed (or replaced by the annotator's corrected claim), incomplete claims are removed,
 * claims marked unnecessary are excluded, missing claims the annotators added are included,
 * and the static-analysis smells are always included (the paper treats them as reliable).
 *
 * Two sources of that result:
 * - a lead's consolidation (keep / replace / drop per claim) once the item is consolidated;
 * - until then, the annotator's own stage-1 judgements and own added claims.
 */
import type { ClaimCode, ConsolidationAction, PseudoReferenceKind } from "@/lib/generated/prisma/enums";

export interface ReferenceInput {
  id: string;
  kind: PseudoReferenceKind;
  text: string;
  source: string;
  position: number;
  addedById: string | null;
  correctsId: string | null;
}

export interface JudgementInput {
  code: ClaimCode | null;
  necessary: boolean | null;
}

export interface DecisionInput {
  action: ConsolidationAction;
  replacementText: string | null;
}

export type Stage2Origin = "claim" | "smell" | "added" | "replaced";

export interface Stage2Reference {
  /** The pseudo-reference a review-claim link points to. */
  id: string;
  kind: PseudoReferenceKind;
  text: string;
  source: string;
  origin: Stage2Origin;
  /** For origin "replaced": the text of the claim that was replaced. */
  replacedText?: string;
}

/** Codes whose claim does not enter stage 2 (Figure 7); ambiguous claims are kept. */
export const DROPPED_CODES: ReadonlySet<ClaimCode> = new Set<ClaimCode>(["INCORRECT", "UNVERIFIABLE", "INCOMPLETE"]);

export const isGenerated = (kind: PseudoReferenceKind) => kind === "CLAIM" || kind === "IMPLICATION";

function byPosition(a: ReferenceInput, b: ReferenceInput): number {
  return a.position - b.position || a.id.localeCompare(b.id);
}

/** Stage-2 set from one annotator's own stage 1 (before a lead has consolidated the item). */
export function stage2FromOwnJudgements(references: readonly ReferenceInput[], judgements: ReadonlyMap<string, JudgementInput>, annotatorId: string): Stage2Reference[] {
  const sorted = references.slice().sort(byPosition);
  const corrections = new Map<string, ReferenceInput>();
  for (const ref of sorted) {
    if (ref.kind === "ANNOTATOR_ADDED" && ref.addedById === annotatorId && ref.correctsId && !corrections.has(ref.correctsId)) corrections.set(ref.correctsId, ref);
  }
  const out: Stage2Reference[] = [];
  const added: Stage2Reference[] = [];
  for (const ref of sorted) {
    if (ref.kind === "SMELL") out.push({ id: ref.id, kind: ref.kind, text: ref.text, source: ref.source, origin: "smell" });
    else if (isGenerated(ref.kind)) {
      const judgement = judgements.get(ref.id);
      if (judgement?.necessary === false) continue;
      const correction = corrections.get(ref.id);
      if (correction) {
        out.push({ id: correction.id, kind: correction.kind, text: correction.text, source: correction.source, origin: "replaced", replacedText: ref.text });
      } else if (!judgement?.code || !DROPPED_CODES.has(judgement.code)) {
        out.push({ id: ref.id, kind: ref.kind, text: ref.text, source: ref.source, origin: "claim" });
      }
    } else if (ref.kind === "ANNOTATOR_ADDED" && ref.addedById === annotatorId && !ref.correctsId) {
      added.push({ id: ref.id, kind: ref.kind, text: ref.text, source: ref.source, origin: "added" });
    }
  }
  return [...out, ...added];
}

/**
 * Stage-2 set from a lead's consolidation. Generated claims and smells without a decision are
 * kept; annotator-added claims enter only when the lead kept or replaced them.
 */
export function stage2FromConsolidation(references: readonly ReferenceInput[], decisions: ReadonlyMap<string, DecisionInput>): Stage2Reference[] {
  const out: Stage2Reference[] = [];
  const added: Stage2Reference[] = [];
  for (const ref of references.slice().sort(byPosition)) {
    const decision = decisions.get(ref.id);
    const isAdded = ref.kind === "ANNOTATOR_ADDED";
    const action: ConsolidationAction = decision?.action ?? (isAdded ? "DROP" : "KEEP");
    if (action === "DROP") continue;
    const target = isAdded ? added : out;
    const origin: Stage2Origin = ref.kind === "SMELL" ? "smell" : isAdded ? "added" : "claim";
    if (action === "REPLACE" && decision?.replacementText?.trim()) {
      target.push({ id: ref.id, kind: ref.kind, text: decision.replacementText.trim(), source: ref.source, origin: "replaced", replacedText: ref.text });
    } else {
      target.push({ id: ref.id, kind: ref.kind, text: ref.text, source: ref.source, origin });
    }
  }
  return [...out, ...added];
}

export interface AnnotatorStage1 {
  annotatorId: string;
  judgements: ReadonlyMap<string, JudgementInput>;
}

/**
 * How the annotators' stage-1 verdicts on a claim relate, shown on the consolidation page:
 * each annotator votes to keep it (correct or ambiguous, and not unnecessary) or to drop it
 * (incorrect, unverifiable, incomplete, or unnecessary), Figure 7's rules.
 * - agree: every voter gave the same code and necessity;
 * - same-vote: the codes differ but every vote is the same (e.g. correct and ambiguous);
 * - disagree: the votes differ, with a majority;
 * - tie: as many votes to keep as to drop (a 1-1 split of two annotators);
 * - single: one annotator voted; none: nobody did; added: a claim an annotator added.
 */
export type ClaimAgreement = "agree" | "same-vote" | "disagree" | "tie" | "single" | "none" | "added";

export interface SuggestedDecision {
  /** The proposed decision; null on a tie, which the lead decides. */
  action: ConsolidationAction | null;
  replacementText: string | null;
  /** Why this default was proposed (or why there is none), shown to the lead. */
  reason: string;
  agreement: ClaimAgreement;
}

type Vote = "keep" | "drop" | null;

const voteOf = (j: JudgementInput): Vote => (j.necessary === false || (j.code !== null && DROPPED_CODES.has(j.code)) ? "drop" : j.code !== null ? "keep" : null);

/** The annotators' votes on a generated claim and how they relate (see ClaimAgreement). */
export function claimVotes(verdicts: readonly JudgementInput[]): { keep: number; drop: number; agreement: ClaimAgreement } {
  const votes = verdicts.map(voteOf);
  const keep = votes.filter((v) => v === "keep").length;
  const drop = votes.filter((v) => v === "drop").length;
  return { keep, drop, agreement: agreementOf(verdicts, keep, drop) };
}

/** Whether the lead has something to settle: the annotators' votes differ. */
export const isDisagreement = (agreement: ClaimAgreement) => agreement === "disagree" || agreement === "tie";

function agreementOf(verdicts: readonly JudgementInput[], keep: number, drop: number): ClaimAgreement {
  const voters = keep + drop;
  if (voters === 0) return "none";
  if (voters === 1) return "single";
  if (keep === drop) return "tie";
  if (keep > 0 && drop > 0) return "disagree";
  const voted = verdicts.filter((j) => voteOf(j) !== null);
  return voted.every((j) => j.code === voted[0].code && j.necessary === voted[0].necessary) ? "agree" : "same-vote";
}

/**
 * Default decision per claim for the consolidation view, from all annotators' stage 1 (votes
 * as for ClaimAgreement): keep when more voted to keep; when more voted to drop, replace by the
 * first correction, or drop; a tie has no default (the lead chooses); a claim nobody coded is
 * kept, since Figure 7 removes only claims found wrong or unnecessary. Annotators' corrections
 * are folded into their claim's decision (dropped as separate rows); other added claims are kept.
 */
export function suggestConsolidation(references: readonly ReferenceInput[], annotators: readonly AnnotatorStage1[]): Map<string, SuggestedDecision> {
  const out = new Map<string, SuggestedDecision>();
  const corrections = new Map<string, ReferenceInput[]>();
  for (const ref of references.slice().sort(byPosition)) {
    if (ref.kind === "ANNOTATOR_ADDED" && ref.correctsId) corrections.set(ref.correctsId, [...(corrections.get(ref.correctsId) ?? []), ref]);
  }
  for (const ref of references) {
    if (ref.kind === "SMELL") continue;
    if (ref.kind === "ANNOTATOR_ADDED") {
      out.set(
        ref.id,
        ref.correctsId
          ? { action: "DROP", replacementText: null, reason: "correction of another claim", agreement: "added" }
          : { action: "KEEP", replacementText: null, reason: "missing claim added by an annotator", agreement: "added" },
      );
      continue;
    }
    const verdicts = annotators.map((a) => a.judgements.get(ref.id)).filter((j): j is JudgementInput => j !== undefined);
    const { keep, drop, agreement } = claimVotes(verdicts);
    const unnecessary = verdicts.filter((j) => j.necessary === false).length;
    const counted = `${keep} kept, ${drop} rejected${unnecessary > 0 ? ` (${unnecessary} of ${annotators.length} marked it unnecessary)` : ""}`;
    const fixes = corrections.get(ref.id) ?? [];
    if (agreement === "none") out.set(ref.id, { action: "KEEP", replacementText: null, reason: "no annotator coded it: kept, as Figure 7 removes only claims found wrong or unnecessary", agreement });
    else if (agreement === "tie") out.set(ref.id, { action: null, replacementText: null, reason: `tie: ${counted}; choose keep, replace or drop`, agreement });
    else if (keep > drop) out.set(ref.id, { action: "KEEP", replacementText: null, reason: counted, agreement });
    else if (fixes.length > 0) out.set(ref.id, { action: "REPLACE", replacementText: fixes[0].text, reason: `${counted}; an annotator corrected it`, agreement });
    else out.set(ref.id, { action: "DROP", replacementText: null, reason: counted, agreement });
  }
  return out;
}
