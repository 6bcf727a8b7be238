/**
 * Qualification before real items against a real PostgreSQL: a study asks consent, the
 * guidelines and two gold grades with a pass mark of 100 % in two attempts. An annotator fails
 * the first attempt (feedback: the known answer and the reason), passes the second, and only then
 * opens and saves items; another fails both, gets no items, and their answers given before leave
 * every statistic. The quality page's rows carry each one's score and attempts.
 */
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { asAccount, asLead, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const data = await import("@/lib/data/annotations");
const admin = await import("@/lib/data/assignment-admin");
const adjudication = await import("@/lib/data/adjudication");
const quality = await import("@/lib/data/quality");
const qualification = await import("@/lib/data/qualification");
const { gatherTaskColumns } = await import("@/lib/data/task-answers");
const { requireStudy } = await import("@/lib/data/studies");
const { listQueuesForAnnotator } = await import("@/lib/data/assignments");

let fx: AnnotationFixture;
const GOLD = [4, 2];

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `qual${Date.now()}`);
  await db.study.update({ where: { id: fx.studyId }, data: { reliabilitySetSize: 0, annotatorsPerItem: 1 } });
  for (const [i, grade] of GOLD.entries()) {
    await adjudication.saveConsensus(asLead(fx), { slug: fx.slug, task: "REFERENCE_GRADING", itemId: fx.changes[0].reviews[i], question: "grade", value: grade, reason: `the lead's reason ${i}`, baseVersion: 0, gold: true });
  }
  await admin.generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann1, fx.accounts.ann2]);
});
afterAll(() => removeAnnotationFixture(db, fx));

const gradingAssignment = (accountId: string) => db.assignment.findFirstOrThrow({ where: { annotatorId: accountId, studyId: fx.studyId, task: "REFERENCE_GRADING" }, orderBy: { position: "asc" } });
const reviewOf = async (assignmentId: string) => {
  const a = await db.assignment.findUniqueOrThrow({ where: { id: assignmentId }, select: { codeChangeId: true } });
  return (await db.review.findFirstOrThrow({ where: { codeChangeId: a.codeChangeId, isReference: false }, orderBy: { position: "asc" } })).id;
};
const grade = (assignmentId: string, review: string, value: number) => ({ kind: "grade" as const, assignmentId, targetId: review, baseVersion: 0, value: { grade: value, comment: "" } });
const raters = async () => {
  const columns = await gatherTaskColumns(await requireStudy({ id: fx.studyId }), "REFERENCE_GRADING", db, { drafts: "include" });
  return new Set(columns.raters);
};
const take = (id: string, step: "consent" | "guidelines" | "retry") => qualification.takeQualificationStep(asAccount(id), { slug: fx.slug, step });
const answer = (id: string, index: number, value: number) => qualification.answerQualification(asAccount(id), { slug: fx.slug, index, choice: value - 1 });

test("an annotator's answers given before the study asked for qualification count until they fail it", async () => {
  const a = await gradingAssignment(fx.accounts.ann2);
  await data.saveAnnotation(asAccount(fx.accounts.ann2), grade(a.id, await reviewOf(a.id), 3));
  expect(await raters()).toContain(fx.accounts.ann2);
  await qualification.updateQualificationSettings(asLead(fx), { slug: fx.slug, required: true, consent: "I agree to take part.", goldItems: 2, passMarkPercent: 100, maxAttempts: 2 });
  expect(await raters()).toContain(fx.accounts.ann2);
});

test("before passing, the items stay closed: the queue says so, the workspace and the save refuse", async () => {
  const a = await gradingAssignment(fx.accounts.ann1);
  const queue = (await listQueuesForAnnotator(fx.accounts.ann1)).find((q) => q.study.slug === fx.slug)!;
  expect(queue.qualification).toBe("pending");
  await expect(data.getWorkspace(fx.accounts.ann1, a.id)).rejects.toMatchObject({ code: "LOCKED" });
  await expect(data.saveAnnotation(asAccount(fx.accounts.ann1), grade(a.id, await reviewOf(a.id), 2))).rejects.toMatchObject({ code: expect.stringMatching(/LOCKED|NOT_FOUND/) });
});

test("consent, guidelines, a failed attempt with feedback, then a passed one opens the items", async () => {
  const id = fx.accounts.ann1;
  expect((await qualification.qualificationView(asAccount(id), fx.slug)).step).toEqual({ step: "consent" });
  await expect(take(id, "guidelines")).rejects.toMatchObject({ code: "CONFLICT" });
  await take(id, "consent");
  await take(id, "guidelines");
  const view = await qualification.qualificationView(asAccount(id), fx.slug);
  expect(view.step).toEqual({ step: "question", index: 0 });
  expect(view.question).toMatchObject({ index: 0, of: 2, task: "REFERENCE_GRADING", item: { text: expect.stringContaining("review 0 of change 0") } });

  const wrong = await answer(id, 0, 1);
  expect(wrong).toEqual({ correct: false, known: "Excellent", reason: "the lead's reason 0 — Excellent: Essentially equivalent to the reference review, though the wording differs.", outcome: null, score: null });
  await expect(answer(id, 0, 4)).rejects.toMatchObject({ code: "CONFLICT" });
  expect(await answer(id, 1, 2)).toMatchObject({ correct: true, outcome: "retry", score: 0.5 });
  expect((await qualification.qualificationView(asAccount(id), fx.slug)).step).toEqual({ step: "retry", score: 0.5, attemptsLeft: 1 });

  await take(id, "retry");
  expect(await answer(id, 0, 4)).toMatchObject({ correct: true, outcome: null });
  expect(await answer(id, 1, 2)).toMatchObject({ correct: true, outcome: "passed", score: 1 });
  expect((await qualification.qualificationView(asAccount(id), fx.slug)).step).toEqual({ step: "passed" });

  const a = await gradingAssignment(id);
  expect((await data.getWorkspace(id, a.id)).assignment.id).toBe(a.id);
  await data.saveAnnotation(asAccount(id), grade(a.id, await reviewOf(a.id), 5));
  expect(await raters()).toContain(id);
});

test("an annotator who fails every attempt gets no items and their answers leave every statistic; the quality page shows scores and attempts", async () => {
  const id = fx.accounts.ann2;
  await take(id, "consent");
  await take(id, "guidelines");
  for (const attempt of [1, 2]) {
    if (attempt === 2) await take(id, "retry");
    await answer(id, 0, 1);
    expect(await answer(id, 1, 2)).toMatchObject({ outcome: attempt === 1 ? "retry" : "failed", score: 0.5 });
  }
  await expect(take(id, "retry")).rejects.toMatchObject({ code: "CONFLICT" });
  expect((await listQueuesForAnnotator(id)).find((q) => q.study.slug === fx.slug)!.qualification).toBe("failed");
  await expect(data.getWorkspace(id, (await gradingAssignment(id)).id)).rejects.toMatchObject({ code: "LOCKED" });
  expect(await raters()).not.toContain(id);
  // Adjudication weighs no answer of theirs either (the grade of 3 given before the study asked for qualification).
  const graded = await reviewOf((await gradingAssignment(id)).id);
  const item = await adjudication.adjudicationItem(asLead(fx), fx.slug, "REFERENCE_GRADING", graded);
  expect(item.annotations.map((a) => a.annotatorId)).not.toContain(id);

  const rows = (await quality.studyQuality(asLead(fx), fx.slug)).annotators;
  expect(rows.find((r) => r.annotatorId === fx.accounts.ann1)!.qualification).toEqual({ attempts: 2, score: 1, passed: true, failed: false });
  expect(rows.find((r) => r.annotatorId === id)!.qualification).toEqual({ attempts: 2, score: 0.5, passed: false, failed: true });
});
