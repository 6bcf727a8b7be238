/**
 * Item sets of a study (issue 11): named sets of its items that reports can be restricted to and
 * later work (calibration rounds, held-out sets) can refer to. Members are whole code changes or
 * single reviews or claims, named by external ids (`CHANGE_ID`, `CHANGE_ID/REVIEW_ID`,
 * `CHANGE_ID/CLAIM_ID`; lib/analysis/item-sets.ts). The reliability set is the one the study's
 * assignment plan says (stored when the plan is made), or one a lead gives; a study has at most one.
 * Every function finds the study through leadStudyWhere: another lead's study answers 404.
 */
import { z } from "zod";
import { db, type Prisma } from "@/lib/db/client";
import { type ItemSetFilter, parseItemIds, resolveItemIds } from "@/lib/analysis/item-sets";
import { COMMAND_LINE, requireLedStudy, type StudyUser } from "@/lib/data/study-access";
import { ItemSetKind } from "@/lib/generated/prisma/enums";
import { AppError } from "@/lib/errors";

/** How reports and pages name each kind. */
export const ITEM_SET_KIND_LABEL: Record<ItemSetKind, string> = { RELIABILITY: "reliability", CALIBRATION: "calibration batch", HELD_OUT: "held-out", CUSTOM: "custom" };

/** The name of the reliability set an assignment plan stores. */
export const PLAN_RELIABILITY_SET = "reliability";
const PLAN_SOURCE = "assignment plan";

export interface ItemSetSummary {
  id: string;
  name: string;
  kind: ItemSetKind;
  description: string;
  source: string;
  /** Members (changes, reviews or claims). */
  size: number;
  /** Distinct code changes among them. */
  changes: number;
  createdBy: string | null;
  createdAt: Date;
}

const memberSelect = {
  position: true,
  codeChangeId: true,
  codeChange: { select: { externalId: true } },
  candidateReview: { select: { externalId: true } },
  pseudoReference: { select: { externalId: true } },
} as const satisfies Prisma.ItemSetMemberSelect;

type MemberRow = Prisma.ItemSetMemberGetPayload<{ select: typeof memberSelect }>;

/** A member's external id, as item files write it. */
const memberId = (m: MemberRow) => {
  const item = m.candidateReview?.externalId ?? m.pseudoReference?.externalId;
  return item === undefined ? m.codeChange.externalId : `${m.codeChange.externalId}/${item}`;
};

const summarySelect = {
  id: true,
  name: true,
  kind: true,
  description: true,
  source: true,
  createdAt: true,
  createdBy: { select: { name: true, email: true } },
  members: { select: { codeChangeId: true } },
} as const satisfies Prisma.ItemSetSelect;

function summary(set: Prisma.ItemSetGetPayload<{ select: typeof summarySelect }>): ItemSetSummary {
  return {
    id: set.id,
    name: set.name,
    kind: set.kind,
    description: set.description,
    source: set.source,
    size: set.members.length,
    changes: new Set(set.members.map((m) => m.codeChangeId)).size,
    createdBy: set.createdBy ? set.createdBy.name || set.createdBy.email : null,
    createdAt: set.createdAt,
  };
}

/** The study's item sets, the reliability set first, then by name. */
export async function listItemSets(user: StudyUser, slug: string): Promise<{ study: { id: string; slug: string; name: string }; sets: ItemSetSummary[] }> {
  const study = await requireLedStudy(user, slug);
  const sets = await db.itemSet.findMany({ where: { studyId: study.id }, select: summarySelect, orderBy: { name: "asc" } });
  const order = (s: ItemSetSummary) => (s.kind === "RELIABILITY" ? 0 : 1);
  return { study: { id: study.id, slug: study.slug, name: study.name }, sets: sets.map(summary).sort((a, b) => order(a) - order(b)) };
}

/** One set with its members' external ids in order. */
export async function readItemSet(user: StudyUser, slug: string, name: string): Promise<ItemSetSummary & { ids: string[] }> {
  const study = await requireLedStudy(user, slug);
  const set = await db.itemSet.findUnique({ where: { studyId_name: { studyId: study.id, name } }, select: { ...summarySelect, members: { select: memberSelect, orderBy: { position: "asc" } } } });
  if (!set) throw new AppError("NOT_FOUND", { message: `Study ${study.slug} has no item set "${name}".` });
  return { ...summary(set), ids: set.members.map(memberId) };
}

/** A stored set as reports take it. */
export async function itemSetFilter(user: StudyUser, slug: string, name: string): Promise<ItemSetFilter> {
  const set = await readItemSet(user, slug, name);
  return { name: set.name, kind: ITEM_SET_KIND_LABEL[set.kind], ids: set.ids };
}

/** The study's reliability set as reports take it; undefined when it has none. */
export async function reliabilitySetFilter(user: StudyUser, slug: string): Promise<ItemSetFilter | undefined> {
  const study = await requireLedStudy(user, slug);
  const set = await db.itemSet.findFirst({ where: { studyId: study.id, kind: "RELIABILITY" }, select: { name: true } });
  return set ? itemSetFilter(user, slug, set.name) : undefined;
}

/** The item sets a report of this study uses: the one asked for (by name), and the study's reliability set. */
export async function reportItemSets(user: StudyUser, slug: string, name?: string): Promise<{ items?: ItemSetFilter; reliabilitySet?: ItemSetFilter }> {
  const [items, reliabilitySet] = await Promise.all([name ? itemSetFilter(user, slug, name) : undefined, reliabilitySetFilter(user, slug)]);
  return { ...(items ? { items } : {}), ...(reliabilitySet ? { reliabilitySet } : {}) };
}

export const createItemSetSchema = z.object({
  slug: z.string().min(1),
  name: z.string().trim().min(1, "Give the set a name.").max(100),
  kind: z.enum(Object.values(ItemSetKind) as [ItemSetKind, ...ItemSetKind[]]),
  description: z.string().trim().max(2000).default(""),
  /** The file's name, kept as the set's source. */
  fileName: z.string().trim().min(1).max(200),
  /** The file's text: one external id per line. */
  text: z.string().max(5_000_000),
});

/**
 * Stores a set from a file of external ids. Every id must name an item of the study (the unknown
 * ones are listed and nothing is stored); a second reliability set or a taken name is a conflict.
 */
export async function createItemSet(user: StudyUser, input: z.input<typeof createItemSetSchema>): Promise<ItemSetSummary> {
  const parsed = createItemSetSchema.parse(input);
  const study = await requireLedStudy(user, parsed.slug);
  let ids: string[];
  try {
    ids = parseItemIds(parsed.fileName, parsed.text);
  } catch (error) {
    throw new AppError("INVALID_INPUT", { message: (error as Error).message });
  }
  const changes = await db.codeChange.findMany({
    where: { studyId: study.id },
    select: { id: true, externalId: true, reviews: { select: { id: true, externalId: true } }, pseudoReferences: { select: { id: true, externalId: true } } },
  });
  const { members, unknown } = resolveItemIds(
    ids,
    changes.map((c) => ({ id: c.id, externalId: c.externalId, reviews: c.reviews, claims: c.pseudoReferences })),
  );
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 20).join(", ");
    throw new AppError("INVALID_INPUT", { message: `${unknown.length} of ${ids.length} ids in ${parsed.fileName} name no item of study ${study.slug}: ${shown}${unknown.length > 20 ? ", …" : ""} (one CHANGE_ID, CHANGE_ID/REVIEW_ID or CHANGE_ID/CLAIM_ID per line)` });
  }
  const id = await db.$transaction(async (tx) => {
    if (await tx.itemSet.findUnique({ where: { studyId_name: { studyId: study.id, name: parsed.name } }, select: { id: true } })) {
      throw new AppError("CONFLICT", { message: `Study ${study.slug} already has an item set "${parsed.name}".` });
    }
    if (parsed.kind === "RELIABILITY") {
      const existing = await tx.itemSet.findFirst({ where: { studyId: study.id, kind: "RELIABILITY" }, select: { name: true } });
      if (existing) throw new AppError("CONFLICT", { message: `Study ${study.slug} already has a reliability set ("${existing.name}"); delete it first.` });
    }
    const set = await tx.itemSet.create({
      data: { studyId: study.id, name: parsed.name, kind: parsed.kind, description: parsed.description, source: parsed.fileName, createdById: user.id === COMMAND_LINE.id ? null : user.id },
      select: { id: true },
    });
    await tx.itemSetMember.createMany({ data: members.map((m, position) => ({ itemSetId: set.id, position, ...m })) });
    return set.id;
  });
  return summary(await db.itemSet.findUniqueOrThrow({ where: { id }, select: summarySelect }));
}

export const deleteItemSetSchema = z.object({ slug: z.string().min(1), name: z.string().min(1) });

export async function deleteItemSet(user: StudyUser, input: z.input<typeof deleteItemSetSchema>): Promise<{ deleted: string }> {
  const { slug, name } = deleteItemSetSchema.parse(input);
  const study = await requireLedStudy(user, slug);
  const { count } = await db.itemSet.deleteMany({ where: { studyId: study.id, name } });
  if (count === 0) throw new AppError("NOT_FOUND", { message: `Study ${study.slug} has no item set "${name}".` });
  return { deleted: name };
}

/**
 * Stores the reliability set an assignment plan made (its code changes, in plan order), inside
 * the plan's transaction: the study's reliability set gets these members, whatever its name; a
 * plan without one removes a reliability set an earlier plan stored (a lead's own is kept).
 */
export async function storePlanReliabilitySet(tx: Prisma.TransactionClient, studyId: string, codeChangeIds: readonly string[], seed: number, userId: string | null): Promise<void> {
  const existing = await tx.itemSet.findFirst({ where: { studyId, kind: "RELIABILITY" }, select: { id: true, source: true } });
  if (codeChangeIds.length === 0) {
    if (existing?.source.startsWith(PLAN_SOURCE)) await tx.itemSet.delete({ where: { id: existing.id } });
    return;
  }
  const source = `${PLAN_SOURCE} (seed ${seed})`;
  const set = existing
    ? await tx.itemSet.update({ where: { id: existing.id }, data: { source }, select: { id: true } })
    : await tx.itemSet.create({ data: { studyId, name: PLAN_RELIABILITY_SET, kind: "RELIABILITY", source, createdById: userId }, select: { id: true } });
  await tx.itemSetMember.deleteMany({ where: { itemSetId: set.id } });
  await tx.itemSetMember.createMany({ data: codeChangeIds.map((codeChangeId, position) => ({ itemSetId: set.id, position, codeChangeId })) });
}
