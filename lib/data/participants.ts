/**
 * Participants (crowd links, lib/crowd/link.ts): an account per study, platform and participant
 * id, without password or e-mail, annotating that one study; bound to the browser that first
 * followed the link by its session cookie, so the same id from another browser is refused. Once
 * admitted (qualification passed or none asked) a participant takes the study's quota of
 * assignments from the pool (items with fewer annotators than the study asks for); the items of
 * one idle for the study's release time go back to the pool (lib/crowd/work.ts).
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { db, type Prisma } from "@/lib/db/client";
import { participantName, quotaDone, releaseAt, type LinkParticipant } from "@/lib/crowd/link";
import { studyItems } from "@/lib/data/assignment-admin";
import { goldCodeChanges } from "@/lib/data/gold";
import { admittedMemberWhere, requireLedStudy } from "@/lib/data/study-access";
import { AppError } from "@/lib/errors";
import { TASK_PHASES } from "@/lib/annotation/assignment-plan";
import { slugField } from "@/lib/validation/study-fields";
import type { SessionAccount } from "@/lib/auth/authenticate";

/** A participant's account carries no e-mail of theirs: this placeholder (RFC 2606's .invalid) keeps the column unique. */
const placeholderEmail = () => `participant-${randomUUID()}@participants.invalid`;

export const RELEASED_MESSAGE = "Your session in this study has ended: you left it idle for too long and its items went to other participants.";

export interface JoinedParticipant {
  account: { id: string; email: string; name: string; role: "ANNOTATOR"; sessionVersion: number };
  created: boolean;
}

/**
 * The participant of this study with this platform id: made on their first visit, resumed when the
 * browser's session is already theirs. The same id from a browser without that session is refused
 * (someone else holding the id takes nobody's work), as is a link of a study not open to participants.
 */
export async function joinStudy(slug: string, participant: LinkParticipant, browserAccountId: string | null): Promise<JoinedParticipant> {
  const study = await db.study.findFirst({ where: { slug, crowdOpen: true }, select: { id: true } });
  if (!study) throw new AppError("NOT_FOUND", { message: "This study takes no participants (its link is closed, or there is no such study)." });
  if (browserAccountId && (await db.account.count({ where: { id: browserAccountId, crowdStudyId: null } })) > 0) {
    throw new AppError("FORBIDDEN", { message: "This browser is signed in to an account: sign out before following a participation link." });
  }
  const key = { crowdStudyId: study.id, crowdPlatform: participant.platform, crowdId: participant.id };
  const select = { id: true, email: true, name: true, sessionVersion: true, active: true } as const;
  const existing = await db.account.findFirst({ where: key, select });
  if (existing) {
    if (!existing.active) throw new AppError("LOCKED", { message: RELEASED_MESSAGE });
    if (existing.id !== browserAccountId) throw new AppError("FORBIDDEN", { message: "This participant id is already taking part in this study from another browser." });
    await db.account.update({ where: { id: existing.id }, data: { crowdSeenAt: new Date() } });
    return { account: { ...existing, role: "ANNOTATOR" }, created: false };
  }
  try {
    const account = await db.account.create({
      data: { ...key, email: placeholderEmail(), name: participantName(participant), role: "ANNOTATOR", crowdSeenAt: new Date(), memberships: { create: { studyId: study.id, role: "ANNOTATOR" } } },
      select,
    });
    return { account: { ...account, role: "ANNOTATOR" }, created: true };
  } catch (error) {
    // Two first visits at once: the unique key lets one through.
    if ((error as { code?: string }).code === "P2002") throw new AppError("CONFLICT", { message: "This participant id has just joined from another browser." });
    throw error;
  }
}

type Tx = Prisma.TransactionClient;

/**
 * Gives an admitted participant their quota from the pool, in study order: items of the study's
 * tasks (gold items aside) with fewer assignments than annotators per item, skipped and released
 * ones not counted. One participant at a time per study (an advisory lock), so no item is handed
 * out beyond its annotators.
 */
async function takeQuota(tx: Tx, study: { id: string; tasks: Prisma.StudyGetPayload<object>["tasks"]; crowdQuota: number; annotatorsPerItem: number }, accountId: string): Promise<number> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`crowd:${study.id}`}))::text`;
  const held = await tx.assignment.count({ where: { studyId: study.id, annotatorId: accountId } });
  if (held >= study.crowdQuota) return 0;
  const [items, gold, taken] = await Promise.all([
    studyItems(study, tx),
    goldCodeChanges(tx, study.id),
    tx.assignment.groupBy({ by: ["codeChangeId", "task"], where: { studyId: study.id, status: { not: "SKIPPED" } }, _count: { _all: true } }),
  ]);
  const count = new Map(taken.map((t) => [`${t.codeChangeId}:${t.task}`, t._count._all]));
  const last = await tx.assignment.aggregate({ where: { studyId: study.id, annotatorId: accountId }, _max: { position: true } });
  let position = (last._max.position ?? -1) + 1;
  const picks: Prisma.AssignmentCreateManyInput[] = [];
  for (const item of items.filter((i) => !gold.has(i.id)).sort((a, b) => a.position - b.position || a.id.localeCompare(b.id))) {
    for (const task of TASK_PHASES.filter((t) => item.tasks.includes(t))) {
      if (held + picks.length >= study.crowdQuota) break;
      if ((count.get(`${item.id}:${task}`) ?? 0) >= study.annotatorsPerItem) continue;
      picks.push({ studyId: study.id, annotatorId: accountId, codeChangeId: item.id, task, position: position++ });
    }
  }
  return (await tx.assignment.createMany({ data: picks, skipDuplicates: true })).count;
}

export interface Participation {
  study: { slug: string; name: string; quota: number; releaseMinutes: number };
  qualification: "none" | "pending" | "passed" | "failed";
  assignments: { id: string; status: string; position: number; filePath: string }[];
  /** Assignments taken from the pool on this visit (their release is then scheduled). */
  took: number;
  /** Every assignment of the quota submitted: the completion code, and the platform's URL to go back to (empty: none). */
  done: { code: string; url: string } | null;
}

/** The participant's page: qualification first, then their quota (taken on the first visit after qualifying), then the completion code. */
export async function participation(account: Pick<SessionAccount, "id">, slug: string): Promise<Participation> {
  const member = await db.studyMember.findFirst({
    where: { accountId: account.id, role: "ANNOTATOR", study: { slug }, account: { crowdStudyId: { not: null }, active: true } },
    select: {
      qualifiedAt: true,
      qualificationFailedAt: true,
      study: { select: { id: true, slug: true, name: true, tasks: true, crowdOpen: true, crowdQuota: true, crowdReleaseMinutes: true, crowdCompletionCode: true, crowdCompletionUrl: true, annotatorsPerItem: true, qualificationRequired: true } },
    },
  });
  // Only a participant of this study reaches it: another study's, or an annotator with a password, finds none.
  if (!member || (await db.account.count({ where: { id: account.id, crowdStudyId: member.study.id } })) === 0) throw new AppError("NOT_FOUND", { message: "No such study among yours." });
  const { study } = member;
  const qualification = !study.qualificationRequired ? "none" : member.qualifiedAt ? "passed" : member.qualificationFailedAt ? "failed" : "pending";
  await db.account.update({ where: { id: account.id }, data: { crowdSeenAt: new Date() } });
  const admitted = await db.studyMember.count({ where: { studyId: study.id, accountId: account.id, ...admittedMemberWhere } });
  const took = admitted > 0 && study.crowdOpen ? await db.$transaction((tx) => takeQuota(tx, study, account.id)) : 0;
  const assignments = await db.assignment.findMany({
    where: { studyId: study.id, annotatorId: account.id },
    orderBy: { position: "asc" },
    select: { id: true, status: true, position: true, codeChange: { select: { filePath: true, externalId: true } } },
  });
  return {
    study: { slug: study.slug, name: study.name, quota: study.crowdQuota, releaseMinutes: study.crowdReleaseMinutes },
    qualification,
    took,
    assignments: assignments.map((a) => ({ id: a.id, status: a.status, position: a.position, filePath: a.codeChange.filePath || a.codeChange.externalId })),
    done: admitted > 0 && assignments.length > 0 && quotaDone(assignments, Math.min(study.crowdQuota, assignments.length)) ? { code: study.crowdCompletionCode, url: study.crowdCompletionUrl } : null,
  };
}

/**
 * Releases an idle participant's open items back to the pool once their last activity (the link,
 * their page, any change to their assignments) is older than the study's release time: the open
 * assignments are skipped as released (not counted in the pool, their drafts never submitted) and
 * the account is closed, which ends its session. Returns when to look again if not idle yet.
 */
export async function releaseIdleParticipant(accountId: string, now = new Date()): Promise<{ released: number } | { notBefore: Date } | null> {
  const account = await db.account.findFirst({ where: { id: accountId, crowdStudyId: { not: null }, active: true }, select: { crowdSeenAt: true, crowdStudyId: true, createdAt: true } });
  if (!account) return null;
  const study = await db.study.findUniqueOrThrow({ where: { id: account.crowdStudyId! }, select: { crowdReleaseMinutes: true } });
  const open = await db.assignment.findMany({ where: { annotatorId: accountId, status: { in: ["PENDING", "IN_PROGRESS"] } }, select: { id: true, updatedAt: true } });
  const last = Math.max(account.crowdSeenAt?.getTime() ?? account.createdAt.getTime(), ...(await db.assignment.findMany({ where: { annotatorId: accountId }, select: { updatedAt: true } })).map((a) => a.updatedAt.getTime()));
  const due = releaseAt(new Date(last), study.crowdReleaseMinutes);
  if (due > now) return { notBefore: due };
  if (open.length === 0) return { released: 0 };
  await db.$transaction([
    db.assignment.updateMany({ where: { id: { in: open.map((a) => a.id) }, status: { in: ["PENDING", "IN_PROGRESS"] } }, data: { status: "SKIPPED", skipReason: `released: idle for ${study.crowdReleaseMinutes} minutes` } }),
    db.account.update({ where: { id: accountId }, data: { active: false, sessionVersion: { increment: 1 } } }),
  ]);
  return { released: open.length };
}

/** The slug of the study a participant takes part in; null for any other account. */
export async function participantStudySlug(accountId: string): Promise<string | null> {
  const account = await db.account.findFirst({ where: { id: accountId, crowdStudyId: { not: null } }, select: { crowdStudyId: true } });
  if (!account) return null;
  return (await db.study.findUnique({ where: { id: account.crowdStudyId! }, select: { slug: true } }))?.slug ?? null;
}

export const crowdSettingsSchema = z.object({
  slug: slugField,
  open: z.boolean(),
  quota: z.number().int().min(1).max(10_000),
  completionCode: z.string().trim().max(200),
  completionUrl: z.union([z.literal(""), z.string().trim().url("the completion URL must be a full http(s) URL").max(2000).refine((u) => /^https?:\/\//.test(u), "the completion URL must start with http:// or https://")]),
  releaseMinutes: z.number().int().min(1).max(7 * 24 * 60),
});

/** The lead sets the study's crowd link (settings page). */
export async function updateCrowdSettings(account: Pick<SessionAccount, "id" | "role">, input: z.infer<typeof crowdSettingsSchema>) {
  const study = await requireLedStudy(account, input.slug);
  return db.study.update({
    where: { id: study.id },
    data: { crowdOpen: input.open, crowdQuota: input.quota, crowdCompletionCode: input.completionCode, crowdCompletionUrl: input.completionUrl, crowdReleaseMinutes: input.releaseMinutes },
    select: { crowdOpen: true, crowdQuota: true, crowdCompletionCode: true, crowdCompletionUrl: true, crowdReleaseMinutes: true },
  });
}
