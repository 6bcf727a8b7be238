/**
 * Item sets of a study: named sets of its items that reports can be restricted to and
 * later work (calibration rounds, held-out sets) can refer to. Members are whole code changes or
 * single reviews or claims, named by external ids (`CODE_CHANGE_ID`, `CODE_CHANGE_ID/REVIEW_ID`,
 * `CODE_CHANGE_ID/CLAIM_ID`; lib/analysis/item-sets.ts). The reliability set is the one the study's
 * assignment plan says (stored when the plan is made), or one a lead gives; a study has at most one.
 * Every function finds the study through leadStudyWhere: another lead's study answers 404.
 */
import "server-only";
import { z } from "zod";
import { slugField } from "@/lib/validation/study-fields";
import { db, type Prisma } from "@/lib/db/client";
import { type ItemSetFilter, parseItemIds, resolveItemIds } from "@/lib/analysis/item-sets";
import { COMMAND_LINE, requireLedStudy } from "@/lib/data/study-access";
import { ItemSetKind } from "@/lib/generated/prisma/enums";
import { AppError } from "@/lib/errors";
import type { SessionAccount } from "@/lib/auth/authenticate";

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
  review: { select: { externalId: true } },
  pseudoReference: { select: { externalId: true } },
} as const satisfies Prisma.ItemSetMemberSelect;

type MemberRow = Prisma.ItemSetMemberGetPayload<{ select: typeof memberSelect }>;

/** A member's external id, as item files write it. */
const memberId = (m: MemberRow) => {
  const item = m.review?.externalId ?? m.pseudoReference?.externalId;
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
export async function listItemSets(account: Pick<SessionAccount, "id" | "role">, slug: string): Promise<{ study: { id: string; slug: string; name: string }; sets: ItemSetSummary[] }> {
  const study = await requireLedStudy(account, slug);
  const sets = await db.itemSet.findMany({ where: { studyId: study.id }, select: summarySelect, orderBy: { name: "asc" } });
  const order = (s: ItemSetSummary) => (s.kind === "RELIABILITY" ? 0 : 1);
  return { study: { id: study.id, slug: study.slug, name: study.name }, sets: sets.map(summary).sort((a, b) => order(a) - order(b)) };
}

/** One set with its members' external ids in order. */
export async function readItemSet(account: Pick<SessionAccount, "id" | "role">, slug: string, name: string): Promise<ItemSetSummary & { ids: string[] }> {
  const study = await requireLedStudy(account, slug);
  const set = await db.itemSet.findUnique({ where: { studyId_name: { studyId: study.id, name } }, select: { ...summarySelect, members: { select: memberSelect, orderBy: { position: "asc" } } } });
  if (!set) throw new AppError("NOT_FOUND", { message: `Study ${study.slug} has no item set "${name}".` });
  return { ...summary(set), ids: set.members.map(memberId) };
}

/** A stored set as reports take it. */
export async function itemSetFilter(account: Pick<SessionAccount, "id" | "role">, slug: string, name: string): Promise<ItemSetFilter> {
  const set = await readItemSet(account, slug, name);
  return { name: set.name, kind: ITEM_SET_KIND_LABEL[set.kind], ids: set.ids };
}

/** The study's reliability set as reports take it; undefined when it has none. */
export async function reliabilitySetFilter(account: Pick<SessionAccount, "id" | "role">, slug: string): Promise<ItemSetFilter | undefined> {
  const study = await requireLedStudy(account, slug);
  const set = await db.itemSet.findFirst({ where: { studyId: study.id, kind: "RELIABILITY" }, select: { name: true } });
  return set ? itemSetFilter(account, slug, set.name) : undefined;
}

/** The item sets a report of this study uses: the one asked for (by name), and the study's reliability set. */
export async function reportItemSets(account: Pick<SessionAccount, "id" | "role">, slug: string, name?: string): Promise<{ items?: ItemSetFilter; reliabilitySet?: ItemSetFilter }> {
  const [items, reliabilitySet] = await Promise.all([name ? itemSetFilter(account, slug, name) : undefined, reliabilitySetFilter(account, slug)]);
  return { ...(items ? { items } : {}), ...(reliabilitySet ? { reliabilitySet } : {}) };
}

/** What every new set is given, wherever its members come from. */
const newSetFields = {
  slug: slugField,
  name: z.string().trim().min(1, "Give the set a name.").max(100),
  kind: z.enum(Object.values(ItemSetKind) as [ItemSetKind, ...ItemSetKind[]]),
  description: z.string().trim().max(2000).default(""),
};

export const createItemSetSchema = z.object({
  ...newSetFields,
  /** The file's name, kept as the set's source. */
  fileName: z.string().trim().min(1).max(200),
  /** The file's text: one external id per line. */
  text: z.string().max(5_000_000),
});

type Member = Omit<Prisma.ItemSetMemberCreateManyInput, "itemSetId" | "position">;

/** Stores a new set with these members in order; a second reliability set or a taken name is a conflict. */
async function storeItemSet(account: Pick<SessionAccount, "id" | "role">, study: { id: string; slug: string }, set: { name: string; kind: ItemSetKind; description: string; source: string }, members: readonly Member[]): Promise<ItemSetSummary> {
  const id = await db.$transaction(async (tx) => {
    if (await tx.itemSet.findUnique({ where: { studyId_name: { studyId: study.id, name: set.name } }, select: { id: true } })) {
      throw new AppError("CONFLICT", { message: `Study ${study.slug} already has an item set "${set.name}".` });
    }
    if (set.kind === "RELIABILITY") {
      const existing = await tx.itemSet.findFirst({ where: { studyId: study.id, kind: "RELIABILITY" }, select: { name: true } });
      if (existing) throw new AppError("CONFLICT", { message: `Study ${study.slug} already has a reliability set ("${existing.name}"); delete it first.` });
    }
    const created = await tx.itemSet.create({ data: { studyId: study.id, ...set, createdById: account.id === COMMAND_LINE.id ? null : account.id }, select: { id: true } });
    await tx.itemSetMember.createMany({ data: members.map((m, position) => ({ itemSetId: created.id, position, ...m })) });
    return created.id;
  });
  return summary(await db.itemSet.findUniqueOrThrow({ where: { id }, select: summarySelect }));
}

/**
 * Stores a set from a file of external ids. Every id must name an item of the study (the unknown
 * ones are listed and nothing is stored); a second reliability set or a taken name is a conflict.
 */
export async function createItemSet(account: Pick<SessionAccount, "id" | "role">, input: z.input<typeof createItemSetSchema>): Promise<ItemSetSummary> {
  const parsed = createItemSetSchema.parse(input);
  const study = await requireLedStudy(account, parsed.slug);
  const ids = parseItemIds(parsed.fileName, parsed.text);
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
    throw new AppError("INVALID_INPUT", { message: `${unknown.length} of ${ids.length} ids in ${parsed.fileName} name no item of study ${study.slug}: ${shown}${unknown.length > 20 ? ", …" : ""} (one CODE_CHANGE_ID, CODE_CHANGE_ID/REVIEW_ID or CODE_CHANGE_ID/CLAIM_ID per line)` });
  }
  return storeItemSet(account, study, { name: parsed.name, kind: parsed.kind, description: parsed.description, source: parsed.fileName }, members);
}

// ---------------------------------------------------------------------------------------------
// Sets picked from the study's table of code changes, reviews or claims

/** The tables a set's members can be picked from, and what their rows are called. */
export const MEMBER_TABLES = { codeChange: "code changes", review: "reviews", claim: "claims" } as const;
export type MemberTable = keyof typeof MEMBER_TABLES;

export const memberTableFilterSchema = z.object({
  table: z.enum(Object.keys(MEMBER_TABLES) as [MemberTable, ...MemberTable[]]).default("codeChange"),
  /** The code change's language; "" for any. */
  language: z.string().trim().max(100).default(""),
  /** The review's system or the claim's source (model or analyzer); "" for any. Code changes have none. */
  system: z.string().trim().max(200).default(""),
  /** Words in the external id, file path, pull request title (code changes) or text (reviews, claims); "" for any. */
  text: z.string().trim().max(200).default(""),
});
export type MemberTableFilter = z.infer<typeof memberTableFilterSchema>;

export interface MemberTableRow {
  /** The row's own id (a code change's, review's or claim's). */
  id: string;
  /** Its external id as item files write it: CODE_CHANGE_ID, CODE_CHANGE_ID/REVIEW_ID or CODE_CHANGE_ID/CLAIM_ID. */
  externalId: string;
  language: string;
  /** The review's system or the claim's source; "" for a code change. */
  system: string;
  /** The review's or claim's text; a code change's file path and pull request title. */
  text: string;
}

const contains = (text: string) => ({ contains: text, mode: "insensitive" as const });

/** The rows of one table of the study that the filter keeps, in study order, with their member rows; `take` rows at most. */
async function tableRows(studyId: string, filter: MemberTableFilter, take?: number): Promise<{ rows: (MemberTableRow & { member: Member })[]; total: number }> {
  const ofCodeChange: Prisma.CodeChangeWhereInput = { studyId, ...(filter.language ? { language: filter.language } : {}) };
  const codeChangeSelect = { id: true, externalId: true, language: true } as const;
  if (filter.table === "codeChange") {
    const where: Prisma.CodeChangeWhereInput = { ...ofCodeChange, ...(filter.text ? { OR: [{ externalId: contains(filter.text) }, { filePath: contains(filter.text) }, { pullRequest: { title: contains(filter.text) } }] } : {}) };
    const [rows, total] = await Promise.all([db.codeChange.findMany({ where, orderBy: [{ position: "asc" }, { externalId: "asc" }], take, select: { ...codeChangeSelect, filePath: true, pullRequest: { select: { title: true } } } }), db.codeChange.count({ where })]);
    return { total, rows: rows.map((c) => ({ id: c.id, externalId: c.externalId, language: c.language, system: "", text: [c.filePath, c.pullRequest?.title].filter(Boolean).join(" · "), member: { codeChangeId: c.id } })) };
  }
  if (filter.table === "review") {
    const where: Prisma.ReviewWhereInput = { codeChange: ofCodeChange, ...(filter.system ? { system: filter.system } : {}), ...(filter.text ? { OR: [{ text: contains(filter.text) }, { externalId: contains(filter.text) }, { codeChange: { externalId: contains(filter.text) } }] } : {}) };
    const [rows, total] = await Promise.all([
      db.review.findMany({ where, orderBy: [{ codeChange: { position: "asc" } }, { codeChange: { externalId: "asc" } }, { position: "asc" }, { externalId: "asc" }], take, select: { id: true, externalId: true, system: true, text: true, codeChange: { select: codeChangeSelect } } }),
      db.review.count({ where }),
    ]);
    return { total, rows: rows.map((r) => ({ id: r.id, externalId: `${r.codeChange.externalId}/${r.externalId}`, language: r.codeChange.language, system: r.system, text: r.text, member: { codeChangeId: r.codeChange.id, reviewId: r.id } })) };
  }
  const where: Prisma.PseudoReferenceWhereInput = { codeChange: ofCodeChange, ...(filter.system ? { source: filter.system } : {}), ...(filter.text ? { OR: [{ text: contains(filter.text) }, { externalId: contains(filter.text) }, { codeChange: { externalId: contains(filter.text) } }] } : {}) };
  const [rows, total] = await Promise.all([
    db.pseudoReference.findMany({ where, orderBy: [{ codeChange: { position: "asc" } }, { codeChange: { externalId: "asc" } }, { position: "asc" }, { id: "asc" }], take, select: { id: true, externalId: true, source: true, text: true, codeChange: { select: codeChangeSelect } } }),
    db.pseudoReference.count({ where }),
  ]);
  return { total, rows: rows.map((r) => ({ id: r.id, externalId: `${r.codeChange.externalId}/${r.externalId}`, language: r.codeChange.language, system: r.source, text: r.text, member: { codeChangeId: r.codeChange.id, pseudoReferenceId: r.id } })) };
}

/** Rows the item sets page shows at most; a set can still take every matching row. */
export const MEMBER_TABLE_SHOWN = 500;

/** One table of the study's items as the filter keeps it, with the languages and systems (or sources) to filter by. */
export async function memberTable(account: Pick<SessionAccount, "id" | "role">, slug: string, input: { table?: string; language?: string; system?: string; text?: string }) {
  const study = await requireLedStudy(account, slug);
  const filter = memberTableFilterSchema.parse(input);
  const distinct = <T>(rows: T[], key: (row: T) => string) => [...new Set(rows.map(key))].sort();
  const ofStudy = { codeChange: { studyId: study.id } };
  const [{ rows, total }, languages, systems] = await Promise.all([
    tableRows(study.id, filter, MEMBER_TABLE_SHOWN),
    db.codeChange.findMany({ where: { studyId: study.id }, distinct: ["language"], select: { language: true } }).then((r) => distinct(r, (x) => x.language)),
    filter.table === "review"
      ? db.review.findMany({ where: ofStudy, distinct: ["system"], select: { system: true } }).then((r) => distinct(r, (x) => x.system))
      : filter.table === "claim"
        ? db.pseudoReference.findMany({ where: ofStudy, distinct: ["source"], select: { source: true } }).then((r) => distinct(r, (x) => x.source))
        : [],
  ]);
  return { filter, rows: rows.map(({ member: _member, ...row }) => row), total, languages, systems };
}

export const pickItemSetSchema = z.object({
  ...newSetFields,
  filter: memberTableFilterSchema,
  /** The rows chosen (ids of the filter's table), in any order; null for every row the filter keeps. */
  ids: z.array(z.string().min(1).max(100)).min(1, "Select at least one row.").max(200_000).nullable(),
});

/**
 * Stores a set of rows picked from one table of the study: the chosen ones, or all the filter
 * keeps, in study order. A chosen id the filter does not keep (another study's, or a row the
 * filter left out meanwhile) is refused and nothing is stored.
 */
export async function createItemSetFromTable(account: Pick<SessionAccount, "id" | "role">, input: z.input<typeof pickItemSetSchema>): Promise<ItemSetSummary> {
  const parsed = pickItemSetSchema.parse(input);
  const study = await requireLedStudy(account, parsed.slug);
  const { rows } = await tableRows(study.id, parsed.filter);
  const chosen = parsed.ids === null ? null : new Set(parsed.ids);
  const picked = chosen === null ? rows : rows.filter((r) => chosen.has(r.id));
  if (chosen !== null && picked.length < chosen.size) throw new AppError("INVALID_INPUT", { message: `${chosen.size - picked.length} of the ${chosen.size} selected rows are not among the study's ${MEMBER_TABLES[parsed.filter.table]} the filter keeps; filter again and select.` });
  if (picked.length === 0) throw new AppError("INVALID_INPUT", { message: `The filter keeps no ${MEMBER_TABLES[parsed.filter.table]} of study ${study.slug}.` });
  return storeItemSet(account, study, { name: parsed.name, kind: parsed.kind, description: parsed.description, source: tableSource(parsed.filter, chosen === null ? null : picked.length) }, picked.map((r) => r.member));
}

/** The source a picked set records: the table, the filter and how many rows were chosen. */
export function tableSource(filter: MemberTableFilter, chosen: number | null): string {
  const kept = [filter.language && `language ${filter.language}`, filter.system && `${filter.table === "claim" ? "source" : "system"} ${filter.system}`, filter.text && `text “${filter.text}”`].filter(Boolean);
  return `table of ${MEMBER_TABLES[filter.table]}${kept.length ? ` (${kept.join(", ")})` : ""}: ${chosen === null ? "every row the filter keeps" : `${chosen} selected`}`;
}

export const deleteItemSetSchema = z.object({ slug: slugField, name: z.string().min(1) });

export async function deleteItemSet(account: Pick<SessionAccount, "id" | "role">, input: z.input<typeof deleteItemSetSchema>): Promise<{ deleted: string }> {
  const { slug, name } = deleteItemSetSchema.parse(input);
  const study = await requireLedStudy(account, slug);
  const { count } = await db.itemSet.deleteMany({ where: { studyId: study.id, name } });
  if (count === 0) throw new AppError("NOT_FOUND", { message: `Study ${study.slug} has no item set "${name}".` });
  return { deleted: name };
}

/**
 * Stores the reliability set an assignment plan made (its code changes, in plan order), inside
 * the plan's transaction: the study's reliability set gets these members, whatever its name; a
 * plan without one removes a reliability set an earlier plan stored (a lead's own is kept).
 */
export async function storePlanReliabilitySet(tx: Prisma.TransactionClient, studyId: string, codeChangeIds: readonly string[], seed: number, accountId: string | null): Promise<void> {
  const existing = await tx.itemSet.findFirst({ where: { studyId, kind: "RELIABILITY" }, select: { id: true, source: true } });
  if (codeChangeIds.length === 0) {
    if (existing?.source.startsWith(PLAN_SOURCE)) await tx.itemSet.delete({ where: { id: existing.id } });
    return;
  }
  const source = `${PLAN_SOURCE} (seed ${seed})`;
  const set = existing
    ? await tx.itemSet.update({ where: { id: existing.id }, data: { source }, select: { id: true } })
    : await tx.itemSet.create({ data: { studyId, name: PLAN_RELIABILITY_SET, kind: "RELIABILITY", source, createdById: accountId }, select: { id: true } });
  await tx.itemSetMember.deleteMany({ where: { itemSetId: set.id } });
  await tx.itemSetMember.createMany({ data: codeChangeIds.map((codeChangeId, position) => ({ itemSetId: set.id, position, codeChangeId })) });
}
