/**
 * CRScore stage order against a real PostgreSQL: on by default for a study with both
 * stages, stage 2 of an item stays closed after the annotator's own stage 1 until a lead
 * consolidates the item, and necessity is asked there over the consolidated set, smells
 * included, not in stage 1; turned off, the annotator's own stage 1 opens it and asks necessity.
 */
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { SaveRequest } from "@/lib/annotation/values";
import { asLead, asAccount, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const data = await import("@/lib/data/annotations");
const admin = await import("@/lib/data/assignment-admin");
const { setStageOrder } = await import("@/lib/data/studies");

let fx: AnnotationFixture;
const assignmentOf = async (accountId: string, codeChangeId: string, task: string) => (await db.assignment.findFirstOrThrow({ where: { annotatorId: accountId, codeChangeId, task: task as never } })).id;

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `so${Date.now()}`);
  await db.study.update({ where: { id: fx.studyId }, data: { annotatorsPerItem: 3, stageOrder: null } });
  await admin.generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann1, fx.accounts.ann2, fx.accounts.ann3]);
});
afterAll(() => removeAnnotationFixture(db, fx));

async function finishStage1(accountId: string, changeIndex: number): Promise<void> {
  const change = fx.changes[changeIndex];
  const stage1 = await assignmentOf(accountId, change.id, "CLAIM_VERIFICATION");
  const account = asAccount(accountId);
  for (const claimId of change.claims) await data.saveAnnotation(account, { kind: "judgement", assignmentId: stage1, targetId: claimId, baseVersion: 0, value: { code: "CORRECT", necessary: null, errorType: null, note: "" } });
  await data.submitAssignment(accountId, stage1);
}

test("stage 2 opens only after the item's stage 1 is consolidated; with the setting off, after the annotator's own stage 1", async () => {
  const ann1 = asAccount(fx.accounts.ann1);
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
  expect(open.reviewRating!.stage2Source).toBe("consolidated");
  expect((await data.saveAnnotation(ann1, rating)).version).toBe(1);

  await setStageOrder(asLead(fx), fx.slug, false);
  await finishStage1(ann1.id, 1);
  const own = await data.getWorkspace(ann1.id, await assignmentOf(ann1.id, fx.changes[1].id, "REVIEW_RATING"));
  expect(own.blockedBy).toBeNull();
  expect(own.reviewRating!.stage2Source).toBe("own");
});

test("with the setting on, necessity is asked in stage 2 over the consolidated set (smells included), not in stage 1; off, in stage 1 as before", async () => {
  const lead = asLead(fx);
  await setStageOrder(lead, fx.slug, true);
  const ann2 = asAccount(fx.accounts.ann2);
  const change = fx.changes[2];
  const stage1 = await assignmentOf(ann2.id, change.id, "CLAIM_VERIFICATION");
  const claimSave = (claimId: string, baseVersion: number, code: "CORRECT" | null, necessary: boolean | null) =>
    data.saveAnnotation(ann2, { kind: "judgement", assignmentId: stage1, targetId: claimId, baseVersion, value: { code, necessary, errorType: null, note: "" } });

  // stage 1 asks only the verdict: an "unnecessary" flag does not stand in for a code
  expect((await data.getWorkspace(ann2.id, stage1)).claimVerification!.askNecessity).toBe(false);
  await claimSave(change.claims[0], 0, null, false);
  for (const claimId of change.claims.slice(1)) await claimSave(claimId, 0, "CORRECT", null);
  await expect(data.submitAssignment(ann2.id, stage1)).rejects.toMatchObject({ status: 422, message: expect.stringContaining("still missing: Claim 1: code.") });
  await claimSave(change.claims[0], 1, "CORRECT", null);
  await data.submitAssignment(ann2.id, stage1);

  // stage 2 is closed before consolidation, necessity saves included
  const stage2 = await assignmentOf(ann2.id, change.id, "REVIEW_RATING");
  const necessity = (targetId: string, necessary: boolean, baseVersion = 0) => data.saveAnnotation(ann2, { kind: "necessity", assignmentId: stage2, targetId, baseVersion, value: { necessary } });
  await expect(necessity(change.smell, false)).rejects.toMatchObject({ status: 423 });

  // the lead drops claim 2; the consolidated set is claims 1, 3, the implication and the smell
  const item = await admin.getConsolidationItem(lead, fx.slug, change.id);
  const dropped = change.claims[1];
  await admin.saveConsolidation(lead, { slug: fx.slug, codeChangeId: change.id, decisions: item.claims.filter((c) => c.kind !== "SMELL").map((c) => ({ pseudoReferenceId: c.id, action: c.id === dropped ? ("DROP" as const) : ("KEEP" as const) })) });
  const open = await data.getWorkspace(ann2.id, stage2);
  const references = open.reviewRating!.references.map((r) => r.id);
  expect(references).toEqual([change.claims[0], change.claims[2], change.implication, change.smell]);
  // the stage-1 rows exist (version 2 for claim 1, 1 for the others) but carry no necessity yet
  expect(Object.keys(open.reviewRating!.necessity!).sort()).toEqual([change.claims[0], change.claims[2], change.implication].sort());
  expect(Object.values(open.reviewRating!.necessity!).every((n) => n.value.necessary === null)).toBe(true);
  await expect(necessity(dropped, true)).rejects.toMatchObject({ status: 404 });

  const study = await db.study.findUniqueOrThrow({ where: { id: fx.studyId }, select: { likertDimensions: true } });
  const scores = Object.fromEntries(study.likertDimensions.map((d) => [d, 3]));
  for (const reviewId of [...change.reviews, change.reference]) {
    await data.saveAnnotation(ann2, { kind: "rating", assignmentId: stage2, targetId: reviewId, baseVersion: 0, value: { scores, links: [{ pseudoReferenceId: change.smell, partial: false }], comment: "" } });
  }
  // named one by one, and listed for the workspace to show the first
  await expect(data.submitAssignment(ann2.id, stage2)).rejects.toMatchObject({
    status: 422,
    message: expect.stringContaining("still missing: Pseudo-reference 1: necessity; Pseudo-reference 2: necessity; Pseudo-reference 3: necessity; Pseudo-reference 4: necessity."),
    details: { missing: references.map((targetId, i) => ({ kind: "necessity", targetId, label: `Pseudo-reference ${i + 1}`, what: ["necessity"] })) },
  });
  const versions = new Map(Object.entries(open.reviewRating!.necessity!).map(([id, n]) => [id, n.version]));
  const unnecessary = new Set([change.smell, change.claims[2]]);
  for (const id of references) expect((await necessity(id, !unnecessary.has(id), versions.get(id) ?? 0)).changed).toBe(true);
  await data.submitAssignment(ann2.id, stage2);

  // a re-consolidation reads the stage-2 answer as what it is, not as a stage-1 "unnecessary" flag
  const again = await admin.getConsolidationItem(lead, fx.slug, change.id);
  const claim3 = again.claims.find((c) => c.id === change.claims[2])!;
  expect(claim3.verdicts.find((v) => v !== null)).toMatchObject({ code: "CORRECT", necessary: null });
  expect(claim3.suggestion).toMatchObject({ action: "KEEP", reason: "1 kept, 0 rejected" });

  // stored as the phase-2 import stores it: on the annotator's judgement of the pseudo-reference, the stage-1 code kept
  const stored = await db.claimJudgement.findMany({ where: { annotatorId: ann2.id, pseudoReference: { codeChangeId: change.id } }, select: { id: true, pseudoReferenceId: true, code: true, necessary: true } });
  const byRef = new Map(stored.map((j) => [j.pseudoReferenceId, j]));
  expect(byRef.get(change.smell)).toMatchObject({ code: null, necessary: false });
  expect(byRef.get(change.claims[0])).toMatchObject({ code: "CORRECT", necessary: true });
  expect(byRef.get(dropped)).toMatchObject({ code: "CORRECT", necessary: null });
  const reread = await data.getWorkspace(ann2.id, stage2);
  expect(reread.reviewRating!.necessity![change.smell].value.necessary).toBe(false);
  const history = await db.annotationHistory.findMany({ where: { annotationId: byRef.get(change.smell)!.id, kind: "CLAIM_JUDGEMENT" } });
  expect(history.map((h) => h.newValue)).toEqual([{ necessary: false }]);

  // off: necessity back in stage 1, none asked in stage 2
  await setStageOrder(lead, fx.slug, false);
  expect((await data.getWorkspace(ann2.id, stage1)).claimVerification!.askNecessity).toBe(true);
  expect((await data.getWorkspace(ann2.id, stage2)).reviewRating!.necessity).toBeUndefined();
  await expect(necessity(change.smell, true, 1)).rejects.toMatchObject({ status: 400 });
});
