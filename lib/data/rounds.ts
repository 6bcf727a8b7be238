/**
 * Calibration rounds of a study (rules in lib/annotation/rounds.ts): a lead
 * splits the study's items into equal rounds or takes calibration item sets as rounds; every
 * annotator of the study labels every round's items, round after round; each round's agreement
 * per question (Fleiss' kappa, Krippendorff's alpha at the question's level, pairwise Cohen) with
 * bootstrap CIs is the agreement report restricted to the round's item set, computed by the
 * worker on big studies (lib/analysis/report-jobs.ts); a lead reviews the disagreements (adjudication
 * queue) and releases the next round with notes, or the study's rule releases it. Items outside
 * every round wait for the last round's release, or for the lead to open them (lib/data/round-gate).
 * Rounds are made after a preview of the assignments they create, which the lead confirms.
 * Every lead call finds the study through leadStudyWhere.
 */
import "server-only";
import { z } from "zod";
import { slugField } from "@/lib/validation/study-fields";
import { db, type Prisma } from "@/lib/db/client";
import type { AgreementOptions, AgreementReport } from "@/lib/analysis";
import { studyFingerprint } from "@/lib/data/report-cache";
import { equalBatches, releaseRuleMet, ROUND_COEFFICIENTS, roundClosed, type RoundCoefficient } from "@/lib/annotation/rounds";
import { effectCounts, planEffect } from "@/lib/annotation/assignment-plan";
import { existingSelect, generateAssignments, planForStudy, previewKey } from "@/lib/data/assignment-admin";
import { goldCodeChanges } from "@/lib/data/gold";
import { roundsGate } from "@/lib/data/round-gate";
import { outsideRoundsHeld } from "@/lib/annotation/waiting";
import { requireLedStudy } from "@/lib/data/study-access";
import { dashboardReport, type ReportDone, reportJobNote } from "@/lib/analysis/report-jobs";
import { AppError } from "@/lib/errors";
import { announce } from "@/lib/webhooks/send";
import type { SessionAccount } from "@/lib/auth/authenticate";

const roundName = (n: number) => `round-${n}`;

/** A round's agreement report options: the report restricted to the round's item set. */
async function roundOptions(roundId: string): Promise<AgreementOptions> {
  const round = await db.calibrationRound.findUniqueOrThrow({
    where: { id: roundId },
    select: { itemSet: { select: { name: true, members: { orderBy: { position: "asc" }, select: { codeChange: { select: { externalId: true } }, review: { select: { externalId: true } }, pseudoReference: { select: { externalId: true } } } } } } },
  });
  const ids = round.itemSet.members.map((m) => {
    const item = m.review?.externalId ?? m.pseudoReference?.externalId;
    return item === undefined ? m.codeChange.externalId : `${m.codeChange.externalId}/${item}`;
  });
  return { items: { name: round.itemSet.name, kind: "calibration", ids }, disagreements: 50 };
}

async function roundStatuses(studyId: string) {
  const [rounds, assignments] = await Promise.all([
    db.calibrationRound.findMany({
      where: { studyId },
      orderBy: { number: "asc" },
      include: { itemSet: { select: { name: true, members: { select: { codeChangeId: true } } } } },
    }),
    db.assignment.findMany({ where: { studyId }, select: { codeChangeId: true, status: true, annotatorId: true } }),
  ]);
  return rounds.map((r) => {
    const changes = new Set(r.itemSet.members.map((m) => m.codeChangeId));
    const own = assignments.filter((a) => changes.has(a.codeChangeId));
    return { round: r, changes: changes.size, assignments: own, closed: r.releasedAt !== null && roundClosed(own.map((a) => a.status)) };
  });
}

/** The round's agreement report: complete (with CIs), or point estimates while the worker computes them. */
async function roundReport(studyId: string, roundId: string) {
  const shown = await dashboardReport("agreement", studyId, await roundOptions(roundId), await studyFingerprint(studyId, false));
  return { report: shown.report, complete: shown.complete, progress: shown.job && !shown.complete ? reportJobNote(shown.job) : null };
}

/** Releases the next round when the closed round before it meets the study's rule; returns the round released, if any. */
export async function releaseDueRound(studyId: string): Promise<number | null> {
  const study = await db.study.findUniqueOrThrow({ where: { id: studyId }, select: { roundCoefficient: true, roundThreshold: true } });
  if (study.roundThreshold === null) return null;
  const rounds = await roundStatuses(studyId);
  const next = rounds.findIndex((r) => r.round.releasedAt === null);
  if (next <= 0 || !rounds[next - 1].closed) return null;
  const { report, complete } = await roundReport(studyId, rounds[next - 1].round.id);
  if (!complete || !releaseRuleMet(questionsOf(report), study.roundCoefficient, study.roundThreshold)) return null;
  const how = `${ROUND_COEFFICIENTS[study.roundCoefficient as RoundCoefficient] ?? study.roundCoefficient}: lower CI bound ≥ ${study.roundThreshold} on round ${rounds[next - 1].round.number}`;
  const { count } = await db.calibrationRound.updateMany({ where: { id: rounds[next].round.id, releasedAt: null }, data: { releasedAt: new Date(), releasedHow: how } });
  if (count !== 1) return null;
  // Announced here, where every release by the rule happens (after a submission, a skip, a report, a page load).
  await announce({ id: studyId }, "round.released", { round: rounds[next].round.number, how: "by the study's rule" });
  return rounds[next].round.number;
}

/** A report job's listener (onReportDone, registered by the worker): an agreement report's CIs may be what a round's release rule waited for. */
export async function releaseAfterReport(report: ReportDone): Promise<number | null> {
  return report.kind === "agreement" ? releaseDueRound(report.studyId) : null;
}

/**
 * After an annotator finishes (submits or skips) an item: when that closed the item's round, the
 * next round opens at once if the study's rule holds, without waiting for a page load. Cheap
 * when it did not close a round: one query for the round, one count of its open assignments.
 */
export async function releaseDueRoundAfter(studyId: string, codeChangeId: string): Promise<number | null> {
  const round = await db.calibrationRound.findFirst({ where: { studyId, releasedAt: { not: null }, study: { roundThreshold: { not: null } }, itemSet: { members: { some: { codeChangeId } } } }, select: { id: true } });
  if (!round) return null;
  const open = await db.assignment.count({ where: { studyId, status: { in: ["PENDING", "IN_PROGRESS"] }, codeChange: { itemSetMembers: { some: { itemSet: { round: { id: round.id } } } } } } });
  return open === 0 ? releaseDueRound(studyId) : null;
}

const questionsOf = (report: AgreementReport) => report.tasks.flatMap((t) => t.questions.map((q) => ({ question: `${t.task}:${q.question}`, coefficients: q.coefficients })));

export interface RoundView {
  number: number;
  name: string;
  changes: number;
  releasedAt: Date | null;
  releasedHow: string;
  releasedBy: string | null;
  notes: string;
  done: number;
  total: number;
  closed: boolean;
  /** The round's agreement (null before any rating); `complete` false while the worker computes the CIs. */
  agreement: { report: AgreementReport; complete: boolean; progress: string | null } | null;
}

/** The items outside every round: how many, and whether the rounds hold them (lib/data/round-gate). */
export interface OutsideRounds {
  codeChanges: number;
  held: boolean;
  /** When a lead opened them before the last round's release. */
  openedAt: Date | null;
  lastRound: number;
}

/** The study's rounds with their progress and agreement, after releasing a round the rule has come to release. */
export async function studyRounds(account: Pick<SessionAccount, "id" | "role">, slug: string): Promise<{ study: { id: string; slug: string; name: string; roundCoefficient: string; roundThreshold: number | null }; rounds: RoundView[]; outside: OutsideRounds | null }> {
  const study = await requireLedStudy(account, slug);
  await releaseDueRound(study.id);
  const [rounds, gate, outsideCodeChanges] = await Promise.all([
    roundStatuses(study.id),
    roundsGate(db, study.id),
    db.codeChange.count({ where: { studyId: study.id, itemSetMembers: { none: { itemSet: { round: { isNot: null } } } } } }),
  ]);
  const leads = new Map((await db.account.findMany({ where: { id: { in: rounds.map((r) => r.round.releasedById).filter((id): id is string => id !== null) } }, select: { id: true, name: true } })).map((u) => [u.id, u.name]));
  const views: RoundView[] = [];
  for (const { round, changes, assignments, closed } of rounds) {
    const done = assignments.filter((a) => a.status === "DONE" || a.status === "SKIPPED").length;
    views.push({
      number: round.number,
      name: round.itemSet.name,
      changes,
      releasedAt: round.releasedAt,
      releasedHow: round.releasedHow,
      releasedBy: round.releasedById ? (leads.get(round.releasedById) ?? null) : null,
      notes: round.notes,
      done,
      total: assignments.length,
      closed,
      agreement: done > 0 ? await roundReport(study.id, round.id) : null,
    });
  }
  const outside = gate && { codeChanges: outsideCodeChanges, held: outsideRoundsHeld(gate), openedAt: study.outsideRoundsOpenedAt, lastRound: gate.last };
  return { study: { id: study.id, slug: study.slug, name: study.name, roundCoefficient: study.roundCoefficient, roundThreshold: study.roundThreshold }, rounds: views, outside };
}

export const previewRoundsSchema = z.object({
  slug: slugField,
  /** Equal rounds of the study's items in study order … */
  count: z.coerce.number().int().min(1).max(1000).optional(),
  /** … or these calibration item sets, in this order. */
  itemSets: z.array(z.string().trim().min(1)).max(1000).optional(),
});

export const createRoundsSchema = previewRoundsSchema.extend({
  /** The key of the preview the lead confirmed (RoundsPreview.key): nothing is made when the plan has changed since. */
  confirm: z.string().min(1, "preview the rounds first, then confirm"),
});

type Tx = Prisma.TransactionClient;

/** A round to make: a new equal batch (its code changes) or a calibration item set of the study. */
type PlannedRound = { name: string; codeChanges: string[] } & ({ setId: string } | { setId: null; source: string });

/** The rounds `input` asks for, read from the study (nothing written); refused when they cannot be made. */
async function plannedRounds(client: Tx | typeof db, study: { id: string; slug: string }, input: z.infer<typeof previewRoundsSchema>): Promise<PlannedRound[]> {
  if ((input.count === undefined) === (input.itemSets === undefined || input.itemSets.length === 0)) throw new AppError("INVALID_INPUT", { message: "Give either a number of equal rounds or the calibration item sets to use as rounds." });
  if (await client.calibrationRound.count({ where: { studyId: study.id } })) throw new AppError("CONFLICT", { message: `Study ${study.slug} has calibration rounds already.` });
  if (input.count !== undefined) {
    const gold = await goldCodeChanges(client, study.id);
    const codeChanges = (await client.codeChange.findMany({ where: { studyId: study.id }, orderBy: [{ position: "asc" }, { externalId: "asc" }], select: { id: true } })).filter((c) => !gold.has(c.id));
    if (codeChanges.length === 0) throw new AppError("INVALID_INPUT", { message: "The study has no items to split into rounds." });
    const batches = equalBatches(codeChanges, input.count);
    const taken = await client.itemSet.findMany({ where: { studyId: study.id, name: { in: batches.map((_, i) => roundName(i + 1)) } }, select: { name: true } });
    if (taken.length) throw new AppError("CONFLICT", { message: `Study ${study.slug} already has an item set "${taken[0].name}".` });
    return batches.map((batch, i) => ({ name: roundName(i + 1), codeChanges: batch.map((c) => c.id), setId: null, source: `${input.count} equal calibration rounds` }));
  }
  const sets = await client.itemSet.findMany({ where: { studyId: study.id, name: { in: input.itemSets } }, select: { id: true, name: true, kind: true, members: { orderBy: { position: "asc" }, select: { codeChangeId: true } } } });
  return input.itemSets!.map((name) => {
    const set = sets.find((s) => s.name === name);
    if (!set) throw new AppError("INVALID_INPUT", { message: `Study ${study.slug} has no item set "${name}".` });
    if (set.kind !== "CALIBRATION") throw new AppError("INVALID_INPUT", { message: `Item set "${name}" is not a calibration batch.` });
    return { name, codeChanges: [...new Set(set.members.map((m) => m.codeChangeId))], setId: set.id };
  });
}

export interface RoundsPreview {
  rounds: { number: number; name: string; codeChanges: number }[];
  /** Code changes in no round: they open after the last round's release (or when a lead opens them). */
  outsideCodeChanges: number;
  /** Planned assignments per annotator of the study, per round and outside the rounds. */
  annotators: { annotatorId: string; name: string; perRound: number[]; outside: number; total: number }[];
  perRound: number[];
  outside: number;
  total: number;
  /** What making the rounds does to the stored assignments. */
  effect: ReturnType<typeof effectCounts>;
  /** Names this preview; making the rounds asks for it back (createRoundsSchema.confirm). */
  key: string;
}

/** The study's active annotators, who get every round's items. */
const roundAnnotators = (studyId: string) =>
  db.account.findMany({ where: { active: true, memberships: { some: { studyId, role: "ANNOTATOR" } } }, orderBy: [{ name: "asc" }, { email: "asc" }], select: { id: true, name: true, email: true } });

/** What making these rounds would make, and the assignments it would create; writes nothing. */
export async function previewRounds(account: Pick<SessionAccount, "id" | "role">, input: z.infer<typeof previewRoundsSchema>): Promise<RoundsPreview> {
  const study = await requireLedStudy(account, input.slug);
  const rounds = await plannedRounds(db, study, input);
  const annotators = await roundAnnotators(study.id);
  const [{ plan }, existing, codeChangeCount] = await Promise.all([
    planForStudy(account, study.slug, annotators.map((a) => a.id), rounds.map((r) => r.codeChanges)),
    db.assignment.findMany({ where: { studyId: study.id }, select: existingSelect }),
    db.codeChange.count({ where: { studyId: study.id } }),
  ]);
  const roundOf = new Map(rounds.flatMap((r, i) => r.codeChanges.map((id) => [id, i] as const)));
  const count = (rows: typeof plan) => ({ perRound: rounds.map((_, i) => rows.filter((p) => roundOf.get(p.codeChangeId) === i).length), outside: rows.filter((p) => !roundOf.has(p.codeChangeId)).length, total: rows.length });
  const effect = planEffect(existing, plan);
  return {
    rounds: rounds.map((r, i) => ({ number: i + 1, name: r.name, codeChanges: r.codeChanges.length })),
    outsideCodeChanges: codeChangeCount - roundOf.size,
    annotators: annotators.map((a) => ({ annotatorId: a.id, name: a.name || a.email, ...count(plan.filter((p) => p.annotatorId === a.id)) })),
    ...count(plan),
    effect: effectCounts(effect),
    key: previewKey(effect, rounds.map((r) => [r.name, r.codeChanges])),
  };
}

/**
 * Makes the study's rounds (refused when it has some) as calibration item sets, opens round 1 and
 * generates the assignments of the study's annotators, so that each labels every round's items
 * first; only as the preview the lead confirmed showed it (`confirm`, else CONFLICT and nothing made).
 */
export async function createRounds(account: Pick<SessionAccount, "id" | "role">, input: z.infer<typeof createRoundsSchema>): Promise<{ rounds: number; assignments: number }> {
  const study = await requireLedStudy(account, input.slug);
  const preview = await previewRounds(account, input);
  if (preview.key !== input.confirm) throw new AppError("CONFLICT", { message: "The study's items, annotators or assignments changed since the preview: nothing was made. Preview the rounds again." });
  await db.$transaction(async (tx) => {
    const rounds = await plannedRounds(tx, study, input);
    const setIds: string[] = [];
    for (const round of rounds) {
      if (round.setId !== null) {
        setIds.push(round.setId);
        continue;
      }
      const set = await tx.itemSet.create({ data: { studyId: study.id, name: round.name, kind: "CALIBRATION", source: round.source, createdById: account.id }, select: { id: true } });
      await tx.itemSetMember.createMany({ data: round.codeChanges.map((codeChangeId, position) => ({ itemSetId: set.id, position, codeChangeId })) });
      setIds.push(set.id);
    }
    await tx.calibrationRound.createMany({ data: setIds.map((itemSetId, i) => ({ studyId: study.id, number: i + 1, itemSetId, ...(i === 0 ? { releasedAt: new Date(), releasedById: account.id, releasedHow: "opened when the rounds were made" } : {}) })) });
  });
  const annotators = await roundAnnotators(study.id);
  const summary = annotators.length ? await generateAssignments(account, study.slug, annotators.map((a) => a.id)) : null;
  return { rounds: await db.calibrationRound.count({ where: { studyId: study.id } }), assignments: summary ? summary.created + summary.updated : 0 };
}

export const openOutsideRoundsSchema = z.object({ slug: slugField });

/** Opens the items outside every round before the last round's release (lib/data/round-gate); again is harmless. */
export async function openOutsideRounds(account: Pick<SessionAccount, "id" | "role">, input: z.infer<typeof openOutsideRoundsSchema>): Promise<{ openedAt: Date }> {
  const study = await requireLedStudy(account, input.slug);
  if ((await db.calibrationRound.count({ where: { studyId: study.id } })) === 0) throw new AppError("INVALID_INPUT", { message: `Study ${study.slug} has no calibration rounds: its items are open.` });
  if (study.outsideRoundsOpenedAt) return { openedAt: study.outsideRoundsOpenedAt };
  const { outsideRoundsOpenedAt } = await db.study.update({ where: { id: study.id }, data: { outsideRoundsOpenedAt: new Date() }, select: { outsideRoundsOpenedAt: true } });
  return { openedAt: outsideRoundsOpenedAt! };
}

export const releaseRoundSchema = z.object({ slug: slugField, number: z.number().int().min(2), notes: z.string().trim().max(20_000).default("") });

/** Releases round `number` by hand once the round before it is closed; the notes are kept with the round before (its review). */
export async function releaseRound(account: Pick<SessionAccount, "id" | "role">, input: z.infer<typeof releaseRoundSchema>): Promise<{ released: number }> {
  const study = await requireLedStudy(account, input.slug);
  const rounds = await roundStatuses(study.id);
  const round = rounds.find((r) => r.round.number === input.number);
  const before = rounds.find((r) => r.round.number === input.number - 1);
  if (!round || !before) throw new AppError("NOT_FOUND", { message: `Study ${study.slug} has no round ${input.number}.` });
  if (round.round.releasedAt) throw new AppError("CONFLICT", { message: `Round ${input.number} is open already.` });
  if (!before.closed) throw new AppError("CONFLICT", { message: `Round ${input.number - 1} is not finished yet: ${before.assignments.filter((a) => a.status !== "DONE" && a.status !== "SKIPPED").length} assignments open.` });
  await db.$transaction([
    db.calibrationRound.update({ where: { id: before.round.id }, data: { notes: input.notes } }),
    db.calibrationRound.update({ where: { id: round.round.id }, data: { releasedAt: new Date(), releasedById: account.id, releasedHow: "by hand" } }),
  ]);
  await announce({ id: study.id }, "round.released", { round: input.number, how: "by hand" });
  return { released: input.number };
}

export const roundRuleSchema = z.object({
  slug: slugField,
  coefficient: z.enum(Object.keys(ROUND_COEFFICIENTS) as [RoundCoefficient, ...RoundCoefficient[]]),
  /** Empty: release by hand only. */
  threshold: z.union([z.literal("").transform(() => null), z.null(), z.coerce.number().min(-1).max(1)]),
});

export async function setRoundRule(account: Pick<SessionAccount, "id" | "role">, input: z.infer<typeof roundRuleSchema>): Promise<{ coefficient: string; threshold: number | null }> {
  const study = await requireLedStudy(account, input.slug);
  await db.study.update({ where: { id: study.id }, data: { roundCoefficient: input.coefficient, roundThreshold: input.threshold } });
  return { coefficient: input.coefficient, threshold: input.threshold };
}
