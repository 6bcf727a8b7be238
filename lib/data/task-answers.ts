/**
 * A task's answers as the analyses read them: the study's items and each annotator's answers,
 * read straight through pg (no object per answer), made into columns by lib/analysis/gather.ts.
 */
import "server-only";
import { db, Prisma, rawRows, type PrismaClient } from "@/lib/db/client";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { TASKS, taskQuestions } from "@/lib/tasks";
import { annotationTables, answerCode } from "@/lib/data/answer-code";
import { itemOfAssignmentSql } from "@/lib/tasks/types";
import type { StudyForAnalysis } from "@/lib/data/studies";
import { type GatherOptions, type ItemsRow, type RaterRow, taskColumns, type TaskColumns } from "@/lib/analysis/gather";
import { humanQuestion, humanScoresOf, type HumanScores } from "@/lib/analysis/human-scores";
import type { Question } from "@/lib/analysis/questions";
import type { DraftMode } from "@/lib/analysis/drafts";
import { countedRaterSql } from "@/lib/data/judge-runs";
import { qualifiedRaterSql } from "@/lib/data/study-access";
import { HUMAN_SYSTEM } from "@/lib/analysis/comment-systems";

/** The table of the task's items: reviews or pseudo-references. */
const itemTable = (task: TaskType): Prisma.Sql => annotationTables(TASKS[task]).items;

/**
 * The matching question's items besides the review comments: every (system comment, human
 * comment) pair of a pull request, its id `pairItemId` and its external id the two comments'
 * joined the same way, in its system comment's place (lib/tasks/comment-questions.ts).
 */
const COMMENTS_AND_PAIRS = Prisma.sql`(
  SELECT id, "externalId", system, "codeChangeId", position FROM "ReviewComment"
  UNION ALL
  SELECT t.id || ':' || h.id, t."externalId" || ':' || h."externalId", t.system, t."codeChangeId", t.position
  FROM "ReviewComment" t JOIN "ReviewComment" h ON h."pullRequestId" = t."pullRequestId" AND h.system = ${HUMAN_SYSTEM} AND t.system <> ${HUMAN_SYSTEM})`;

/**
 * The comment answers as rows of items: each annotation as its comment's row, and its matching
 * answer's degrees as rows of their pairs ("degree" the degree, "answers" null), so that the
 * matching question is read per pair and every other question per comment.
 */
const answersAndDegrees = (key: string) => Prisma.sql`(
  SELECT "annotatorId", "reviewCommentId", "reviewCommentId" AS "itemId", answers, NULL::text AS degree FROM "CommentAnswers"
  UNION ALL
  SELECT a."annotatorId", a."reviewCommentId", a."reviewCommentId" || ':' || m.key, NULL::jsonb, m.value
  FROM "CommentAnswers" a CROSS JOIN LATERAL jsonb_each_text(CASE WHEN jsonb_typeof(a.answers -> ${key}) = 'object' THEN a.answers -> ${key} ELSE '{}'::jsonb END) m
    JOIN "ReviewComment" h ON h.id = m.key AND h.system = ${HUMAN_SYSTEM})`;

/** The matching question among a task's questions, if it is asked. */
const pairQuestion = (questions: readonly Question[]) => questions.find((q) => q.pairs);

/** Study order of items `i` of changes `c`: change position, then item position; ids break ties. */
const STUDY_ORDER = Prisma.sql`ORDER BY c.position, c.id COLLATE "C", i.position, i.id COLLATE "C"`;

/** The items of `source` in the study, each with its place in study order (0-based: its index in the items statement's arrays). */
const numberedItems = (source: Prisma.Sql, studyId: string) => Prisma.sql`(
  SELECT i.id, i."codeChangeId", (row_number() OVER (${STUDY_ORDER}) - 1)::int AS place
  FROM ${source} i JOIN "CodeChange" c ON c.id = i."codeChangeId" WHERE c."studyId" = ${studyId})`;

/**
 * The statement reading the study's items of the task's kind in study order with whether they
 * have a gold answer for the task, as JSON arrays in one row, which JavaScript parses natively.
 */
function itemsStatement(studyId: string, task: TaskType, pairs: boolean): Prisma.Sql {
  const claims = TASKS[task].itemKind === "pseudoReference";
  const system = claims ? Prisma.sql`NULL::text` : Prisma.sql`i.system`;
  const kind = claims ? Prisma.sql`i.kind::text` : Prisma.sql`NULL::text`;
  const corrects = claims ? Prisma.sql`i."correctsId"` : Prisma.sql`NULL::text`;
  return Prisma.sql`
    SELECT json_agg(i.id ${STUDY_ORDER}) AS ids, json_agg(i."externalId" ${STUDY_ORDER}) AS "externalIds", json_agg(${kind} ${STUDY_ORDER}) AS kinds, json_agg(${corrects} ${STUDY_ORDER}) AS corrects,
      json_agg(${system} ${STUDY_ORDER}) AS systems, json_agg(c.id ${STUDY_ORDER}) AS "codeChangeIds", json_agg(c."externalId" ${STUDY_ORDER}) AS "codeChangeExternalIds",
      json_agg(c.language ${STUDY_ORDER}) AS languages, json_agg(g."itemId" IS NOT NULL ${STUDY_ORDER}) AS gold
    FROM ${pairs ? COMMENTS_AND_PAIRS : itemTable(task)} i JOIN "CodeChange" c ON c.id = i."codeChangeId"
      LEFT JOIN (SELECT DISTINCT "itemId" FROM "Consensus" WHERE "studyId" = ${studyId} AND gold AND task = ${task}::"TaskType") g ON g."itemId" = i.id
    WHERE c."studyId" = ${studyId}`;
}

/**
 * The statement reading the task's ratings of the study's items, one row per annotator in id
 * order: the places of the items rated (numberedItems) and of those whose rating is a draft (its
 * assignment is not done), and per question the answers' codes (answerCode: scale position plus
 * one, 0 off the scale, -1 not answered), all as int[] text. Unordered within a row, so
 * PostgreSQL neither sorts nor numbers the ratings. Places rather than the items' ids: PostgreSQL
 * numbers the study's items once for less CPU than writing 100,000 ids, and node reads numbers
 * instead of splitting and looking up the ids.
 */
function ratingsStatement(studyId: string, task: TaskType, questions: readonly Question[], filters: RaterFilters): Prisma.Sql {
  const tables = annotationTables(TASKS[task]);
  const kind = TASKS[task].itemKind;
  const codes = questions.map((q, k) => Prisma.sql`array_agg(${answerCode(TASKS[task], q)})::text AS ${Prisma.raw(`v${k}`)}`);
  // With the matching question, a comment answer is its comment's row and its pairs' (their ids `itemId`).
  const pair = pairQuestion(questions);
  const numbered = numberedItems(pair ? COMMENTS_AND_PAIRS : tables.items, studyId);
  // A review comment's assignment is found through its pull request (itemOfAssignmentSql), which its own row holds.
  const comments = kind === "reviewComment";
  return Prisma.sql`
    SELECT a."annotatorId" AS rater, array_agg(n.place)::text AS items, array_agg(n.place) FILTER (WHERE d."userId" IS NOT NULL)::text AS drafts
      ${questions.length > 0 ? Prisma.sql`, ${Prisma.join(codes)}` : Prisma.empty}
    FROM ${pair ? answersAndDegrees(pair.key) : tables.annotations} a JOIN ${numbered} n ON n.id = ${pair ? Prisma.sql`a."itemId"` : Prisma.sql`a.${tables.itemColumn}`}
      ${comments ? Prisma.sql`JOIN ${tables.items} i ON i.id = a.${tables.itemColumn}` : Prisma.empty}
      -- (account, change) is unique per task: the join keeps one row per answer.
      LEFT JOIN (SELECT "userId", "codeChangeId" FROM "Assignment" WHERE "studyId" = ${studyId} AND "taskType" = ${task}::"TaskType" AND status <> 'DONE') d
        ON d."userId" = a."annotatorId" AND ${Prisma.raw(itemOfAssignmentSql(kind, comments ? "i" : "n", 'd."codeChangeId"'))}
    WHERE ${filters.qualification ? qualifiedRaterSql(Prisma.sql`a."annotatorId"`, studyId) : Prisma.sql`TRUE`} ${filters.judges ? Prisma.sql`AND ${countedRaterSql(Prisma.sql`a."annotatorId"`, studyId)}` : Prisma.empty}
    GROUP BY a."annotatorId" ORDER BY a."annotatorId"`;
}

/** Which raters the ratings statement must leave out: those who failed the qualification, uncounted judges. */
interface RaterFilters {
  qualification: boolean;
  judges: boolean;
}

/**
 * The rater filters the study's ratings need: qualifiedRaterSql's while a member of the study
 * has failed its qualification, countedRaterSql's (unless every judge is kept) while some judge
 * does not count in it. A filter that would keep every rater is left out of the statement: on
 * 100,000 ratings the two cost PostgreSQL about 12 of its 150 ms of CPU.
 */
async function raterFilters(client: PrismaClient, studyId: string, judges: GatherOptions["judges"]): Promise<RaterFilters> {
  const [row] = await rawRows<RaterFilters>(client, Prisma.sql`
    SELECT EXISTS (SELECT 1 FROM "StudyMember" m WHERE m."studyId" = ${studyId} AND NOT ${qualifiedRaterSql(Prisma.sql`m."userId"`, studyId)}) AS qualification,
      ${judges === "all" ? Prisma.sql`FALSE` : Prisma.sql`EXISTS (SELECT 1 FROM "User" u WHERE u.kind = 'JUDGE' AND NOT ${countedRaterSql(Prisma.sql`u.id`, studyId)})`} AS judges`);
  return row;
}

/**
 * The ratings of one task of the study as columns (lib/analysis/gather.ts), read in two
 * statements at once, the items and the ratings; gold items and drafts left out unless asked for,
 * and the answers of annotators who failed the study's qualification always.
 */
export async function gatherTaskColumns(study: StudyForAnalysis, task: TaskType, client: PrismaClient = db, options: GatherOptions = {}): Promise<TaskColumns> {
  const questions = taskQuestions(task, study).filter((q) => options.only === undefined || q.key === options.only);
  const readItems = () => rawRows<ItemsRow>(client, itemsStatement(study.id, task, pairQuestion(questions) !== undefined));
  const readRatings = async () => rawRows<RaterRow>(client, ratingsStatement(study.id, task, questions, await raterFilters(client, study.id, options.judges)));
  // On two connections unless told otherwise, so PostgreSQL reads the items and the ratings on both cores.
  const [[row], rows] = options.oneConnection ? [await readItems(), await readRatings()] : await Promise.all([readItems(), readRatings()]);
  return taskColumns(task, questions, row, rows, options);
}

/** The human scores of reviews for one question (lib/analysis/human-scores.ts). */
export async function humanScores(study: StudyForAnalysis, key: string, client: PrismaClient = db, drafts: DraftMode = "exclude"): Promise<HumanScores> {
  const task = humanQuestion(study, key);
  return humanScoresOf(await gatherTaskColumns(study, task, client, { drafts, only: key }), key);
}
