/**
 * The analyses' one-statement read of a task's ratings as columns (lib/analysis/gather.ts
 * gatherTaskColumns) against the Prisma read of the same ratings as objects (gatherTaskRatings),
 * on a study with every task, missing and off-scale answers, drafts, gold items and an item set
 * (real PostgreSQL): the same items, ratings in the same order and the same counts, and the same
 * agreement report as questionAgreement gives on the objects.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { TaskType } from "@/lib/generated/prisma/client";
import { createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const { agreementReport, bootstrapSettings, humanScores, questionAgreement } = await import("@/lib/analysis");
const { inItemSet } = await import("@/lib/analysis/item-sets");
const { findStudy, gatherTaskColumns, gatherTaskRatings, raterNames } = await import("@/lib/analysis/gather");

let fx: AnnotationFixture;
const TASKS: TaskType[] = ["CLAIM_VERIFICATION", "REVIEW_RATING", "REFERENCE_GRADING", "COMMENT_FILTERING"];
const CODES = ["CORRECT", "INCORRECT", "UNVERIFIABLE", "AMBIGUOUS", null] as const;
const ITEM_SET = { name: "some", kind: "custom", ids: ["cc-0", "cc-2/r1", "cc-2/r4", "cc-1/claim-2"] };

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `cols${Date.now()}`);
  const annotators = [fx.users.ann1, fx.users.ann2, fx.users.ann3];
  for (const [c, change] of fx.changes.entries()) {
    for (const [a, annotatorId] of annotators.entries()) {
      // ann3 leaves change 1 alone; ann2's work on change 2 is not submitted (drafts).
      if (a === 2 && c === 1) continue;
      for (const task of TASKS) {
        await db.assignment.create({ data: { studyId: fx.studyId, userId: annotatorId, codeChangeId: change.id, taskType: task, status: a === 1 && c === 2 ? "IN_PROGRESS" : "DONE", position: c } });
      }
      for (const [r, reviewId] of [...change.reviews, change.reference].entries()) {
        if ((r + a + c) % 4 === 3) continue;
        const v = 1 + ((r * (a + 1) + c) % 5);
        // Missing dimensions, a value off the scale (7) and one that is not a number.
        const scores = { relevance: r === 5 && a === 0 ? 7 : v, ...(r % 3 === 0 ? {} : { conciseness: r === 4 ? "3" : 6 - v }), comprehensiveness: Math.max(1, v - a) };
        await db.reviewRating.create({ data: { annotatorId, candidateReviewId: reviewId, scores } });
        if ((r + a) % 3 !== 2) await db.referenceGrade.create({ data: { annotatorId, candidateReviewId: reviewId, grade: 1 + ((r + c + (a === 1 ? 1 : 0)) % 5) } });
        if ((r + c) % 2 === 0 || a === 0) await db.commentFilterLabel.create({ data: { annotatorId, candidateReviewId: reviewId, highQuality: (r + a) % 3 !== 0 } });
      }
      for (const [k, claimId] of change.claims.entries()) {
        await db.claimJudgement.create({ data: { annotatorId, pseudoReferenceId: claimId, code: CODES[(k + a * c) % CODES.length] } });
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
  }
});
afterAll(async () => {
  await removeAnnotationFixture(db, fx);
  await db.$disconnect();
});

describe.each(TASKS)("%s", (task) => {
  test.each([
    ["exclude", "exclude"],
    ["include", "exclude"],
    ["only", "exclude"],
    ["exclude", "include"],
    ["include", "include"],
  ] as const)("gold %s, drafts %s: the same items, ratings and counts as the objects", async (gold, drafts) => {
    const study = await findStudy({ id: fx.studyId }, db);
    const [objects, columns] = await Promise.all([gatherTaskRatings(study, task, db, gold, drafts), gatherTaskColumns(study, task, db, gold, drafts)]);
    expect(columns.items).toEqual([...objects.items.values()]);
    expect(columns.questions.map((q) => q.question)).toEqual(objects.questions.map((q) => q.question));
    for (const [k, q] of columns.questions.entries()) {
      const old = objects.questions[k];
      const order = (id: string) => objects.items.get(id)!.order;
      // questionAgreement's order: the items in study order, each item's ratings as read (by annotator id).
      const expected = [...old.ratings].sort((a, b) => order(a.item) - order(b.item));
      const ratings = Array.from(q.item, (u, e) => ({ item: columns.items[u].id, rater: columns.raters[q.rater[e]], value: q.question.scale[q.value[e]] }));
      expect(ratings).toEqual(expected);
      expect([q.excluded, q.drafts]).toEqual([old.excluded, old.drafts ?? 0]);
    }
    // The study has drafts in every task, and Likert values off the scale.
    if (drafts === "exclude") expect(columns.questions.some((q) => q.drafts > 0)).toBe(true);
    if (task === "REVIEW_RATING") expect(columns.questions.some((q) => q.excluded > 0)).toBe(true);
  });

  test.each([
    [false, false, false],
    [true, false, false],
    [false, true, false],
    [false, false, true],
  ])("includeGold %s, includeDrafts %s, item set %s: the agreement report questionAgreement gives on the objects", async (includeGold, includeDrafts, restricted) => {
    const study = await findStudy({ id: fx.studyId }, db);
    const objects = await gatherTaskRatings(study, task, db, includeGold ? "include" : "exclude", includeDrafts ? "include" : "exclude");
    const matched = new Set<string>();
    const wanted = new Set(ITEM_SET.ids);
    const items = restricted ? new Map([...objects.items].filter(([, item]) => inItemSet(item, wanted, matched))) : objects.items;
    const bootstrap = { nResamples: 50, seed: 3 };
    const settings = { bootstrap: bootstrapSettings(bootstrap), batchSize: 4, reliabilitySet: ITEM_SET, disagreements: 5 };
    const names = await raterNames([fx.users.ann1, fx.users.ann2, fx.users.ann3], db);
    const expected = objects.questions
      .map((q) => ({ ...q, ratings: q.ratings.filter((r) => items.has(r.item)) }))
      .filter((q) => q.ratings.length > 0)
      .map((q) => questionAgreement(q, items, names, settings));
    const report = await agreementReport(fx.studyId, { task, includeGold, includeDrafts, bootstrap, batchSize: 4, reliabilitySet: ITEM_SET, disagreements: 5, ...(restricted ? { items: ITEM_SET } : {}) }, db);
    expect(expected.length).toBeGreaterThan(0);
    expect(report.tasks[0].questions).toEqual(expected);
    if (restricted) expect(report.itemSet.unmatched).toEqual(ITEM_SET.ids.filter((id) => !matched.has(id)));
  });
});

test("human scores of reviews (the validity report's) are the mean of the same ratings", async () => {
  const study = await findStudy({ id: fx.studyId }, db);
  for (const drafts of ["exclude", "include"] as const) {
    const objects = await gatherTaskRatings(study, "REVIEW_RATING", db, "exclude", drafts);
    const relevance = objects.questions.find((q) => q.question.key === "relevance")!;
    const expected = new Map<string, { rater: string; value: number }[]>();
    for (const r of relevance.ratings) expected.set(r.item, [...(expected.get(r.item) ?? []), { rater: r.rater, value: r.value as number }]);
    const human = await humanScores(study, "relevance", db, drafts);
    expect(human.ratings).toEqual(expected);
    expect([...human.ratings.keys()]).toEqual([...expected.keys()].sort((a, b) => objects.items.get(a)!.order - objects.items.get(b)!.order));
    expect(human.items).toEqual(objects.items);
    expect(human.draftsLeftOut).toBe(relevance.drafts ?? 0);
  }
});
