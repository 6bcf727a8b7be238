/**
 * What waits for the lead, as the study's page counts it, against a real PostgreSQL: code changes
 * whose stage 1 every annotator finished and that are not consolidated (not those with stage 1
 * still open), claims and reviews rated differently and not adjudicated (not unanimous or
 * adjudicated ones), and code changes the calibration rounds hold; each count follows the lead's
 * consolidation, adjudication and opening of the items outside rounds, and another lead finds nothing.
 */
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { SaveRequest } from "@/lib/annotation/values";
import { asLead, asAccount, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const data = await import("@/lib/data/annotations");
const { generateAssignments, saveConsolidation } = await import("@/lib/data/assignment-admin");
const { saveConsensus } = await import("@/lib/data/adjudication");
const { createItemSet } = await import("@/lib/data/item-sets");
const rounds = await import("@/lib/data/rounds");
const { studyWaiting } = await import("@/lib/data/study-waiting");

let fx: AnnotationFixture;
let gated: AnnotationFixture;
const assignmentOf = (f: AnnotationFixture, accountId: string, change: number, task: string) => db.assignment.findFirstOrThrow({ where: { annotatorId: accountId, codeChangeId: f.changes[change].id, task: task as never } });

/** The annotator codes every claim of the change (claim 1 as `first`, the others correct) and submits stage 1. */
async function stage1(accountId: string, change: number, first: string) {
  const assignment = await assignmentOf(fx, accountId, change, "CLAIM_VERIFICATION");
  for (const [i, claim] of fx.changes[change].claims.entries()) {
    await data.saveAnnotation(asAccount(accountId), { kind: "judgement", assignmentId: assignment.id, targetId: claim, baseVersion: 0, value: { code: i === 0 ? first : "CORRECT", necessary: null, errorType: null, note: "" } } as SaveRequest);
  }
  await data.submitAssignment(accountId, assignment.id);
}

/** The annotator grades the change's reviews (the first ones as given, the others 1) and submits: unsubmitted grades are drafts, left out. */
async function grades(accountId: string, change: number, first: number[]) {
  const assignment = await assignmentOf(fx, accountId, change, "REFERENCE_GRADING");
  for (const [i, review] of fx.changes[change].reviews.entries()) {
    await data.saveAnnotation(asAccount(accountId), { kind: "grade", assignmentId: assignment.id, targetId: review, baseVersion: 0, value: { grade: first[i] ?? 1, comment: "" } } as SaveRequest);
  }
  await data.submitAssignment(accountId, assignment.id);
}

const adjudication = (waiting: Awaited<ReturnType<typeof studyWaiting>>) => Object.fromEntries(waiting.adjudication.map((a) => [a.task, a.items]));

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `wait${Date.now()}`, { stageOrder: true });
  await generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann1, fx.accounts.ann2]);
  gated = await createAnnotationFixture(db, `waitr${Date.now()}`);
  await db.study.update({ where: { id: gated.studyId }, data: { tasks: ["REFERENCE_GRADING"], reliabilitySetSize: 0 } });
  await db.studyMember.createMany({ data: [gated.accounts.ann1, gated.accounts.ann2].map((accountId) => ({ studyId: gated.studyId, accountId, role: "ANNOTATOR" as const })) });
});
afterAll(async () => {
  await removeAnnotationFixture(db, fx);
  await removeAnnotationFixture(db, gated);
});

test("consolidation and adjudication counts: what every annotator finished and nobody decided yet", async () => {
  expect(await studyWaiting(asLead(fx), fx.slug)).toEqual({
    round: null,
    consolidation: { codeChanges: 0, stage2Waits: true },
    adjudication: [
      { task: "CLAIM_VERIFICATION", items: 0 },
      { task: "REVIEW_RATING", items: 0 },
      { task: "REFERENCE_GRADING", items: 0 },
      { task: "COMMENT_FILTERING", items: 0 },
    ],
  });
  // change 0: both annotators finish stage 1, differing on claim 1; change 1: only ann1 has
  await stage1(fx.accounts.ann1, 0, "CORRECT");
  await stage1(fx.accounts.ann2, 0, "AMBIGUOUS");
  await stage1(fx.accounts.ann1, 1, "CORRECT");
  // grades of change 0: review 0 differs, review 1 is unanimous, review 2 differs and is adjudicated
  await grades(fx.accounts.ann1, 0, [3, 2, 5]);
  await grades(fx.accounts.ann2, 0, [4, 2, 1]);
  await saveConsensus(asLead(fx), { slug: fx.slug, task: "REFERENCE_GRADING", itemId: fx.changes[0].reviews[2], question: "grade", value: 4, reason: "discussed", baseVersion: 0 });
  let waiting = await studyWaiting(asLead(fx), fx.slug);
  expect(waiting.consolidation).toEqual({ codeChanges: 1, stage2Waits: true });
  expect(adjudication(waiting)).toEqual({ CLAIM_VERIFICATION: 1, REVIEW_RATING: 0, REFERENCE_GRADING: 1, COMMENT_FILTERING: 0 });

  // the lead consolidates change 0 and decides claim 1; ann2 finishes change 1's stage 1
  const refs = await db.pseudoReference.findMany({ where: { codeChangeId: fx.changes[0].id, kind: { not: "SMELL" } }, select: { id: true } });
  await saveConsolidation(asLead(fx), { slug: fx.slug, codeChangeId: fx.changes[0].id, decisions: refs.map((r) => ({ pseudoReferenceId: r.id, action: "KEEP" as const })) });
  await saveConsensus(asLead(fx), { slug: fx.slug, task: "CLAIM_VERIFICATION", itemId: fx.changes[0].claims[0], question: "code", value: "CORRECT", reason: "the diff shows it", baseVersion: 0 });
  await stage1(fx.accounts.ann2, 1, "CORRECT");
  waiting = await studyWaiting(asLead(fx), fx.slug);
  expect(waiting.consolidation).toEqual({ codeChanges: 1, stage2Waits: true });
  expect(adjudication(waiting)).toEqual({ CLAIM_VERIFICATION: 0, REVIEW_RATING: 0, REFERENCE_GRADING: 1, COMMENT_FILTERING: 0 });
  await db.study.update({ where: { id: fx.studyId }, data: { stageOrder: false } });
  expect((await studyWaiting(asLead(fx), fx.slug)).consolidation).toEqual({ codeChanges: 1, stage2Waits: false });

  // another lead, or an annotator, finds no such study
  await expect(studyWaiting({ id: gated.accounts.lead, role: "LEAD" }, fx.slug)).rejects.toMatchObject({ status: 404 });
  await expect(studyWaiting({ id: fx.accounts.ann1, role: "ANNOTATOR" }, fx.slug)).rejects.toMatchObject({ status: 404 });
});

test("round count: the code changes of unreleased rounds and, until opened, those outside the rounds", async () => {
  await createItemSet(asLead(gated), { slug: gated.slug, name: "batch-1", kind: "CALIBRATION", fileName: "b1.txt", text: "cc-0" });
  await createItemSet(asLead(gated), { slug: gated.slug, name: "batch-2", kind: "CALIBRATION", fileName: "b2.txt", text: "cc-1" });
  const input = { slug: gated.slug, itemSets: ["batch-1", "batch-2"] };
  await rounds.createRounds(asLead(gated), { ...input, confirm: (await rounds.previewRounds(asLead(gated), input)).key });
  expect((await studyWaiting(asLead(gated), gated.slug)).round).toEqual({ codeChanges: 2, nextRound: 2 });
  await rounds.openOutsideRounds(asLead(gated), { slug: gated.slug });
  expect((await studyWaiting(asLead(gated), gated.slug)).round).toEqual({ codeChanges: 1, nextRound: 2 });
  await db.calibrationRound.updateMany({ where: { studyId: gated.studyId }, data: { releasedAt: new Date() } });
  expect((await studyWaiting(asLead(gated), gated.slug)).round).toEqual({ codeChanges: 0, nextRound: null });
});
