/**
 * Item sets as the reports take them: a named list of external ids, `CODE_CHANGE_ID` (every
 * item of the change), `CODE_CHANGE_ID/REVIEW_ID` (one review; for CRScore sheets the system name) or
 * `CODE_CHANGE_ID/CLAIM_ID` (one claim). Stored sets (lib/data/item-sets.ts) and `--items FILE` both
 * become an ItemSetFilter; every report states the set, its kind and size, and the ids that match nothing.
 */
import { keepItems, type StudyItem, type TaskColumns } from "./gather";
import { AppError } from "@/lib/errors";

/** A named set of items given by external ids. */
export interface ItemSetFilter {
  name: string;
  /** "file" for `--items FILE`; a stored set's kind otherwise (reliability, calibration, held-out, custom). */
  kind: string;
  ids: string[];
}

/** What a report says about the items it counts. */
export interface ItemSetStatement {
  name: string;
  kind: string | null;
  /** Ids in the set; null for all items of the study. */
  size: number | null;
  unmatched: string[];
}

export const ALL_ITEMS: ItemSetStatement = { name: "all items of the study", kind: null, size: null, unmatched: [] };

/** The statement of a report restricted to `set` (all items without one); `matched` are the ids that named an item. */
export function itemSetStatement(set: ItemSetFilter | undefined, matched: ReadonlySet<string>): ItemSetStatement {
  return set ? { name: set.name, kind: set.kind, size: set.ids.length, unmatched: set.ids.filter((id) => !matched.has(id)) } : ALL_ITEMS;
}

/** The keys under which an item set names an item: its change, and change/item (a review's or claim's external id). */
export function itemSetKeys(item: StudyItem): string[] {
  return item.itemExternalId === null ? [item.codeChangeExternalId] : [item.codeChangeExternalId, `${item.codeChangeExternalId}/${item.itemExternalId}`];
}

/** Whether the set names the item; the ids that do are added to `matched`. */
export function inItemSet(item: StudyItem, wanted: ReadonlySet<string>, matched: Set<string>): boolean {
  const keys = itemSetKeys(item).filter((k) => wanted.has(k));
  keys.forEach((k) => matched.add(k));
  return keys.length > 0;
}

/** The task's items and ratings restricted to an item set; the set's ids that match are added to `matched`. */
export function restrictToItemSet(data: TaskColumns, set: ItemSetFilter | undefined, matched: Set<string>): TaskColumns {
  if (!set) return data;
  const wanted = new Set(set.ids);
  return keepItems(data, (item) => inItemSet(item, wanted, matched));
}

/**
 * The ids of an item file: one external id per line (`CODE_CHANGE_ID`, `CODE_CHANGE_ID/REVIEW_ID` or
 * `CODE_CHANGE_ID/CLAIM_ID`); blank lines and lines starting with # are ignored, as are a byte-order
 * mark, CR and surrounding spaces; repeated ids count once.
 */
export function parseItemIds(name: string, text: string): string[] {
  const ids = text
    .replace(/^\ufeff/, "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
  if (ids.length === 0) throw new AppError("INVALID_INPUT", { message: `item file ${name} lists no item (one CODE_CHANGE_ID or CODE_CHANGE_ID/REVIEW_ID per line)` });
  return [...new Set(ids)];
}

/** `--items FILE` as a filter. */
export function parseItemFile(name: string, text: string): ItemSetFilter {
  return { name, kind: "file", ids: parseItemIds(name, text) };
}

/** A change of a study with its reviews and claims, by external id (to resolve a set's ids). */
export interface ResolvableChange {
  id: string;
  externalId: string;
  reviews: { id: string; externalId: string }[];
  claims: { id: string; externalId: string }[];
}

export interface ResolvedMember {
  codeChangeId: string;
  reviewId: string | null;
  pseudoReferenceId: string | null;
}

/**
 * The members an id list names in a study, in list order, and the ids that name nothing. An id is
 * a change's external id, else CODE_CHANGE_ID/ITEM_ID split at its last "/" (a review first, then a claim).
 */
export function resolveItemIds(ids: readonly string[], changes: readonly ResolvableChange[]): { members: ResolvedMember[]; unknown: string[] } {
  const byExternalId = new Map(changes.map((c) => [c.externalId, c]));
  const members: ResolvedMember[] = [];
  const unknown: string[] = [];
  for (const id of ids) {
    const change = byExternalId.get(id);
    if (change) {
      members.push({ codeChangeId: change.id, reviewId: null, pseudoReferenceId: null });
      continue;
    }
    const slash = id.lastIndexOf("/");
    const parent = slash > 0 ? byExternalId.get(id.slice(0, slash)) : undefined;
    const itemId = id.slice(slash + 1);
    const review = parent?.reviews.find((r) => r.externalId === itemId);
    const claim = review ? undefined : parent?.claims.find((c) => c.externalId === itemId);
    if (parent && (review || claim)) members.push({ codeChangeId: parent.id, reviewId: review?.id ?? null, pseudoReferenceId: claim?.id ?? null });
    else unknown.push(id);
  }
  return { members, unknown };
}
