/**
 * A task's ratings as columns, (item, rater, value) per question, from the two rows lib/data
 * reads (lib/data/task-answers.ts): the study's items and each annotator's answers.
 */
import type { TaskType } from "@/lib/generated/prisma/enums";
import { TASKS } from "@/lib/tasks";
import { keptUnder, type GoldMode } from "@/lib/data/gold";
import type { Rating, AnswerValue } from "@/lib/agreement";
import { describeItem, type StudyItem } from "./collect";
import type { Question } from "./questions";
import { referenceLabels } from "@/lib/claims";
import type { DraftMode } from "./drafts";
import { InvariantError } from "@/lib/errors";

export type { StudyItem } from "./collect";

/**
 * One question's ratings as columns: entry e says rater `raters[rater[e]]` gave the value at
 * position `value[e]` of the question's scale to item `items[item[e]]`. Entries are in study
 * order of the items, then by annotator id (the order of the items' ratings everywhere).
 */
export interface QuestionColumns {
  question: Question;
  item: Int32Array;
  rater: Int32Array;
  value: Float64Array;
  /** Stored values off the question's scale, left out. */
  excluded: number;
  /** Ratings of unsubmitted work left out (lib/analysis/drafts.ts). */
  drafts: number;
}

/** What gatherTaskColumns (lib/data/task-answers.ts) reads. */
export interface GatherOptions {
  /** Gold items (known answers): left out by default. */
  gold?: GoldMode;
  /** Ratings of unsubmitted work: left out by default. */
  drafts?: DraftMode;
  /** One question's values only (its columns are the same as among all of them). */
  only?: string;
  /** One statement after the other on one connection, as exports hold one connection at a time. */
  oneConnection?: boolean;
  /**
   * Judge raters (docs/judges.md): "counted" (default) keeps only those of runs that opted in to
   * count with the annotators, as consensus, gold accuracy and adjudication read; "all" keeps every one.
   */
  judges?: "counted" | "all";
}

/** A task's ratings as columns: the rated items in study order and the raters, numbered. */
export interface TaskColumns {
  task: TaskType;
  items: StudyItem[];
  raters: string[];
  questions: QuestionColumns[];
}

/** The study's items of a task's kind in study order, one array per field (lib/data/task-answers.ts reads it). */
export interface ItemsRow {
  ids: string[] | null;
  externalIds: string[];
  /** Pseudo-references only (null for reviews): their kind and the claim they correct. */
  kinds: (string | null)[];
  corrects: (string | null)[];
  systems: (string | null)[];
  codeChangeIds: string[];
  codeChangeExternalIds: string[];
  languages: string[];
  gold: boolean[];
}

/**
 * One annotator's ratings, each list PostgreSQL's text of an int[]: the places of the items
 * rated (their indexes in ItemsRow's arrays), those of drafts, and per question the codes.
 */
export interface RaterRow {
  rater: string;
  items: string;
  drafts: string | null;
  [codes: `v${number}`]: string;
}

/** The numbers of PostgreSQL's text of an int[] ("{1,-1,3}"). */
const intArray = (text: string): number[] => JSON.parse(`[${text.slice(1, -1)}]`) as number[];

/** The `length` numbers of PostgreSQL's text of an int[], from `at` on in `into`. */
function readIntArray(text: string, length: number, into: Int32Array, at: number): void {
  const numbers = intArray(text);
  // Item places and codes are aggregated from the same rows.
  if (numbers.length !== length) throw new InvariantError(`a rater's ${length} items came with ${numbers.length} answers`);
  into.set(numbers, at);
}

/** Question k's codes of all `n` ratings, the raters' rows one after the other (the entries' `source` order). */
function questionCodes(rows: readonly RaterRow[], rated: readonly { items: number[] }[], k: number, n: number): Int32Array {
  const codes = new Int32Array(n);
  let at = 0;
  rows.forEach((row, r) => {
    readIntArray(row[`v${k}`], rated[r].items.length, codes, at);
    at += rated[r].items.length;
  });
  return codes;
}

/** A rater's row as the places of the items rated and of those whose rating is a draft. */
function raterItems(row: RaterRow): { items: number[]; drafts: Set<number> } {
  return { items: intArray(row.items), drafts: new Set(row.drafts === null ? [] : intArray(row.drafts)) };
}

/**
 * The ratings as entries in the columns' order (items in study order, then raters in id
 * order): each entry's item number among the rated items, rater number, draft flag, and its
 * index among the raters' rows' entries (to pick its codes). A counting sort on the item: the
 * rows come in rater order, so each item's entries stay in it.
 */
function orderEntries(itemCount: number, rows: readonly { items: number[]; drafts: Set<number> }[]) {
  const n = rows.reduce((sum, row) => sum + row.items.length, 0);
  const perPosition = new Int32Array(itemCount + 1);
  for (const row of rows) for (const p of row.items) perPosition[p + 1]++;
  // Rated items numbered in study order; perPosition[p] becomes where position p's entries begin.
  const number = new Int32Array(itemCount).fill(-1);
  const rated: number[] = [];
  for (let p = 0; p < itemCount; p++) {
    if (perPosition[p + 1] > 0) number[p] = rated.push(p) - 1;
    perPosition[p + 1] += perPosition[p];
  }
  const item = new Int32Array(n);
  const rater = new Int32Array(n);
  const draft = new Uint8Array(n);
  const source = new Int32Array(n);
  let e = 0;
  rows.forEach((row, r) => {
    // A rater without drafts (most) needs no lookup of each item.
    const hasDrafts = row.drafts.size > 0;
    for (const p of row.items) {
      const at = perPosition[p]++;
      item[at] = number[p];
      rater[at] = r;
      draft[at] = hasDrafts && row.drafts.has(p) ? 1 : 0;
      source[at] = e++;
    }
  });
  return { rated, item, rater, draft, source, n };
}

type Entries = ReturnType<typeof orderEntries>;

/** The entries of question k kept (on the scale, not a draft unless drafts count), with the counts of those left out. */
function questionColumns(question: Question, codes: Int32Array, entries: Entries, drafts: DraftMode): QuestionColumns {
  const n = codes.length;
  const item = new Int32Array(n);
  const rater = new Int32Array(n);
  const value = new Float64Array(n);
  let kept = 0;
  let excluded = 0;
  let draftsLeftOut = 0;
  for (let e = 0; e < n; e++) {
    const code = codes[entries.source[e]];
    if (code < 0) continue;
    if (code === 0) excluded++;
    else if (drafts === "exclude" && entries.draft[e] === 1) draftsLeftOut++;
    else {
      item[kept] = entries.item[e];
      rater[kept] = entries.rater[e];
      value[kept++] = code - 1;
    }
  }
  return { question, item: item.subarray(0, kept), rater: rater.subarray(0, kept), value: value.subarray(0, kept), excluded, drafts: draftsLeftOut };
}

/** The columns of the items `keep` picks, renumbered in the same order (their ratings' entries kept; the counts and the items' study order unchanged). */
export function keepItems(data: TaskColumns, keep: (item: StudyItem) => boolean): TaskColumns {
  const number = new Int32Array(data.items.length).fill(-1);
  const items: StudyItem[] = [];
  data.items.forEach((item, u) => {
    if (keep(item)) number[u] = items.push(item) - 1;
  });
  if (items.length === data.items.length) return data;
  const questions = data.questions.map((q) => {
    const kept = [];
    for (let e = 0; e < q.item.length; e++) if (number[q.item[e]] >= 0) kept.push(e);
    return { ...q, item: Int32Array.from(kept, (e) => number[q.item[e]]), rater: Int32Array.from(kept, (e) => q.rater[e]), value: Float64Array.from(kept, (e) => q.value[e]) };
  });
  return { ...data, items, questions };
}

/** The names of the study's pseudo-references (lib/claims/numbering), change by change: the items come in change order. */
function claimLabelsOf(ids: readonly string[], row: ItemsRow): string[] {
  const labels: string[] = [];
  for (let start = 0; start < ids.length; ) {
    let end = start;
    while (end < ids.length && row.codeChangeIds[end] === row.codeChangeIds[start]) end++;
    const change = [];
    for (let p = start; p < end; p++) change.push({ id: ids[p], kind: row.kinds[p] ?? "", correctsId: row.corrects[p] });
    labels.push(...referenceLabels(change));
    start = end;
  }
  return labels;
}

/**
 * The ratings of one task as columns from the rows read (no object per rating): items with a
 * known answer for the task (gold, lib/data/gold) are left out unless asked for, and so are
 * drafts (lib/analysis/drafts.ts), each counted per question.
 */
export function taskColumns(task: TaskType, questions: readonly Question[], row: ItemsRow, rows: readonly RaterRow[], options: Pick<GatherOptions, "gold" | "drafts"> = {}): TaskColumns {
  const { gold = "exclude", drafts = "exclude" } = options;
  const ids = row.ids ?? [];
  const rated = rows.map(raterItems);
  const entries = orderEntries(ids.length, rated);
  const claimLabels = TASKS[task].itemKind === "pseudoReference" ? claimLabelsOf(ids, row) : null;
  const items = entries.rated.map((p, u) =>
    describeItem({ id: ids[p], order: u, claimLabel: claimLabels?.[p], externalId: row.externalIds[p], system: row.systems[p] ?? undefined, codeChangeId: row.codeChangeIds[p], codeChangeExternalId: row.codeChangeExternalIds[p], language: row.languages[p] }),
  );
  const all: TaskColumns = { task, items, raters: rows.map((r) => r.rater), questions: questions.map((q, k) => questionColumns(q, questionCodes(rows, rated, k, entries.n), entries, drafts)) };
  const isGold = new Set(entries.rated.filter((p) => row.gold[p]).map((p) => ids[p]));
  return keepItems(all, (item) => keptUnder(gold, isGold.has(item.id)));
}

/**
 * One question's ratings as (item, rater, value) triples by rater, then item id (raters are
 * numbered in annotator id order): the order the per-annotator figures were defined on, which
 * they keep (Dawid-Skene's sums run over items in first-seen order; gold misses are listed in it).
 */
export function answersByRater(data: TaskColumns, q: QuestionColumns): Rating[] {
  const entries = Array.from(q.item, (_, e) => e);
  const itemId = (e: number) => data.items[q.item[e]].id;
  entries.sort((a, b) => q.rater[a] - q.rater[b] || (itemId(a) < itemId(b) ? -1 : itemId(a) > itemId(b) ? 1 : 0));
  return entries.map((e) => ({ item: itemId(e), rater: data.raters[q.rater[e]], value: q.question.scale[q.value[e]] }));
}

/** Each item's values of the question (by item number), in the columns' order. */
export function itemValues(data: TaskColumns, q: QuestionColumns): AnswerValue[][] {
  const values = data.items.map((): AnswerValue[] => []);
  for (let e = 0; e < q.item.length; e++) values[q.item[e]].push(q.question.scale[q.value[e]]);
  return values;
}
