/** Rated items as the analyses describe them (lib/data/task-answers.ts reads them). */

/** A rated item: a claim (stage 1) or a candidate review (the other tasks). */
export interface StudyItem {
  id: string;
  /** Index in study order (code change position, then item position). */
  order: number;
  codeChangeId: string;
  codeChangeExternalId: string;
  language: string;
  /** Generating system of a review; null for claims. */
  system: string | null;
  /** External id of the review (for CRScore sheets the system name) or claim within its change; item sets name single items by it. */
  itemExternalId: string | null;
  /** Short description for lists, e.g. "change-12 · claim 3" or "change-12 · gpt3.5_pred". */
  label: string;
}

/** An item's fields as the analyses' statement reads them (lib/data/task-answers.ts). */
export interface ItemFields {
  id: string;
  order: number;
  /** Claims only: its name within the change (lib/claims/numbering). */
  claimLabel?: string;
  /** Reviews only. */
  system?: string;
  externalId?: string;
  codeChangeId: string;
  codeChangeExternalId: string;
  language: string;
}

/** The StudyItem of an item (its label names a review by its system, a claim by its number). */
export function describeItem(f: ItemFields): StudyItem {
  // One object literal: spreading a shared base made each item about ten times slower (0.7 s of node CPU per 100,000-review export).
  const claim = f.system === undefined;
  return {
    id: f.id,
    order: f.order,
    codeChangeId: f.codeChangeId,
    codeChangeExternalId: f.codeChangeExternalId,
    language: f.language,
    system: f.system ?? null,
    itemExternalId: f.externalId ?? null,
    label: `${f.codeChangeExternalId} · ${claim ? f.claimLabel : f.system}`,
  };
}
