/**
 * CRScore stage order (issue 12) against a real PostgreSQL: on by default for a study with both
 * stages, stage 2 of an item stays closed after the annotator's own stage 1 until a lead
 * consolidates the item; turned off, the annotator's own stage 1 opens it.
 */
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { SaveRequest } from "@/lib/annotation/values";
import { asLead, asUser, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const data = await import("@/lib/data/annotations");
const admin = await import("@/lib/data/assignment-admin");
const { setStageOrder } = await import("@/lib/data/studies");

let fx: AnnotationFixture;
const assignmentOf = async (userId: string, codeChangeId: string, taskType: string) => (await db.assignment.findFirstOrThrow({ where: { userId, codeChangeId, taskType: taskType as never } })).id;

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `so${Date.now()}`);
  await db.study.update({ where: { id: fx.studyId }, data: { annotatorsPerItem: 3, stageOrder: null } });
  await admin.generateAssignments(asLead(fx), fx.slug, [fx.users.ann1, fx.users.ann2, fx.users.ann3]);
});
afterAll(() => removeAnnotationFixture(db, fx));

async function finishStage1(userId: string, changeIndex: number): Promise<void> {
  const change = fx.changes[changeIndex];
  const stage1 = await assignmentOf(userId, change.id, "CLAIM_VERIFICATION");
  const user = asUser(userId);
  for (const claimId of change.claims) await data.saveAnnotation(user, { kind: "claim", assignmentId: stage1, targetId: claimId, baseVersion: 0, value: { code: "CORRECT", necessary: null, errorType: null, note: "" } });
  await data.submitAssignment(userId, stage1);
}

test("stage 2 opens only after the item's stage 1 is consolidated; with the setting off, after the annotator's own stage 1", async () => {
  const ann1 = asUser(fx.users.ann1);
  const change = fx.changes[0];
  await finishStage1(ann1.id, 0);
  const stage2 = await assignmentOf(ann1.id, change.id, "REVIEW_RATING");
  const blocked = await data.getWorkspace(ann1.id, stage2);
  expect(blocked.blockedBy).toMatchObject({ assignmentId: null, message: expect.stringContaining("consolidated its stage 1") });
  const rating = { kind: "rating", assignmentId: stage2, targetId: change.reviews[0], baseVersion: 0, value: { scores: { relevance: 4 }, links: [], comment: "" } } as SaveRequest;
  await expect(data.saveAnnotation(ann1, rating)).rejects.toMatchObject({ status: 423 });
  expect(await db.reviewRating.count({ where: { annotatorId: ann1.id } })).toBe(0);

  const item = await admin.getConsolidationItem(asLead(fx), fx.slug, change.id);
  await admin.saveConsolidation(asLead(fx), { slug: fx.slug, codeChangeId: change.id, decisions: item.claims.filter((c) => c.kind !== "SMELL").map((c) => ({ pseudoReferenceId: c.id, action: "KEEP" as const })) });
  const open = await data.getWorkspace(ann1.id, stage2);
  expect(open.blockedBy).toBeNull();
  expect(open.rating!.stage2Source).toBe("consolidated");
  expect((await data.saveAnnotation(ann1, rating)).version).toBe(1);

  await setStageOrder(asLead(fx), fx.slug, false);
  await finishStage1(ann1.id, 1);
  const own = await data.getWorkspace(ann1.id, await assignmentOf(ann1.id, fx.changes[1].id, "REVIEW_RATING"));
  expect(own.blockedBy).toBeNull();
  expect(own.rating!.stage2Source).toBe("own");
});
