/** Ratings of a study from the database as (item, rater, value) triples, per task and question. */
import { db, Prisma, rawRows, type PrismaClient } from "@/lib/db/client";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { TASKS, taskQuestions } from "@/lib/tasks";
import { keptUnder, type GoldMode } from "@/lib/data/gold";
import type { Rating, RatingValue } from "@/lib/agreement";
import { describeItem, type StudyItem } from "./collect";
import type { Question, StudyScales } from "./questions";
import type { DraftMode } from "./drafts";
import { AppError } from "@/lib/errors";

export type { StudyItem } from "./collect";

export interface StudyForAnalysis extends StudyScales {
  id: string;
  slug: string;
  name: string;
  taskTypes: TaskType[];
}

/** The study by id or slug, with what the analyses need. */
export async function findStudy(where: { id: string } | { slug: string }, client: PrismaClient = db): Promise<StudyForAnalysis> {
  const study = await client.study.findUnique({ where, select: { id: true, slug: true, name: true, taskTypes: true, likertDimensions: true, likertMin: true, likertMax: true } });
  if (!study) throw new AppError("NOT_FOUND", { message: `no study with ${"id" in where ? `id "${where.id}"` : `slug "${where.slug}"`}` });
  return study;
}

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

/** A task's ratings as columns: the rated items in study order and the raters, numbered. */
export interface TaskColumns {
  task: TaskType;
  items: StudyItem[];
  raters: string[];
  questions: QuestionColumns[];
}

interface ColumnsRow {
  ids: string[];
  externalIds: string[];
  positions: number[];
  systems: (string | null)[];
  changeIds: string[];
  changeExternalIds: string[];
  languages: string[];
  gold: boolean[];
  raters: string[] | null;
  item: number[] | null;
  rater: number[] | null;
  draft: boolean[] | null;
  [value: `v${number}`]: number[] | null;
}

/**
 * The statement reading a task's rated items and ratings, numbered, as arrays in one row: items in
 * study order (change position, then item position; ids break ties) with whether they have a
 * gold answer for the task; per rating its item and rater number, whether it is a draft, and
 * per question its scale position plus one (0: off the scale, -1: not answered). As JSON, which
 * JavaScript parses natively: pg's parser of PostgreSQL arrays took about 0.3 s for 100,000 ratings.
 */
function columnsStatement(studyId: string, task: TaskType, questions: readonly Question[]): Prisma.Sql {
  const { answers, itemKind } = TASKS[task];
  const items = itemKind === "review" ? Prisma.sql`"CandidateReview"` : Prisma.sql`"PseudoReference"`;
  const system = itemKind === "review" ? Prisma.sql`i.system` : Prisma.sql`NULL::text`;
  const answered = questions.map((q, k) => Prisma.sql`${answers.code(q)} AS ${Prisma.raw(`w${k}`)}`);
  const codes = questions.map((_, k) => Prisma.sql`json_agg(${Prisma.raw(`w${k}`)} ORDER BY u, "annotatorId") AS ${Prisma.raw(`v${k}`)}`);
  // The answers are read once into narrow rows of codes (MATERIALIZED), so the sorts carry numbers, not the stored JSON.
  // Gold items and drafts are joined, not looked up per row, so PostgreSQL may hash them.
  return Prisma.sql`
    WITH it AS MATERIALIZED (
      SELECT i.id, i."externalId", i.position, ${system} AS system, c.id AS "changeId", c."externalId" AS "changeExternalId", c.language,
        (row_number() OVER (ORDER BY c.position, c.id COLLATE "C", i.position, i.id COLLATE "C") - 1)::int AS u,
        g."itemId" IS NOT NULL AS gold
      FROM ${items} i JOIN "CodeChange" c ON c.id = i."codeChangeId"
        LEFT JOIN (SELECT DISTINCT "itemId" FROM "Consensus" WHERE "studyId" = ${studyId} AND gold AND task = ${task}::"TaskType") g ON g."itemId" = i.id
      WHERE c."studyId" = ${studyId} AND EXISTS (SELECT 1 FROM ${answers.table} a WHERE a.${answers.itemColumn} = i.id)
    ), an AS MATERIALIZED (
      SELECT it.u, a."annotatorId", d."userId" IS NOT NULL AS draft, ${Prisma.join(answered)}
      FROM ${answers.table} a JOIN it ON it.id = a.${answers.itemColumn}
        -- (user, change) is unique per task: the join keeps one row per answer.
        LEFT JOIN (SELECT "userId", "codeChangeId" FROM "Assignment" WHERE "studyId" = ${studyId} AND "taskType" = ${task}::"TaskType" AND status <> 'DONE') d
          ON d."userId" = a."annotatorId" AND d."codeChangeId" = it."changeId"
    ), ra AS (
      SELECT "annotatorId", (row_number() OVER (ORDER BY "annotatorId") - 1)::int AS r FROM (SELECT DISTINCT "annotatorId" FROM an) d
    )
    SELECT * FROM
      (SELECT json_agg(id ORDER BY u) AS ids, json_agg("externalId" ORDER BY u) AS "externalIds", json_agg(position ORDER BY u) AS positions, json_agg(system ORDER BY u) AS systems,
         json_agg("changeId" ORDER BY u) AS "changeIds", json_agg("changeExternalId" ORDER BY u) AS "changeExternalIds", json_agg(language ORDER BY u) AS languages, json_agg(gold ORDER BY u) AS gold
       FROM it) items,
      (SELECT json_agg("annotatorId" ORDER BY r) AS raters FROM ra) raters,
      (SELECT json_agg(u ORDER BY u, "annotatorId") AS item, json_agg(r ORDER BY u, "annotatorId") AS rater, json_agg(draft ORDER BY u, "annotatorId") AS draft, ${Prisma.join(codes)}
       FROM an JOIN ra USING ("annotatorId")) ratings`;
}

/** The entries of question k kept (on the scale, not a draft unless drafts count), with the counts of those left out. */
function questionColumns(question: Question, codes: readonly number[], row: ColumnsRow, drafts: DraftMode): QuestionColumns {
  const n = codes.length;
  const item = new Int32Array(n);
  const rater = new Int32Array(n);
  const value = new Float64Array(n);
  let kept = 0;
  let excluded = 0;
  let draftsLeftOut = 0;
  for (let e = 0; e < n; e++) {
    const code = codes[e];
    if (code < 0) continue;
    if (code === 0) excluded++;
    else if (drafts === "exclude" && (row.draft as boolean[])[e]) draftsLeftOut++;
    else {
      item[kept] = (row.item as number[])[e];
      rater[kept] = (row.rater as number[])[e];
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

/**
 * The ratings of one task of the study as columns, read in one statement straight through pg
 * (no object per rating); items with a known answer for the task (gold, lib/data/gold) are left
 * out unless asked for, and so are drafts (lib/analysis/drafts.ts), each counted per question.
 * `only` reads one question's values (its columns are the same as among all of them).
 */
export async function gatherTaskColumns(study: StudyForAnalysis, task: TaskType, client: PrismaClient = db, gold: GoldMode = "exclude", drafts: DraftMode = "exclude", only?: string): Promise<TaskColumns> {
  const questions = taskQuestions(task, study).filter((q) => only === undefined || q.key === only);
  const [row] = await rawRows<ColumnsRow>(client, columnsStatement(study.id, task, questions));
  const ids = row.ids ?? [];
  const items = ids.map((id, u) =>
    describeItem({ id, order: u, position: row.positions[u], externalId: row.externalIds[u], system: row.systems[u] ?? undefined, changeId: row.changeIds[u], changeExternalId: row.changeExternalIds[u], language: row.languages[u] }),
  );
  const all: TaskColumns = { task, items, raters: row.raters ?? [], questions: questions.map((q, k) => questionColumns(q, row[`v${k}`] ?? [], row, drafts)) };
  const isGold = new Set(ids.filter((_, u) => row.gold[u]));
  return keepItems(all, (item) => keptUnder(gold, isGold.has(item.id)));
}

/**
 * One question's ratings as (item, rater, value) triples by rater, then item id (raters are
 * numbered in annotator id order): the order the per-annotator figures were defined on, which
 * they keep (Dawid-Skene's sums run over items in first-seen order; gold misses are listed in it).
 */
export function ratingsByRater(data: TaskColumns, q: QuestionColumns): Rating[] {
  const entries = Array.from(q.item, (_, e) => e);
  const itemId = (e: number) => data.items[q.item[e]].id;
  entries.sort((a, b) => q.rater[a] - q.rater[b] || (itemId(a) < itemId(b) ? -1 : itemId(a) > itemId(b) ? 1 : 0));
  return entries.map((e) => ({ item: itemId(e), rater: data.raters[q.rater[e]], value: q.question.scale[q.value[e]] }));
}

/** Each item's values of the question (by item number), in the columns' order. */
export function itemValues(data: TaskColumns, q: QuestionColumns): RatingValue[][] {
  const values = data.items.map((): RatingValue[] => []);
  for (let e = 0; e < q.item.length; e++) values[q.item[e]].push(q.question.scale[q.value[e]]);
  return values;
}

/** Display names of annotators (their e-mail when the name is empty): reports and reasons name people, not ids. */
export async function raterNames(ids: readonly string[], client: PrismaClient = db): Promise<Map<string, string>> {
  const users = await client.user.findMany({ where: { id: { in: [...ids] } }, select: { id: true, name: true, email: true } });
  return new Map(users.map((u) => [u.id, u.name || u.email]));
}
