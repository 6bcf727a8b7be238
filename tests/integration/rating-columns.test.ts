/**
 * The analyses' read of a task's ratings as columns (lib/analysis/gather.ts
 * gatherTaskColumns), on a study with every task, missing and off-scale answers, drafts and gold
 * items (real PostgreSQL), against the answers as the test wrote them: the same rated items in
 * study order, per question the ratings on the scale in study order then by annotator id, the
 * off-scale values and the drafts counted; and the validity report's human scores from them.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { TaskType } from "@/lib/generated/prisma/client";
import type { AnswerValue } from "@/lib/agreement";
import { HIGH_QUALITY } from "@/lib/analysis/questions";
import { createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const { gatherTaskColumns, humanScores } = await import("@/lib/data/task-answers");
const { requireStudy } = await import("@/lib/data/studies");
const { taskQuestions } = await import("@/lib/tasks");
const { ratingLists } = await import("../human-ratings");

let fx: AnnotationFixture;
const TASKS: TaskType[] = ["CLAIM_VERIFICATION", "REVIEW_RATING", "REFERENCE_GRADING", "COMMENT_FILTERING"];
const CODES = ["CORRECT", "INCORRECT", "UNVERIFIABLE", "AMBIGUOUS", null] as const;

/** An answer as written: its item's place in study order, whether it is a draft, and its stored value per question key (null: not answered). */
interface Written {
  task: TaskType;
  item: string;
  order: number;
  rater: string;
  draft: boolean;
  values: Record<string, unknown>;
}
const written: Written[] = [];
const gold = new Map<TaskType, Set<string>>();

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `cols${Date.now()}`);
  const annotators = [fx.accounts.ann1, fx.accounts.ann2, fx.accounts.ann3];
  const study = await requireStudy({ id: fx.studyId }, db);
  const keys = (task: TaskType) => taskQuestions(task, study).map((q) => q.key);
  for (const [c, change] of fx.changes.entries()) {
    for (const [a, annotatorId] of annotators.entries()) {
      // ann3 leaves change 1 alone; ann2's work on change 2 is not submitted (drafts).
      if (a === 2 && c === 1) continue;
      const draft = a === 1 && c === 2;
      for (const task of TASKS) {
        await db.assignment.create({ data: { studyId: fx.studyId, annotatorId: annotatorId, codeChangeId: change.id, task: task, status: draft ? "IN_PROGRESS" : "DONE", position: c } });
      }
      const answer = (task: TaskType, item: string, position: number, values: Record<string, unknown>) => written.push({ task, item, order: c * 100 + position, rater: annotatorId, draft, values });
      for (const [r, reviewId] of [...change.reviews, change.reference].entries()) {
        if ((r + a + c) % 4 === 3) continue;
        const v = 1 + ((r * (a + 1) + c) % 5);
        // Missing dimensions, values off the scale (7, 2.5) and ones that are not numbers (text, JSON null, an array).
        const notANumber = ["3", null, [3]][a];
        const scores: Record<string, number | string | null | number[]> = { relevance: r === 5 && a === 0 ? 7 : r === 1 && a === 2 ? 2.5 : v, ...(r % 3 === 0 ? {} : { conciseness: r === 4 ? notANumber : 6 - v }), comprehensiveness: Math.max(1, v - a) };
        await db.reviewRating.create({ data: { annotatorId, reviewId: reviewId, scores } });
        answer("REVIEW_RATING", reviewId, r, Object.fromEntries(keys("REVIEW_RATING").map((k) => [k, typeof scores[k] === "number" ? scores[k] : null])));
        if ((r + a) % 3 !== 2) {
          const grade = 1 + ((r + c + (a === 1 ? 1 : 0)) % 5);
          await db.referenceGrade.create({ data: { annotatorId, reviewId: reviewId, grade } });
          answer("REFERENCE_GRADING", reviewId, r, { grade });
        }
        if ((r + c) % 2 === 0 || a === 0) {
          const highQuality = (r + a) % 3 !== 0;
          await db.commentFilteringLabel.create({ data: { annotatorId, reviewId: reviewId, highQuality } });
          answer("COMMENT_FILTERING", reviewId, r, { "high-quality": highQuality ? HIGH_QUALITY.yes : HIGH_QUALITY.no });
        }
      }
      for (const [k, claimId] of change.claims.entries()) {
        const code = CODES[(k + a * c) % CODES.length];
        await db.claimJudgement.create({ data: { annotatorId, pseudoReferenceId: claimId, code } });
        answer("CLAIM_VERIFICATION", claimId, k, { code });
      }
    }
  }
  // Known answers: a review of change 0 for two tasks, a claim of change 2.
  for (const [task, itemId, question, value] of [
    ["REVIEW_RATING", fx.changes[0].reviews[1], "relevance", 3],
    ["REFERENCE_GRADING", fx.changes[0].reviews[1], "grade", 2],
    ["CLAIM_VERIFICATION", fx.changes[2].claims[0], "code", "CORRECT"],
  ] as const) {
    await db.consensus.create({ data: { studyId: fx.studyId, task, itemId, question, value, gold: true } });
    gold.set(task, new Set([...(gold.get(task) ?? []), itemId]));
  }
});
afterAll(async () => {
  await removeAnnotationFixture(db, fx);
  await db.$disconnect();
});

/** What the columns should hold, from the answers as written: the rated items in study order, and per question the ratings and counts. */
function expected(task: TaskType, goldMode: "exclude" | "include" | "only", drafts: "exclude" | "include", questions: { key: string; scale: readonly AnswerValue[] }[]) {
  const known = gold.get(task) ?? new Set();
  const answers = written.filter((w) => w.task === task).sort((a, b) => a.order - b.order || (a.rater < b.rater ? -1 : a.rater > b.rater ? 1 : 0));
  const shown = (w: Written) => goldMode === "include" || known.has(w.item) === (goldMode === "only");
  return {
    items: [...new Set(answers.filter(shown).map((w) => w.item))],
    // The counts are of all the task's items, gold or not.
    questions: questions.map((q) => {
      const answered = answers.filter((w) => w.values[q.key] !== null);
      const onScale = answered.filter((w) => q.scale.includes(w.values[q.key] as AnswerValue));
      const kept = onScale.filter((w) => drafts === "include" || !w.draft);
      return { ratings: kept.filter(shown).map((w) => ({ item: w.item, rater: w.rater, value: w.values[q.key] })), excluded: answered.length - onScale.length, drafts: onScale.length - kept.length };
    }),
  };
}

describe.each(TASKS)("%s", (task) => {
  test.each([
    ["exclude", "exclude"],
    ["include", "exclude"],
    ["only", "exclude"],
    ["exclude", "include"],
    ["include", "include"],
  ] as const)("gold %s, drafts %s: the items, ratings and counts as written", async (goldMode, drafts) => {
    const study = await requireStudy({ id: fx.studyId }, db);
    const columns = await gatherTaskColumns(study, task, db, { gold: goldMode, drafts });
    const want = expected(task, goldMode, drafts, taskQuestions(task, study));
    expect(columns.items.map((item) => item.id)).toEqual(want.items);
    expect(columns.questions.map((q) => q.question)).toEqual(taskQuestions(task, study));
    for (const [k, q] of columns.questions.entries()) {
      const ratings = Array.from(q.item, (u, e) => ({ item: columns.items[u].id, rater: columns.raters[q.rater[e]], value: q.question.scale[q.value[e]] }));
      expect(ratings).toEqual(want.questions[k].ratings);
      expect([q.excluded, q.drafts]).toEqual([want.questions[k].excluded, want.questions[k].drafts]);
    }
    // Read on one connection, one statement after the other (as exports do): the same columns.
    expect(await gatherTaskColumns(study, task, db, { gold: goldMode, drafts, oneConnection: true })).toEqual(columns);
    // One question read alone: the same items, raters and columns as among all of them.
    for (const q of columns.questions) {
      const alone = await gatherTaskColumns(study, task, db, { gold: goldMode, drafts, only: q.question.key });
      expect({ items: alone.items, raters: alone.raters, questions: alone.questions }).toEqual({ items: columns.items, raters: columns.raters, questions: [q] });
    }
    // The study has drafts in every task, and Likert values off the scale.
    if (drafts === "exclude") expect(columns.questions.some((q) => q.drafts > 0)).toBe(true);
    if (task === "REVIEW_RATING") expect(columns.questions.some((q) => q.excluded > 0)).toBe(true);
  });
});

test("human scores of reviews (the validity report's) are the mean of the same ratings", async () => {
  const study = await requireStudy({ id: fx.studyId }, db);
  const questions = taskQuestions("REVIEW_RATING", study);
  for (const drafts of ["exclude", "include"] as const) {
    const want = expected("REVIEW_RATING", "exclude", drafts, questions);
    const relevance = want.questions[questions.findIndex((q) => q.key === "relevance")];
    const ratings = new Map<string, { rater: string; value: number }[]>();
    for (const r of relevance.ratings) ratings.set(r.item, [...(ratings.get(r.item) ?? []), { rater: r.rater, value: r.value as number }]);
    const human = await humanScores(study, "relevance", db, drafts);
    expect(ratingLists(human.ratings)).toEqual(ratings);
    expect([...human.ratings.review.keys()]).toEqual(want.items.filter((id) => ratings.has(id)));
    expect(human.draftsLeftOut).toBe(relevance.drafts);
  }
});
