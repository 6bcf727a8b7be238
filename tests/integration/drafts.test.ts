/**
 * What counts: reports count submitted work; drafts (ratings of an assignment that is
 * not submitted) only on request, and the report says so; exports carry each answer's status,
 * import run and submission time, and filter by status, annotator and date (real PostgreSQL).
 */
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const { agreementReport, validityReport } = await import("@/lib/data/reports");
const { streamExport } = await import("@/lib/data/exports");

let fx: AnnotationFixture;
const completedAt = new Date("2026-01-02T03:04:05Z");

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `dr${Date.now()}`, { changes: 2 });
  // ann1 submitted both changes; ann2 submitted change 0 and is still working on change 1 (a draft).
  const assignment = (accountId: string, change: number, status: "DONE" | "IN_PROGRESS") =>
    db.assignment.create({ data: { studyId: fx.studyId, annotatorId: accountId, codeChangeId: fx.changes[change].id, task: "REVIEW_RATING", status, position: change, completedAt: status === "DONE" ? completedAt : null } });
  await assignment(fx.accounts.ann1, 0, "DONE");
  await assignment(fx.accounts.ann1, 1, "DONE");
  await assignment(fx.accounts.ann2, 0, "DONE");
  await assignment(fx.accounts.ann2, 1, "IN_PROGRESS");
  for (const [c, change] of fx.changes.entries()) {
    for (const [r, reviewId] of change.reviews.entries()) {
      await db.reviewRating.create({ data: { annotatorId: fx.accounts.ann1, reviewId: reviewId, scores: { relevance: 1 + (r % 5) } } });
      await db.reviewRating.create({ data: { annotatorId: fx.accounts.ann2, reviewId: reviewId, scores: { relevance: c === 0 ? 1 + (r % 5) : 5 - (r % 5) } } });
      await db.metricScore.create({ data: { reviewId: reviewId, metric: "exact-match", value: r % 2 } });
    }
  }
});
afterAll(async () => {
  await removeAnnotationFixture(db, fx);
  await db.$disconnect();
});

test("agreement and correlation count submitted work by default and drafts on request, and say which", async () => {
  const relevance = (r: Awaited<ReturnType<typeof agreementReport>>) => r.tasks[0].questions.find((q) => q.question === "relevance")!;
  const submitted = await agreementReport(fx.studyId, { task: "REVIEW_RATING", bootstrap: { nResamples: 0 } }, db);
  expect(submitted.settings.counted).toMatch(/^submitted work only/);
  expect(relevance(submitted).counts).toMatchObject({ ratings: 21, itemsWithTwoOrMoreRatings: 7, draftsLeftOut: 7 });
  // On change 0 the two agree on every review: alpha 1 without the draft.
  expect(relevance(submitted).coefficients.find((c) => c.key === "alpha")?.value).toBe(1);

  const withDrafts = await agreementReport(fx.studyId, { task: "REVIEW_RATING", includeDrafts: true, bootstrap: { nResamples: 0 } }, db);
  expect(withDrafts.settings.counted).toMatch(/^submitted work and drafts/);
  expect(relevance(withDrafts).counts).toMatchObject({ ratings: 28, itemsWithTwoOrMoreRatings: 14, draftsLeftOut: 0 });
  expect(relevance(withDrafts).coefficients.find((c) => c.key === "alpha")?.value).toBeLessThan(1);

  const correlation = await validityReport(fx.studyId, { metric: "exact-match", human: "relevance", bootstrap: { nResamples: 0 } }, db);
  expect(correlation.counts).toMatchObject({ paired: 14, draftsLeftOut: 7 });
  expect(correlation.settings.counted).toMatch(/^submitted work only/);
});

async function exportRows(filter: Parameters<typeof streamExport>[0] extends infer R ? (R extends { filter?: infer F } ? F : never) : never) {
  let text = "";
  for await (const chunk of streamExport({ studyId: fx.studyId, format: "long-csv", filter }, db)) text += chunk as string;
  // Each rating is also exported as its addressed and partially addressed claims (empty lists here).
  return (parse(text, { columns: true }) as Record<string, string>[]).filter((r) => r.question === "relevance");
}

test("the long export carries each answer's status, submission time and import run, and filters by status, annotator and date", async () => {
  const all = await exportRows({});
  expect(all).toHaveLength(28);
  const draft = all.find((r) => r.annotatorId === fx.accounts.ann2 && r.codeChange === "cc-1")!;
  expect(draft).toMatchObject({ status: "draft", submittedAt: "", importRun: "", importedFrom: "" });
  const done = all.find((r) => r.annotatorId === fx.accounts.ann2 && r.codeChange === "cc-0")!;
  expect(done).toMatchObject({ status: "submitted", submittedAt: completedAt.toISOString() });

  expect((await exportRows({ status: "submitted" })).map((r) => r.status)).toEqual(new Array(21).fill("submitted"));
  expect(await exportRows({ status: "draft" })).toHaveLength(7);
  const ann1 = await db.account.findUniqueOrThrow({ where: { id: fx.accounts.ann1 } });
  expect((await exportRows({ annotator: ann1.name })).every((r) => r.annotatorId === ann1.id)).toBe(true);
  expect(await exportRows({ annotator: ann1.id })).toHaveLength(14);
  expect(await exportRows({ from: new Date(Date.now() + 60_000) })).toHaveLength(0);
  expect(await exportRows({ from: new Date("2026-01-01"), to: new Date(Date.now() + 60_000) })).toHaveLength(28);
});
