/**
 * Calibration rounds gate the whole study (GradedReviews §4.3, batch-wise calibration) against a
 * real PostgreSQL, through the functions the routes and pages call: two calibration batches as
 * rounds and two code changes outside them. Making the rounds shows a preview that creates
 * nothing and is made only as confirmed; with round 2 unreleased, an item outside the rounds can
 * neither be opened, saved (one statement or transaction), timed nor submitted, and the queue says
 * it waits for round 2; the lead's "open items outside rounds now" opens it; without that, the
 * last round's release opens it.
 */
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { SaveRequest } from "@/lib/annotation/values";
import { asLead, asAccount, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const data = await import("@/lib/data/annotations");
const rounds = await import("@/lib/data/rounds");
const { saveInOneStatement } = await import("@/lib/data/annotation-statement");
const { listQueuesForAnnotator } = await import("@/lib/data/assignments");
const { createItemSet } = await import("@/lib/data/item-sets");

let fx: AnnotationFixture;
const input = () => ({ slug: fx.slug, itemSets: ["batch-1", "batch-2"] });
const assignmentOf = (accountId: string, change: number) => db.assignment.findFirstOrThrow({ where: { annotatorId: accountId, codeChangeId: fx.changes[change].id } });
const rowsOfStudy = async () => ({
  rounds: await db.calibrationRound.count({ where: { studyId: fx.studyId } }),
  sets: await db.itemSet.count({ where: { studyId: fx.studyId } }),
  assignments: await db.assignment.count({ where: { studyId: fx.studyId } }),
});
const grade = (assignmentId: string, review: string, value: number): SaveRequest => ({ kind: "grade", assignmentId, targetId: review, baseVersion: 0, value: { grade: value, comment: "" } }) as SaveRequest;

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `gate${Date.now()}`, { changes: 4 });
  await db.study.update({ where: { id: fx.studyId }, data: { tasks: ["REFERENCE_GRADING"], reliabilitySetSize: 0, annotatorsPerItem: 2 } });
  await db.studyMember.createMany({ data: [fx.accounts.ann1, fx.accounts.ann2].map((accountId) => ({ studyId: fx.studyId, accountId, role: "ANNOTATOR" as const })) });
  await createItemSet(asLead(fx), { slug: fx.slug, name: "batch-1", kind: "CALIBRATION", fileName: "b1.txt", text: "cc-0" });
  await createItemSet(asLead(fx), { slug: fx.slug, name: "batch-2", kind: "CALIBRATION", fileName: "b2.txt", text: "cc-1" });
});
afterAll(() => removeAnnotationFixture(db, fx));

test("making rounds previews the assignments per annotator and round, creates nothing until confirmed, then creates what the preview showed", async () => {
  const before = await rowsOfStudy();
  const preview = await rounds.previewRounds(asLead(fx), input());
  expect(preview.rounds).toEqual([
    { number: 1, name: "batch-1", codeChanges: 1 },
    { number: 2, name: "batch-2", codeChanges: 1 },
  ]);
  expect(preview.outsideCodeChanges).toBe(2);
  // every annotator grades every round's item; the two outside items go to both (2 annotators per item)
  expect(preview.annotators.map((a) => a.annotatorId).sort()).toEqual([fx.accounts.ann1, fx.accounts.ann2].sort());
  expect(preview.annotators.map((a) => [a.perRound, a.outside, a.total])).toEqual([
    [[1, 1], 2, 4],
    [[1, 1], 2, 4],
  ]);
  expect([preview.perRound, preview.outside, preview.total]).toEqual([[2, 2], 4, 8]);
  expect(preview.effect).toEqual({ create: 8, update: 0, remove: 0, keep: 0 });
  expect(await rowsOfStudy()).toEqual(before);

  // a confirmation of another preview, or of this one after the plan changed, makes nothing
  await expect(rounds.createRounds(asLead(fx), { ...input(), confirm: "not-the-preview" })).rejects.toMatchObject({ status: 409, message: expect.stringContaining("Preview the rounds again") });
  await db.study.update({ where: { id: fx.studyId }, data: { annotatorsPerItem: 1 } });
  await expect(rounds.createRounds(asLead(fx), { ...input(), confirm: preview.key })).rejects.toMatchObject({ status: 409 });
  expect(await rowsOfStudy()).toEqual(before);
  await db.study.update({ where: { id: fx.studyId }, data: { annotatorsPerItem: 2 } });

  expect((await rounds.previewRounds(asLead(fx), input())).key).toBe(preview.key);
  expect(await rounds.createRounds(asLead(fx), { ...input(), confirm: preview.key })).toEqual({ rounds: 2, assignments: 8 });
  expect(await rowsOfStudy()).toEqual({ ...before, rounds: 2, assignments: 8 });
});

test("with the last round unreleased, items outside the rounds are closed until the lead opens them", async () => {
  const ann1 = asAccount(fx.accounts.ann1);
  const outside = await assignmentOf(ann1.id, 2);
  const review = fx.changes[2].reviews[0];
  const held = expect.stringContaining("outside the calibration rounds");
  await expect(data.getWorkspace(ann1.id, outside.id)).rejects.toMatchObject({ status: 423, message: held });
  expect(await saveInOneStatement(ann1, grade(outside.id, review, 3))).toBeNull();
  await expect(data.saveAnnotation(ann1, grade(outside.id, review, 3))).rejects.toMatchObject({ status: 423, message: held });
  await expect(data.recordTimeSpent(ann1.id, outside.id, 5000)).rejects.toMatchObject({ status: 423 });
  await expect(data.submitAssignment(ann1.id, outside.id)).rejects.toMatchObject({ status: 423 });
  await expect(data.skipAssignment(ann1.id, outside.id, "later")).rejects.toMatchObject({ status: 423 });
  expect(await db.referenceGrade.count({ where: { reviewId: review } })).toBe(0);
  expect(await db.assignment.findUniqueOrThrow({ where: { id: outside.id } })).toMatchObject({ status: "PENDING", timeSpentMs: 0 });

  // round 1's item is open, round 2's waits for its round, the outside ones for the last round
  expect((await data.getWorkspace(ann1.id, (await assignmentOf(ann1.id, 0)).id)).item.externalId).toBe("cc-0");
  await expect(data.getWorkspace(ann1.id, (await assignmentOf(ann1.id, 1)).id)).rejects.toMatchObject({ status: 423, message: expect.stringContaining("round 2") });
  const queue = (await listQueuesForAnnotator(ann1.id)).find((q) => q.study.slug === fx.slug)!;
  expect(queue.entries.map((e) => [e.codeChange.externalId, e.waiting])).toEqual([
    ["cc-0", null],
    ["cc-1", { kind: "round", round: 2, outside: false }],
    ...queue.entries.slice(2).map((e) => [e.codeChange.externalId, { kind: "round", round: 2, outside: true }]),
  ]);
  expect(queue.entries.slice(2).map((e) => e.waitingForRound)).toEqual([2, 2]);
  expect((await rounds.studyRounds(asLead(fx), fx.slug)).outside).toEqual({ codeChanges: 2, held: true, openedAt: null, lastRound: 2 });

  // only a lead of the study opens them
  await expect(rounds.openOutsideRounds({ id: fx.accounts.ann2, role: "LEAD" }, { slug: fx.slug })).rejects.toMatchObject({ status: 404 });
  await expect(data.getWorkspace(ann1.id, outside.id)).rejects.toMatchObject({ status: 423 });
  const { openedAt } = await rounds.openOutsideRounds(asLead(fx), { slug: fx.slug });
  expect((await rounds.studyRounds(asLead(fx), fx.slug)).outside).toEqual({ codeChanges: 2, held: false, openedAt, lastRound: 2 });
  expect((await data.getWorkspace(ann1.id, outside.id)).item.externalId).toBe("cc-2");
  expect(await saveInOneStatement(ann1, grade(outside.id, review, 3))).toMatchObject({ version: 1 });
  // round 2's own item still waits for round 2
  await expect(data.getWorkspace(ann1.id, (await assignmentOf(ann1.id, 1)).id)).rejects.toMatchObject({ status: 423, message: expect.stringContaining("round 2") });
});

test("without the lead opening them, the last round's release opens the items outside the rounds", async () => {
  await db.study.update({ where: { id: fx.studyId }, data: { outsideRoundsOpenedAt: null } });
  const ann2 = asAccount(fx.accounts.ann2);
  const outside = await assignmentOf(ann2.id, 3);
  await expect(data.getWorkspace(ann2.id, outside.id)).rejects.toMatchObject({ status: 423 });
  // round 1 closes (both annotators submit its item) and the lead releases round 2
  for (const accountId of [fx.accounts.ann1, fx.accounts.ann2]) {
    const first = await assignmentOf(accountId, 0);
    for (const review of fx.changes[0].reviews) await data.saveAnnotation(asAccount(accountId), grade(first.id, review, 4));
    await data.submitAssignment(accountId, first.id);
  }
  await expect(data.getWorkspace(ann2.id, outside.id)).rejects.toMatchObject({ status: 423 });
  await rounds.releaseRound(asLead(fx), { slug: fx.slug, number: 2, notes: "" });
  expect((await rounds.studyRounds(asLead(fx), fx.slug)).outside).toEqual({ codeChanges: 2, held: false, openedAt: null, lastRound: 2 });
  expect((await data.getWorkspace(ann2.id, outside.id)).item.externalId).toBe("cc-3");
  expect(await saveInOneStatement(ann2, grade(outside.id, fx.changes[3].reviews[0], 2))).toMatchObject({ version: 1 });
  const queue = (await listQueuesForAnnotator(ann2.id)).find((q) => q.study.slug === fx.slug)!;
  expect(queue.entries.every((e) => e.waiting === null)).toBe(true);
});
