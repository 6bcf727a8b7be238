/** Rated items and per-question ratings as the agreement analyses take them, and how task descriptors build them. */
import type { Rating, RatingValue } from "@/lib/agreement";
import type { Question } from "./questions";

/** A rated item: a claim (stage 1) or a candidate review (the other tasks). */
export interface StudyItem {
  id: string;
  /** Index in study order (code change position, then item position). */
  order: number;
  codeChangeId: string;
  changeExternalId: string;
  language: string;
  /** Generating system of a review; null for claims. */
  system: string | null;
  /** External id of the review (for CRScore sheets the system name) or claim within its change; item sets name single items by it. */
  itemExternalId: string | null;
  /** Short description for lists, e.g. "change-12 · claim 3" or "change-12 · gpt3.5_pred". */
  label: string;
}

export interface QuestionRatings {
  question: Question;
  /** item = StudyItem.id, rater = annotator (user) id. */
  ratings: Rating[];
  /** Stored values off the question's scale (e.g. a Likert 6), left out. */
  excluded: number;
  /** Ratings of unsubmitted work (drafts) left out (lib/analysis/drafts.ts); absent when none were. */
  drafts?: number;
}

export interface ItemRow {
  id: string;
  position: number;
  /** Reviews only. */
  system?: string;
  /** The review's or claim's external id. */
  externalId?: string;
  codeChange: { id: string; externalId: string; language: string; position: number };
}

/** An item's fields as the analyses' statement reads them (lib/analysis/gather.ts). */
export interface ItemFields {
  id: string;
  order: number;
  position: number;
  /** Reviews only. */
  system?: string;
  externalId?: string;
  changeId: string;
  changeExternalId: string;
  language: string;
}

/** The StudyItem of an item (its label names a review by its system, a claim by its position). */
export function describeItem(f: ItemFields): StudyItem {
  const base = { id: f.id, order: f.order, codeChangeId: f.changeId, changeExternalId: f.changeExternalId, language: f.language };
  return f.system === undefined
    ? { ...base, system: null, itemExternalId: f.externalId ?? null, label: `${f.changeExternalId} · claim ${f.position + 1}` }
    : { ...base, system: f.system, itemExternalId: f.externalId ?? null, label: `${f.changeExternalId} · ${f.system}` };
}

/** Items in study order: by change position (then id), then item position (then id). */
export function indexItems(rows: readonly ItemRow[]): Map<string, StudyItem> {
  const sorted = [...rows].sort(
    (a, b) => a.codeChange.position - b.codeChange.position || a.codeChange.id.localeCompare(b.codeChange.id) || a.position - b.position || a.id.localeCompare(b.id),
  );
  return new Map(
    sorted.map((row, order) => [
      row.id,
      describeItem({ id: row.id, order, position: row.position, system: row.system, externalId: row.externalId, changeId: row.codeChange.id, changeExternalId: row.codeChange.externalId, language: row.codeChange.language }),
    ]),
  );
}

export const changeSelect = { select: { id: true, externalId: true, language: true, position: true } } as const;
export const reviewItemSelect = { id: true, externalId: true, position: true, system: true, codeChange: changeSelect } as const;

/** Collects one question's triples, leaving out values off the scale. */
export function collect<T>(question: Question, rows: readonly T[], item: (row: T) => string, rater: (row: T) => string, value: (row: T) => RatingValue | null): QuestionRatings {
  const onScale = new Set(question.scale);
  const ratings: Rating[] = [];
  let excluded = 0;
  for (const row of rows) {
    const v = value(row);
    if (v === null) continue;
    if (onScale.has(v)) ratings.push({ item: item(row), rater: rater(row), value: v });
    else excluded++;
  }
  return { question, ratings, excluded };
}
