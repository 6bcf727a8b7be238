/**
 * Dashboard reports with CIs as worker jobs: above the inline limit the web side computes only
 * the point estimates and enqueues the report; a worker computes it once for the data's state
 * and every later request serves it from the database; a change of the data asks again.
 */
import { afterAll, afterEach, expect, inject, test } from "vitest";
import { agreementReport, validityReport } from "@/lib/data/reports";
import { cachedValidityReport, dashboardState, studyFingerprint } from "@/lib/data/report-cache";
import { insertMetricScores } from "@/lib/data/metric-scores";
import { createClient } from "@/lib/db/client";
import { dashboardReport, routeReport, waitForReport } from "@/lib/analysis/report-jobs";
import { REPORT_QUEUE, startQueue } from "@/lib/jobs";
import { workReportJobs } from "@/lib/analysis/report-work";
import { seedDemo } from "@/lib/data/demo-study";

const url = inject("databaseUrl");
const db = createClient(url);
const inlineLimit = process.env.CRJUDGE_REPORT_INLINE_LIMIT;

afterEach(() => {
  if (inlineLimit === undefined) delete process.env.CRJUDGE_REPORT_INLINE_LIMIT;
  else process.env.CRJUDGE_REPORT_INLINE_LIMIT = inlineLimit;
});
afterAll(() => db.$disconnect());

test("the fingerprint changes when work is submitted, though no answer changed; time on task leaves it", async () => {
  const { studyId } = await seedDemo(db);
  const before = await studyFingerprint(studyId, false);
  expect(await studyFingerprint(studyId, false)).toBe(before);
  const open = await db.assignment.findFirstOrThrow({ where: { studyId, status: { not: "DONE" } } });
  await db.assignment.update({ where: { id: open.id }, data: { status: "DONE", completedAt: new Date() } });
  const submitted = await studyFingerprint(studyId, false);
  expect(submitted).not.toBe(before);
  await db.assignment.update({ where: { id: open.id }, data: { timeSpentMs: { increment: 5000 } } });
  // Time on task alone does not invalidate the reports.
  expect(await studyFingerprint(studyId, false)).toBe(submitted);
  await db.assignment.update({ where: { id: open.id }, data: { status: open.status, completedAt: open.completedAt, timeSpentMs: open.timeSpentMs } });
  expect(await studyFingerprint(studyId, false)).toBe(before);
});

test("the dashboards' state follows the study's item sets; the reports' fingerprint does not (a restricted report has the set's ids in its options)", async () => {
  const { studyId } = await seedDemo(db);
  const before = await dashboardState(studyId, false);
  expect(before.fingerprint).toBe(await studyFingerprint(studyId, false));
  const change = await db.codeChange.findFirstOrThrow({ where: { studyId } });
  const set = await db.itemSet.create({ data: { studyId, name: `fingerprint-${Date.now()}`, kind: "CUSTOM", members: { create: [{ codeChangeId: change.id, position: 0 }] } } });
  const withSet = await dashboardState(studyId, false);
  expect(withSet.itemSets).not.toBe(before.itemSets);
  expect(withSet.fingerprint).toBe(before.fingerprint);
  await db.itemSet.update({ where: { id: set.id }, data: { source: "replaced" } });
  expect((await dashboardState(studyId, false)).itemSets).not.toBe(withSet.itemSets);
  await db.itemSet.delete({ where: { id: set.id } });
  expect(await dashboardState(studyId, false)).toEqual(before);
});

test("above the inline limit the worker computes the agreement CIs once per state of the data; the web side serves them", async () => {
  const { studyId } = await seedDemo(db);
  await db.reportJob.deleteMany({ where: { studyId } });
  const options = { bootstrap: { nResamples: 200, seed: 7 } };
  const expected = JSON.parse(JSON.stringify(await agreementReport(studyId, options, db))) as unknown;

  // Small enough to compute in place: no job.
  const inline = await dashboardReport("agreement", studyId, options, await studyFingerprint(studyId, false));
  expect(inline).toMatchObject({ complete: true, job: null });
  expect(JSON.parse(JSON.stringify(inline.report))).toEqual(expected);

  process.env.CRJUDGE_REPORT_INLINE_LIMIT = "0";
  const fingerprint = await studyFingerprint(studyId, false);
  const first = await dashboardReport("agreement", studyId, options, fingerprint);
  expect(first.complete).toBe(false);
  expect(first.job?.status).toBe("QUEUED");
  // The point estimates, without CIs.
  const q = first.report.tasks[0].questions[0];
  expect(q.coefficients.every((c) => c.ci === null || c.ci === undefined)).toBe(true);
  // Asking again makes no second job; a route without a worker answers 503 with the progress.
  expect((await dashboardReport("agreement", studyId, options, fingerprint)).job?.status).toBe("QUEUED");
  expect(await db.reportJob.count({ where: { studyId } })).toBe(1);
  await expect(routeReport("agreement", studyId, options, fingerprint, 0)).rejects.toMatchObject({ code: "UNAVAILABLE", retryAfterSeconds: 10 });

  const worker = await startQueue(url);
  try {
    await workReportJobs(worker);
    const computed = await waitForReport("agreement", studyId, options, fingerprint, 60_000);
    expect(computed).toEqual(expected);
  } finally {
    await worker.stop({ graceful: true, wait: true });
  }
  const served = await dashboardReport("agreement", studyId, options, fingerprint);
  expect(served.complete).toBe(true);
  expect(served.report).toEqual(expected);
  expect(await routeReport("agreement", studyId, options, fingerprint, 0)).toEqual(expected);
  const [job] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM pgboss.job WHERE name = ${REPORT_QUEUE} AND data->>'reportJobId' IN (SELECT id FROM "ReportJob" WHERE "studyId" = ${studyId})`;
  expect(Number(job.n)).toBe(1);

  // Another state of the data is another job (the fingerprint is what keys it).
  const next = await dashboardReport("agreement", studyId, options, `${fingerprint.slice(0, -1)},"x":"1"}`);
  expect(next).toMatchObject({ complete: false, job: { status: "QUEUED" } });
  await db.reportJob.deleteMany({ where: { studyId } });
});

test("a validity report's level-free sections are computed once per state of the data: the system level with CIs reuses the segment's without", async () => {
  const { studyId } = await seedDemo(db);
  const reviews = await db.review.findMany({ where: { codeChange: { studyId } }, select: { id: true }, orderBy: { id: "asc" } });
  await insertMetricScores(reviews.map((r, i) => ({ reviewId: r.id, metric: "shared-sections", signature: "k", value: (i * 7) % 11 })), {}, db);
  const fingerprint = await studyFingerprint(studyId, true);
  const options = { metric: "shared-sections", human: "relevance" };
  const segment = await cachedValidityReport(studyId, { ...options, bootstrap: { nResamples: 0 } }, fingerprint);
  const system = await cachedValidityReport(studyId, { ...options, level: "system", bootstrap: { nResamples: 50 } }, fingerprint);
  // The same objects, not equal copies: computed once.
  expect(system.ksMatrix).toBe(segment.ksMatrix);
  expect(system.humanMetricAgreement).toBe(segment.humanMetricAgreement);
  expect(system).toEqual(await validityReport(studyId, { ...options, level: "system", bootstrap: { nResamples: 50 } }, db));
  // Another state of the data computes them again.
  await db.metricScore.updateMany({ where: { metric: "shared-sections", reviewId: reviews[0].id }, data: { value: 100 } });
  const changed = await cachedValidityReport(studyId, { ...options, level: "system", bootstrap: { nResamples: 0 } }, await studyFingerprint(studyId, true));
  expect(changed.ksMatrix).not.toBe(segment.ksMatrix);
  expect(changed.systems).toEqual((await validityReport(studyId, { ...options, level: "system", bootstrap: { nResamples: 0 } }, db)).systems);
});
