/**
 * Table 1's verdict policy on the database: the lead's consensus, else the first
 * assigned annotator's judgement, else the only one; drafts only on request (real PostgreSQL).
 */
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const { claimQualityReport } = await import("@/lib/data/reports");

let fx: AnnotationFixture;

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `t1${Date.now()}`, { changes: 2 });
  const assign = (accountId: string, change: number, status: "DONE" | "IN_PROGRESS", createdAt: string) =>
    db.assignment.create({ data: { studyId: fx.studyId, annotatorId: accountId, codeChangeId: fx.changes[change].id, task: "CLAIM_VERIFICATION", status, position: change, createdAt: new Date(createdAt) } });
  // Change 0: ann2 was assigned first, ann1 later; they disagree on every claim. Change 1: ann3's draft only.
  await assign(fx.accounts.ann2, 0, "DONE", "2026-01-01T00:00:00Z");
  await assign(fx.accounts.ann1, 0, "DONE", "2026-01-02T00:00:00Z");
  await assign(fx.accounts.ann3, 1, "IN_PROGRESS", "2026-01-01T00:00:00Z");
  for (const claim of fx.changes[0].claims) {
    // ann1 saves last: "most recently saved" would take ann1's codes.
    await db.claimJudgement.create({ data: { annotatorId: fx.accounts.ann2, pseudoReferenceId: claim, code: "INCORRECT" } });
    await db.claimJudgement.create({ data: { annotatorId: fx.accounts.ann1, pseudoReferenceId: claim, code: "CORRECT" } });
  }
  for (const claim of fx.changes[1].claims) await db.claimJudgement.create({ data: { annotatorId: fx.accounts.ann3, pseudoReferenceId: claim, code: "CORRECT" } });
  await db.consensus.create({ data: { studyId: fx.studyId, task: "CLAIM_VERIFICATION", itemId: fx.changes[0].claims[0], question: "code", value: "UNVERIFIABLE", decidedById: fx.accounts.lead } });
});
afterAll(async () => {
  await removeAnnotationFixture(db, fx);
  await db.$disconnect();
});

test("consensus first, then the first assigned annotator's judgement, never the most recently saved; drafts on request", async () => {
  const report = await claimQualityReport(fx.studyId, db);
  // 4 LLM claims per change (3 claims and an implication).
  expect(report.verdicts).toEqual({ consensus: 1, primary: 0, "first-assigned": 3, only: 0, unresolved: 0, unlabelled: 4 });
  expect(report.overall.counts).toMatchObject({ correct: 0, incorrect: 3, unverifiable: 1 });
  expect(report.counted).toMatch(/^submitted work only/);

  const withDrafts = await claimQualityReport(fx.studyId, db, "include");
  // ann3 is the first (and only) annotator assigned to change 1.
  expect(withDrafts.verdicts).toMatchObject({ consensus: 1, "first-assigned": 7, only: 0, unlabelled: 0 });
  expect(withDrafts.overall.counts).toMatchObject({ correct: 4, incorrect: 3, unverifiable: 1 });
});
