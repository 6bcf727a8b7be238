/** Ratings of a study from the database as (item, rater, value) triples, per task and question. */
import type { Rating, RatingValue } from "@/lib/agreement";
import { db, type PrismaClient } from "@/lib/db/client";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { HIGH_QUALITY, type Question, type StudyScales, taskQuestions } from "./questions";

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
  /** Short description for lists, e.g. "change-12 · claim 3" or "change-12 · gpt3.5_pred". */
  label: string;
}

export interface QuestionRatings {
  question: Question;
  /** item = StudyItem.id, rater = annotator (user) id. */
  ratings: Rating[];
  /** Stored values off the question's scale (e.g. a Likert 6), left out. */
  excluded: number;
}

export interface TaskRatings {
  task: TaskType;
  items: Map<string, StudyItem>;
  questions: QuestionRatings[];
}

export interface StudyForAnalysis extends StudyScales {
  id: string;
  slug: string;
  name: string;
  taskTypes: TaskType[];
}

/** The study by id or slug, with what the analyses need. */
export async function findStudy(where: { id: string } | { slug: string }, client: PrismaClient = db): Promise<StudyForAnalysis> {
  const study = await client.study.findUnique({ where, select: { id: true, slug: true, name: true, taskTypes: true, likertDimensions: true, likertMin: true, likertMax: true } });
  if (!study) throw new Error(`no study with ${"id" in where ? `id "${where.id}"` : `slug "${where.slug}"`}`);
  return study;
}

interface ItemRow {
  id: string;
  position: number;
  /** Reviews only. */
  system?: string;
  codeChange: { id: string; externalId: string; language: string; position: number };
}

const describe = (row: ItemRow) =>
  row.system === undefined ? { system: null, label: `${row.codeChange.externalId} · claim ${row.position + 1}` } : { system: row.system, label: `${row.codeChange.externalId} · ${row.system}` };

/** Items in study order: by change position (then id), then item position (then id). */
function indexItems(rows: readonly ItemRow[]): Map<string, StudyItem> {
  const sorted = [...rows].sort(
    (a, b) => a.codeChange.position - b.codeChange.position || a.codeChange.id.localeCompare(b.codeChange.id) || a.position - b.position || a.id.localeCompare(b.id),
  );
  return new Map(
    sorted.map((row, order) => [row.id, { id: row.id, order, codeChangeId: row.codeChange.id, changeExternalId: row.codeChange.externalId, language: row.codeChange.language, ...describe(row) }]),
  );
}

const changeSelect = { select: { id: true, externalId: true, language: true, position: true } } as const;

/** Collects one question's triples, leaving out values off the scale. */
function collect<T>(question: Question, rows: readonly T[], item: (row: T) => string, rater: (row: T) => string, value: (row: T) => RatingValue | null): QuestionRatings {
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

/** The ratings of one task of the study, per question, with the rated items. */
export async function gatherTaskRatings(study: StudyForAnalysis, task: TaskType, client: PrismaClient = db): Promise<TaskRatings> {
  const questions = taskQuestions(task, study);
  const inStudy = { codeChange: { studyId: study.id } };
  if (task === "CLAIM_VERIFICATION") {
    const [judgements, claims] = await Promise.all([
      client.claimJudgement.findMany({ where: { pseudoReference: inStudy }, select: { annotatorId: true, pseudoReferenceId: true, code: true } }),
      client.pseudoReference.findMany({ where: { ...inStudy, judgements: { some: {} } }, select: { id: true, position: true, codeChange: changeSelect } }),
    ]);
    return { task, items: indexItems(claims), questions: [collect(questions[0], judgements, (j) => j.pseudoReferenceId, (j) => j.annotatorId, (j) => j.code)] };
  }

  const reviewSelect = { id: true, position: true, system: true, codeChange: changeSelect } as const;
  if (task === "REVIEW_RATING") {
    const [rows, reviews] = await Promise.all([
      client.reviewRating.findMany({ where: { candidateReview: inStudy }, select: { annotatorId: true, candidateReviewId: true, scores: true } }),
      client.candidateReview.findMany({ where: { ...inStudy, ratings: { some: {} } }, select: reviewSelect }),
    ]);
    const score = (scores: unknown, key: string): number | null => {
      const v = scores !== null && typeof scores === "object" ? (scores as Record<string, unknown>)[key] : undefined;
      return typeof v === "number" ? v : null;
    };
    return {
      task,
      items: indexItems(reviews),
      questions: questions.map((q) => collect(q, rows, (r) => r.candidateReviewId, (r) => r.annotatorId, (r) => score(r.scores, q.key))),
    };
  }
  if (task === "REFERENCE_GRADING") {
    const [rows, reviews] = await Promise.all([
      client.referenceGrade.findMany({ where: { candidateReview: inStudy }, select: { annotatorId: true, candidateReviewId: true, grade: true } }),
      client.candidateReview.findMany({ where: { ...inStudy, referenceGrades: { some: {} } }, select: reviewSelect }),
    ]);
    return { task, items: indexItems(reviews), questions: [collect(questions[0], rows, (r) => r.candidateReviewId, (r) => r.annotatorId, (r) => r.grade)] };
  }
  const [rows, reviews] = await Promise.all([
    client.commentFilterLabel.findMany({ where: { candidateReview: inStudy }, select: { annotatorId: true, candidateReviewId: true, highQuality: true } }),
    client.candidateReview.findMany({ where: { ...inStudy, commentFilters: { some: {} } }, select: reviewSelect }),
  ]);
  return {
    task,
    items: indexItems(reviews),
    questions: [collect(questions[0], rows, (r) => r.candidateReviewId, (r) => r.annotatorId, (r) => (r.highQuality ? HIGH_QUALITY.yes : HIGH_QUALITY.no))],
  };
}

/** Display names of annotators. */
export async function raterNames(ids: readonly string[], client: PrismaClient = db): Promise<Map<string, string>> {
  const users = await client.user.findMany({ where: { id: { in: [...ids] } }, select: { id: true, name: true } });
  return new Map(users.map((u) => [u.id, u.name]));
}
