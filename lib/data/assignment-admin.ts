/**
 * Leads' side of the workspace: assignment settings and generation, progress per annotator,
 * reassigning, and the consolidation of stage-1 judgements into the stage-2 pseudo-references
 * (CRScore Figure 7). Every function takes the signed-in account and finds the study among those
 * the account leads (lib/data/study-access.ts): another lead's study answers 404.
 */
import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import { db, Prisma } from "@/lib/db/client";
import type { AssignmentStatus, ClaimCode, ClaimErrorType, ConsolidationAction, Study, TaskType } from "@/lib/generated/prisma/client";
import { applicableTasks, effectCounts, planAssignments, planEffect, planReliabilitySet, type PlanEffect, type PlannedAssignment } from "@/lib/annotation/assignment-plan";
import { progressOf, type Progress } from "@/lib/annotation/progress";
import { nextAfter } from "@/lib/annotation/next-after";
import { stageOrderOn } from "@/lib/annotation/stage-order";
import { claimVotes, isDisagreement, suggestConsolidation, type SuggestedDecision } from "@/lib/annotation/stage2";
import { addableAccountsWhere } from "@/lib/data/accounts";
import { COMMAND_LINE, requireLedStudy } from "@/lib/data/study-access";
import { goldCodeChanges } from "@/lib/data/gold";
import { roundCodeChanges } from "@/lib/data/round-gate";
import { storePlanReliabilitySet } from "@/lib/data/item-sets";
import { AppError } from "@/lib/errors";
import { claimNumbers } from "@/lib/claims";
import { annotatorsPerItemField, slugField } from "@/lib/validation/study-fields";
import type { SessionAccount } from "@/lib/auth/authenticate";

/**
 * The accounts `account` may give work in a study (which adds them to it): active, and either an
 * annotator member of it or an account the account may add to a study (lib/data/accounts.ts: for a
 * lead, annotators no other lead has a say over, or of their studies already). Another lead's
 * annotators, other leads and admins cannot be pulled into a study by their ids.
 */
function assignableWhere(account: Pick<SessionAccount, "id" | "role">, studyId: string): Prisma.AccountWhereInput {
  // An admin adds every account; said outright, since Prisma reads an empty object inside OR as false.
  if (account.role === "ADMIN") return { active: true };
  return { active: true, OR: [{ memberships: { some: { studyId, role: "ANNOTATOR" } } }, addableAccountsWhere(account)] };
}

export const assignmentSettingsSchema = z.object({
  slug: slugField,
  annotatorsPerItem: annotatorsPerItemField,
  reliabilitySetSize: z.coerce.number().int().min(0).max(100_000),
  assignmentSeed: z.coerce.number().int().min(0).max(2 ** 31 - 1),
});

export async function updateAssignmentSettings(account: Pick<SessionAccount, "id" | "role">, input: z.infer<typeof assignmentSettingsSchema>) {
  const study = await requireLedStudy(account, input.slug);
  return db.study.update({
    where: { id: study.id },
    data: {
      annotatorsPerItem: input.annotatorsPerItem,
      reliabilitySetSize: input.reliabilitySetSize,
      assignmentSeed: input.assignmentSeed,
    },
    select: { annotatorsPerItem: true, reliabilitySetSize: true, assignmentSeed: true },
  });
}

export interface ProgressRow extends Progress {
  annotatorId: string;
  name: string;
  email: string;
  active: boolean;
  member: boolean;
}

/** Everything the assignment management page shows: the study's annotators (its members, not every account) and their work. */
export async function getAssignmentAdmin(account: Pick<SessionAccount, "id" | "role">, slug: string) {
  const study = await requireLedStudy(account, slug);
  const [annotators, members, assignments, items] = await Promise.all([
    db.account.findMany({ where: { memberships: { some: { studyId: study.id, role: "ANNOTATOR" } } }, orderBy: [{ name: "asc" }, { email: "asc" }], select: { id: true, name: true, email: true, active: true } }),
    db.studyMember.findMany({ where: { studyId: study.id }, select: { accountId: true } }),
    db.assignment.findMany({
      where: { studyId: study.id },
      orderBy: [{ annotatorId: "asc" }, { position: "asc" }],
      select: {
        id: true,
        annotatorId: true,
        task: true,
        status: true,
        position: true,
        inReliabilitySet: true,
        skipReason: true,
        timeSpentMs: true,
        codeChange: { select: { id: true, externalId: true, filePath: true } },
      },
    }),
    db.codeChange.count({ where: { studyId: study.id } }),
  ]);
  const memberIds = new Set(members.map((m) => m.accountId));
  const assignedIds = new Set(assignments.map((a) => a.annotatorId));
  const people = [
    ...annotators,
    // Leads or admins who were given assignments are listed too.
    ...(await db.account.findMany({ where: { id: { in: [...assignedIds].filter((id) => !annotators.some((a) => a.id === id)) } }, select: { id: true, name: true, email: true, active: true } })),
  ];
  const progress: ProgressRow[] = people.map((person) => ({
    annotatorId: person.id,
    name: person.name,
    email: person.email,
    active: person.active,
    member: memberIds.has(person.id),
    ...progressOf(assignments.filter((a) => a.annotatorId === person.id)),
  }));
  return { study, items, progress, assignments };
}

/**
 * The plan for a study with the given annotators and its reliability set (code change ids; pure
 * given the database state). `rounds` (code change ids per round) stand for the study's stored
 * calibration rounds, for a preview of rounds not made yet.
 */
/** The study's code changes (in no particular order), each with its position and the study's tasks it supports. */
export async function studyItems(study: { id: string; tasks: TaskType[] }, client: Pick<typeof db, "codeChange"> = db): Promise<{ id: string; position: number; tasks: TaskType[] }[]> {
  const changes = await client.codeChange.findMany({
    where: { studyId: study.id },
    select: {
      id: true,
      position: true,
      pseudoReferences: { select: { kind: true } },
      reviews: { select: { isReference: true } },
      // A pull request's comments are counted on its first file, where its one assignment is stored (comment questions).
      pullRequest: { select: { codeChanges: { select: { id: true }, orderBy: [{ position: "asc" }, { id: "asc" }], take: 1 }, _count: { select: { comments: true } } } },
    },
  });
  return changes.map((change) => ({
    id: change.id,
    position: change.position,
    tasks: applicableTasks(study.tasks, {
      generatedClaims: change.pseudoReferences.filter((r) => r.kind === "CLAIM" || r.kind === "IMPLICATION").length,
      reviews: change.reviews.length,
      generatedReviews: change.reviews.filter((r) => !r.isReference).length,
      hasReference: change.reviews.some((r) => r.isReference),
      pullRequestComments: change.pullRequest?.codeChanges[0]?.id === change.id ? change.pullRequest._count.comments : 0,
    }),
  }));
}

export async function planForStudy(account: Pick<SessionAccount, "id" | "role">, slug: string, annotatorIds: readonly string[], rounds?: readonly (readonly string[])[]): Promise<{ studyId: string; seed: number; plan: PlannedAssignment[]; reliability: string[] }> {
  const study = await requireLedStudy(account, slug);
  const [all, gold, storedRounds] = await Promise.all([studyItems(study), goldCodeChanges(db, study.id), rounds ?? roundCodeChanges(db, study.id)]);
  // A gold item is checked only in the tasks it has known answers for.
  const goldItems = all.filter((item) => gold.has(item.id)).map((item) => ({ id: item.id, tasks: item.tasks.filter((t) => gold.get(item.id)!.has(t)) }));
  const inRound = new Set(storedRounds.flat());
  const byId = new Map(all.map((item) => [item.id, item]));
  const input = {
    seed: study.assignmentSeed,
    items: all.filter((item) => !gold.has(item.id) && !inRound.has(item.id)),
    rounds: storedRounds.map((ids) => ids.map((id) => byId.get(id)!)),
    annotatorIds,
    annotatorsPerItem: study.annotatorsPerItem,
    reliabilitySetSize: study.reliabilitySetSize,
    gold: { items: goldItems, perQueue: study.goldPerQueue },
  };
  return { studyId: study.id, seed: study.assignmentSeed, plan: planAssignments(input), reliability: planReliabilitySet(input) };
}

/** What planEffect compares a plan with. */
export const existingSelect = { id: true, annotatorId: true, codeChangeId: true, task: true, status: true, position: true, inReliabilitySet: true } as const satisfies Prisma.AssignmentSelect;

/**
 * Names what a preview showed (an effect and what else it rests on): the change it previews is
 * made only when the same key comes back, so nothing is made after the data changed underneath.
 */
export function previewKey(effect: PlanEffect, ...also: unknown[]): string {
  return createHash("sha256")
    .update(JSON.stringify([...also, effect.create, effect.update, effect.remove, effect.keep.map((a) => a.id)]))
    .digest("hex")
    .slice(0, 16);
}

export const generateSchema = z.object({ slug: slugField, annotatorIds: z.array(z.string().min(1)).min(1, "Choose at least one annotator.") });

export const generateConfirmedSchema = generateSchema.extend({
  /** The key of the preview the lead confirmed (GeneratePreview.key): nothing is made when the plan has changed since. */
  confirm: z.string().min(1, "preview the assignments first, then confirm"),
});

export interface GeneratePreview {
  annotators: number;
  /** What generating does to the stored assignments. */
  effect: ReturnType<typeof effectCounts>;
  /** Names this preview; generating asks for it back (generateConfirmedSchema.confirm). */
  key: string;
}

/** The annotators `annotatorIds` names, once each, refused unless every one may be assigned in the study. */
async function assignable(account: Pick<SessionAccount, "id" | "role">, studyId: string, annotatorIds: readonly string[]): Promise<string[]> {
  const unique = [...new Set(annotatorIds)].sort();
  const accounts = await db.account.findMany({ where: { id: { in: unique }, ...assignableWhere(account, studyId) }, select: { id: true } });
  if (accounts.length !== unique.length) throw new AppError("INVALID_INPUT", { message: "Some selected annotators do not exist, are inactive, or are not annotators you may assign." });
  return unique;
}

/** What generating the study's assignments for these annotators would create, move, remove and keep; writes nothing. */
export async function previewGenerate(account: Pick<SessionAccount, "id" | "role">, slug: string, annotatorIds: readonly string[]): Promise<GeneratePreview> {
  const { studyId, plan } = await planForStudy(account, slug, [...new Set(annotatorIds)]);
  const unique = await assignable(account, studyId, annotatorIds);
  const effect = planEffect(await db.assignment.findMany({ where: { studyId }, select: existingSelect }), plan);
  return { annotators: unique.length, effect: effectCounts(effect), key: previewKey(effect, unique) };
}

export interface GenerateSummary {
  created: number;
  updated: number;
  removed: number;
  /** Started or finished assignments outside the new plan, kept so that no work is lost. */
  kept: number;
  annotators: number;
}

/**
 * Generates the study's assignments for these annotators from the seeded plan. Rerunning with
 * the same settings gives the same assignments. Assignments that are already started, done or
 * skipped are never deleted; untouched (pending) ones that the new plan drops are removed.
 * With `confirm` (a lead's page), only as the preview the lead confirmed showed it, else CONFLICT
 * and nothing made.
 */
export async function generateAssignments(account: Pick<SessionAccount, "id" | "role">, slug: string, annotatorIds: readonly string[], confirm?: string): Promise<GenerateSummary> {
  const { studyId, seed, plan, reliability } = await planForStudy(account, slug, [...new Set(annotatorIds)]);
  const unique = await assignable(account, studyId, annotatorIds);
  return db.$transaction(
    async (tx) => {
      const effect = planEffect(await tx.assignment.findMany({ where: { studyId }, select: existingSelect }), plan);
      if (confirm !== undefined && previewKey(effect, unique) !== confirm) throw new AppError("CONFLICT", { message: "The study's items, annotators or assignments changed since the preview: nothing was made. Preview the assignments again." });
      const summary: GenerateSummary = { created: 0, updated: effect.update.length, removed: 0, kept: effect.keep.length, annotators: unique.length };
      if (effect.remove.length) summary.removed = (await tx.assignment.deleteMany({ where: { id: { in: effect.remove }, status: "PENDING" } })).count;
      // Kept assignments outside the plan go after the planned queue, in their old order.
      const planLength = new Map<string, number>();
      for (const p of plan) planLength.set(p.annotatorId, (planLength.get(p.annotatorId) ?? 0) + 1);
      const keptSoFar = new Map<string, number>();
      for (const a of [...effect.keep].sort((x, y) => x.position - y.position)) {
        const n = keptSoFar.get(a.annotatorId) ?? 0;
        keptSoFar.set(a.annotatorId, n + 1);
        await tx.assignment.update({ where: { id: a.id }, data: { position: (planLength.get(a.annotatorId) ?? 0) + n } });
      }
      for (const u of effect.update) await tx.assignment.update({ where: { id: u.id }, data: { position: u.position, inReliabilitySet: u.inReliabilitySet } });
      // (annotatorId, codeChangeId, task) is unique: an assignment someone else holds elsewhere cannot collide.
      const toCreate: Prisma.AssignmentCreateManyInput[] = effect.create.map((p) => ({ studyId, annotatorId: p.annotatorId, codeChangeId: p.codeChangeId, task: p.task, position: p.position, inReliabilitySet: p.inReliabilitySet }));
      if (toCreate.length) summary.created = (await tx.assignment.createMany({ data: toCreate })).count;
      await tx.studyMember.createMany({ data: unique.map((accountId) => ({ studyId, accountId, role: "ANNOTATOR" as const })), skipDuplicates: true });
      await storePlanReliabilitySet(tx, studyId, reliability, seed, account.id === COMMAND_LINE.id ? null : account.id);
      return summary;
    },
    { timeout: 60_000 },
  );
}

/** Moves one unfinished assignment to another annotator, at the end of their queue. */
export async function reassignAssignment(account: Pick<SessionAccount, "id" | "role">, slug: string, assignmentId: string, toAnnotatorId: string): Promise<{ id: string }> {
  const study = await requireLedStudy(account, slug);
  const assignment = await db.assignment.findFirst({ where: { id: assignmentId, studyId: study.id } });
  if (!assignment) throw new AppError("NOT_FOUND", { message: "No such assignment in this study." });
  if (assignment.status === "DONE") throw new AppError("CONFLICT", { message: "A submitted assignment cannot be reassigned." });
  if (assignment.annotatorId === toAnnotatorId) return { id: assignment.id };
  const target = await db.account.findFirst({ where: { id: toAnnotatorId, ...assignableWhere(account, study.id) }, select: { id: true } });
  if (!target) throw new AppError("INVALID_INPUT", { message: "No such active annotator." });
  const clash = await db.assignment.findFirst({ where: { annotatorId: toAnnotatorId, codeChangeId: assignment.codeChangeId, task: assignment.task } });
  if (clash) throw new AppError("CONFLICT", { message: "That annotator already has this item and task." });
  const last = await db.assignment.aggregate({ where: { studyId: study.id, annotatorId: toAnnotatorId }, _max: { position: true } });
  await db.$transaction([
    db.assignment.update({
      where: { id: assignment.id },
      data: { annotatorId: toAnnotatorId, status: "PENDING", skipReason: null, startedAt: null, completedAt: null, timeSpentMs: 0, position: (last._max.position ?? -1) + 1 },
    }),
    db.studyMember.createMany({ data: [{ studyId: study.id, accountId: toAnnotatorId, role: "ANNOTATOR" }], skipDuplicates: true }),
  ]);
  return { id: assignment.id };
}

/** Moves every open (pending, in progress or skipped) assignment of one annotator to another. */
export async function reassignOpenAssignments(account: Pick<SessionAccount, "id" | "role">, slug: string, fromAnnotatorId: string, toAnnotatorId: string): Promise<{ moved: number; clashes: number }> {
  const study = await requireLedStudy(account, slug);
  const open = await db.assignment.findMany({ where: { studyId: study.id, annotatorId: fromAnnotatorId, status: { in: ["PENDING", "IN_PROGRESS", "SKIPPED"] } }, orderBy: { position: "asc" }, select: { id: true } });
  let moved = 0;
  let clashes = 0;
  for (const a of open) {
    try {
      await reassignAssignment(account, slug, a.id, toAnnotatorId);
      moved++;
    } catch (error) {
      if (error instanceof AppError && error.code === "CONFLICT") clashes++;
      else throw error;
    }
  }
  return { moved, clashes };
}

// ---------------------------------------------------------------------------------------------
// Consolidation of stage 1 into the stage-2 pseudo-references

export interface ConsolidationListRow {
  id: string;
  externalId: string;
  filePath: string;
  language: string;
  claims: number;
  added: number;
  stage1Done: number;
  stage1Total: number;
  consolidatedAt: Date | null;
  /** Generated claims whose annotators' stage-1 votes differ (lib/annotation/stage2 claimVotes), ties among them. */
  disagreements: number;
  ties: number;
}

/** Stage-1 judgements as consolidation reads them: under the stage order, necessity is a stage-2 answer over the consolidated set (stage-order.ts), not a stage-1 "unnecessary" flag. */
const stage1Necessity = <J extends { necessary: boolean | null }>(study: Study, rows: J[]): J[] => (stageOrderOn(study) ? rows.map((j) => ({ ...j, necessary: null })) : rows);

/** Per code change: its generated claims on which the annotators disagree, and the ties among them. */
async function claimDisagreements(study: Study): Promise<Map<string, { disagreements: number; ties: number }>> {
  const rows = await db.claimJudgement.findMany({
    where: { pseudoReference: { codeChange: { studyId: study.id }, kind: { in: ["CLAIM", "IMPLICATION"] } } },
    select: { pseudoReferenceId: true, code: true, necessary: true, pseudoReference: { select: { codeChangeId: true } } },
  });
  const byClaim = new Map<string, { change: string; verdicts: { code: ClaimCode | null; necessary: boolean | null }[] }>();
  for (const j of stage1Necessity(study, rows)) {
    const claim = byClaim.get(j.pseudoReferenceId) ?? { change: j.pseudoReference.codeChangeId, verdicts: [] };
    claim.verdicts.push(j);
    byClaim.set(j.pseudoReferenceId, claim);
  }
  const out = new Map<string, { disagreements: number; ties: number }>();
  for (const { change, verdicts } of byClaim.values()) {
    const { agreement } = claimVotes(verdicts);
    if (!isDisagreement(agreement)) continue;
    const counts = out.get(change) ?? { disagreements: 0, ties: 0 };
    counts.disagreements++;
    if (agreement === "tie") counts.ties++;
    out.set(change, counts);
  }
  return out;
}

async function consolidationRows(study: Study): Promise<ConsolidationListRow[]> {
  const [changes, disagreements] = await Promise.all([
    db.codeChange.findMany({
      where: { studyId: study.id },
      orderBy: { position: "asc" },
      select: {
        id: true,
        externalId: true,
        filePath: true,
        language: true,
        consolidatedAt: true,
        pseudoReferences: { select: { kind: true } },
        assignments: { where: { task: "CLAIM_VERIFICATION" }, select: { status: true } },
      },
    }),
    claimDisagreements(study),
  ]);
  return changes.map((c) => ({
    id: c.id,
    externalId: c.externalId,
    filePath: c.filePath,
    language: c.language,
    claims: c.pseudoReferences.filter((r) => r.kind === "CLAIM" || r.kind === "IMPLICATION").length,
    added: c.pseudoReferences.filter((r) => r.kind === "ANNOTATOR_ADDED").length,
    stage1Done: c.assignments.filter((a) => a.status === "DONE").length,
    stage1Total: c.assignments.length,
    consolidatedAt: c.consolidatedAt,
    disagreements: disagreements.get(c.id)?.disagreements ?? 0,
    ties: disagreements.get(c.id)?.ties ?? 0,
  }));
}

export async function listConsolidation(account: Pick<SessionAccount, "id" | "role">, slug: string): Promise<{ study: Study; rows: ConsolidationListRow[] }> {
  const study = await requireLedStudy(account, slug);
  return { study, rows: await consolidationRows(study) };
}

/** The item after `id` in study order (wrapping around) that is not consolidated and has a disagreement; null when none is left. */
export function nextDisagreement(rows: readonly Pick<ConsolidationListRow, "id" | "externalId" | "consolidatedAt" | "disagreements">[], id: string): { id: string; externalId: string } | null {
  const next = nextAfter(rows, id, (r) => r.consolidatedAt === null && r.disagreements > 0);
  return next && { id: next.id, externalId: next.externalId };
}

export interface ConsolidationClaim {
  id: string;
  kind: "CLAIM" | "IMPLICATION" | "ANNOTATOR_ADDED" | "SMELL";
  text: string;
  source: string;
  addedBy: string | null;
  correctsId: string | null;
  /** Per annotator (same order as `annotators`): their stage-1 verdict, or null. */
  verdicts: ({ code: ClaimCode | null; necessary: boolean | null; errorType: ClaimErrorType | null; note: string } | null)[];
  /** Annotators' corrected versions of this claim. */
  corrections: { id: string; text: string; addedBy: string }[];
  decision: { action: ConsolidationAction; replacementText: string | null; decidedBy: string; decidedAt: Date } | null;
  suggestion: SuggestedDecision | null;
  /** Its number as every page names it (lib/claims/numbering); null for corrections and smells. */
  number: number | null;
}

export async function getConsolidationItem(account: Pick<SessionAccount, "id" | "role">, slug: string, codeChangeId: string) {
  const study = await requireLedStudy(account, slug);
  const change = await db.codeChange.findFirst({
    where: { id: codeChangeId, studyId: study.id },
    select: { id: true, externalId: true, filePath: true, language: true, diff: true, oldFile: true, newFile: true, consolidatedAt: true },
  });
  if (!change) throw new AppError("NOT_FOUND", { message: "No such code change in this study." });
  const [references, judgements, decisions, stage1, rows] = await Promise.all([
    db.pseudoReference.findMany({
      where: { codeChangeId },
      orderBy: [{ position: "asc" }, { id: "asc" }],
      select: { id: true, kind: true, text: true, source: true, position: true, addedById: true, correctsId: true, addedBy: { select: { name: true, email: true } } },
    }),
    db.claimJudgement.findMany({ where: { pseudoReference: { codeChangeId } }, select: { annotatorId: true, pseudoReferenceId: true, code: true, necessary: true, errorType: true, note: true } }).then((rows) => stage1Necessity(study, rows)),
    db.consolidationDecision.findMany({ where: { codeChangeId }, select: { pseudoReferenceId: true, action: true, replacementText: true, decidedAt: true, decidedBy: { select: { name: true } } } }),
    db.assignment.findMany({ where: { codeChangeId, task: "CLAIM_VERIFICATION" }, select: { annotatorId: true, status: true, annotator: { select: { name: true, email: true } } } }),
    consolidationRows(study),
  ]);
  const annotatorIds = [...new Set([...stage1.map((a) => a.annotatorId), ...judgements.map((j) => j.annotatorId)])].sort();
  const people = await db.account.findMany({ where: { id: { in: annotatorIds } }, select: { id: true, name: true, email: true } });
  const annotators = annotatorIds.map((id) => {
    const person = people.find((p) => p.id === id)!;
    return { id, name: person.name, email: person.email, status: stage1.find((a) => a.annotatorId === id)?.status ?? null };
  });
  const judgementMap = new Map(judgements.map((j) => [`${j.annotatorId}|${j.pseudoReferenceId}`, j]));
  const suggestions = suggestConsolidation(
    references,
    annotatorIds.map((annotatorId) => ({ annotatorId, judgements: new Map(judgements.filter((j) => j.annotatorId === annotatorId).map((j) => [j.pseudoReferenceId, j])) })),
  );
  const decisionMap = new Map(decisions.map((d) => [d.pseudoReferenceId, d]));
  const numbers = claimNumbers(references);
  const claims: ConsolidationClaim[] = references.map((ref) => ({
    id: ref.id,
    kind: ref.kind,
    text: ref.text,
    source: ref.source,
    addedBy: ref.addedBy?.name || ref.addedBy?.email || null,
    correctsId: ref.correctsId,
    verdicts: annotatorIds.map((a) => {
      const j = judgementMap.get(`${a}|${ref.id}`);
      return j ? { code: j.code, necessary: j.necessary, errorType: j.errorType, note: j.note } : null;
    }),
    corrections: references.filter((r) => r.correctsId === ref.id).map((r) => ({ id: r.id, text: r.text, addedBy: r.addedBy?.name || r.addedBy?.email || "annotator" })),
    decision: (() => {
      const d = decisionMap.get(ref.id);
      return d ? { action: d.action, replacementText: d.replacementText, decidedBy: d.decidedBy.name, decidedAt: d.decidedAt } : null;
    })(),
    suggestion: suggestions.get(ref.id) ?? null,
    number: numbers.get(ref.id) ?? null,
  }));
  return { study, change, annotators, claims, next: nextDisagreement(rows, change.id) };
}

export const consolidationSchema = z.object({
  slug: slugField,
  codeChangeId: z.string().min(1),
  decisions: z
    .array(
      z.object({
        pseudoReferenceId: z.string().min(1),
        action: z.enum(["KEEP", "REPLACE", "DROP"]),
        replacementText: z.string().trim().max(2000).nullable().optional(),
      }),
    )
    .max(1000),
});

/**
 * Stores the lead's decision for every claim and added claim of the item and marks it
 * consolidated; every decision that changes is written to the annotation history.
 */
export async function saveConsolidation(account: Pick<SessionAccount, "id" | "role">, input: z.infer<typeof consolidationSchema>): Promise<{ decisions: number }> {
  const leadId = account.id;
  const study = await requireLedStudy(account, input.slug);
  const change = await db.codeChange.findFirst({ where: { id: input.codeChangeId, studyId: study.id }, select: { id: true } });
  if (!change) throw new AppError("NOT_FOUND", { message: "No such code change in this study." });
  const refs = await db.pseudoReference.findMany({ where: { codeChangeId: change.id, kind: { not: "SMELL" } }, select: { id: true } });
  const refIds = new Set(refs.map((r) => r.id));
  const seen = new Set<string>();
  for (const d of input.decisions) {
    if (!refIds.has(d.pseudoReferenceId)) throw new AppError("INVALID_INPUT", { message: "A decision names a claim of another item." });
    if (seen.has(d.pseudoReferenceId)) throw new AppError("INVALID_INPUT", { message: "Two decisions for one claim." });
    seen.add(d.pseudoReferenceId);
    if (d.action === "REPLACE" && !d.replacementText) throw new AppError("INVALID_INPUT", { message: "Replace needs the replacement text." });
  }
  const missing = refs.filter((r) => !seen.has(r.id)).length;
  if (missing > 0) throw new AppError("INVALID_INPUT", { message: `Decide keep, replace or drop for every claim (${missing} without a decision).` });
  await db.$transaction(async (tx) => {
    const old = new Map((await tx.consolidationDecision.findMany({ where: { codeChangeId: change.id } })).map((d) => [d.pseudoReferenceId, d]));
    for (const d of input.decisions) {
      const value = { action: d.action, replacementText: d.action === "REPLACE" ? (d.replacementText ?? null) : null };
      const before = old.get(d.pseudoReferenceId);
      if (before && before.action === value.action && before.replacementText === value.replacementText) continue;
      const row = await tx.consolidationDecision.upsert({
        where: { pseudoReferenceId: d.pseudoReferenceId },
        create: { codeChangeId: change.id, pseudoReferenceId: d.pseudoReferenceId, ...value, decidedById: leadId },
        update: { ...value, decidedById: leadId, decidedAt: new Date() },
      });
      await tx.annotationHistory.create({
        data: {
          kind: "CONSOLIDATION",
          annotationId: row.id,
          accountId: leadId,
          action: before ? "UPDATE" : "CREATE",
          oldValue: before ? { action: before.action, replacementText: before.replacementText } : Prisma.DbNull,
          newValue: value,
        },
      });
    }
    await tx.codeChange.update({ where: { id: change.id }, data: { consolidatedAt: new Date() } });
  });
  return { decisions: input.decisions.length };
}

/** Status values leads see in the assignment list. */
export const STATUS_LABEL: Record<AssignmentStatus, string> = { PENDING: "pending", IN_PROGRESS: "in progress", DONE: "done", SKIPPED: "skipped" };
