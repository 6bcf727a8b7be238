/**
 * Calibration rounds against a real PostgreSQL: three equal rounds of a
 * grading study; both annotators get every round's items, round 1 first; items of a round not
 * released cannot be opened or saved (in the query and in the one-statement save); when round 1
 * closes its agreement has Fleiss' kappa with a bootstrap CI; the lead releases round 2 by hand
 * with notes; the rule (lower CI bound of Fleiss' kappa) releases round 3 by itself as soon as
 * the submit that closes round 2 makes it hold, or, on a study whose CIs the worker computes,
 * when the worker has computed them. Each release reaches the study's webhooks as round.released,
 * by hand or by the rule, whichever path released it.
 */
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { SaveRequest } from "@/lib/annotation/values";
import { asLead, asAccount, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const data = await import("@/lib/data/annotations");
const rounds = await import("@/lib/data/rounds");
const { listQueuesForAnnotator } = await import("@/lib/data/assignments");
const { processReportJob } = await import("@/lib/analysis/report-jobs");
const { onReportDone } = await import("@/lib/analysis/report-work");
const { sendQueue } = await import("@/lib/jobs");

let fx: AnnotationFixture;
const assignmentOf = (accountId: string, change: number) => db.assignment.findFirstOrThrow({ where: { annotatorId: accountId, codeChangeId: fx.changes[change].id } });

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `rounds${Date.now()}`);
  await db.study.update({ where: { id: fx.studyId }, data: { tasks: ["REFERENCE_GRADING"], reliabilitySetSize: 0 } });
  await db.studyMember.createMany({ data: [fx.accounts.ann1, fx.accounts.ann2].map((accountId) => ({ studyId: fx.studyId, accountId, role: "ANNOTATOR" as const })) });
});
afterAll(async () => {
  await (await sendQueue()).stop({ graceful: false, wait: true });
  await removeAnnotationFixture(db, fx);
});

/** The study's round.released events as its webhook recorded them: [round, how]. */
async function announcedReleases(studyId: string): Promise<[number, string][]> {
  const rows = await db.webhookDelivery.findMany({ where: { event: "round.released", webhook: { studyId } }, orderBy: { createdAt: "asc" }, select: { body: true } });
  return rows.map((r) => {
    const { data } = JSON.parse(r.body) as { data: { round: number; how: string } };
    return [data.round, data.how];
  });
}

/** Makes `count` equal rounds as the page does: the preview, then its confirmation. */
async function makeRounds(f: AnnotationFixture, count: number) {
  const preview = await rounds.previewRounds(asLead(f), { slug: f.slug, count });
  return rounds.createRounds(asLead(f), { slug: f.slug, count, confirm: preview.key });
}

/** Grades every review of the change (the grade of review i from `grades`) and submits. */
async function gradeChange(accountId: string, change: number, grades: (i: number) => number): Promise<void> {
  const assignment = await assignmentOf(accountId, change);
  for (const [i, review] of fx.changes[change].reviews.entries()) {
    await data.saveAnnotation(asAccount(accountId), { kind: "grade", assignmentId: assignment.id, targetId: review, baseVersion: 0, value: { grade: grades(i), comment: "" } } as SaveRequest);
  }
  await data.submitAssignment(accountId, assignment.id);
}

test("three rounds: every annotator labels each round's items, round by round; the next opens by hand, then by the rule", async () => {
  expect(await makeRounds(fx, 3)).toMatchObject({ rounds: 3 });
  await db.webhook.create({ data: { studyId: fx.studyId, url: "https://hooks.example.org/rounds", secret: "s".repeat(64) } });
  for (const accountId of [fx.accounts.ann1, fx.accounts.ann2]) {
    const queue = await db.assignment.findMany({ where: { annotatorId: accountId, studyId: fx.studyId }, orderBy: { position: "asc" }, select: { codeChangeId: true } });
    expect(queue.map((a) => a.codeChangeId)).toEqual(fx.changes.map((c) => c.id));
  }
  await expect(rounds.previewRounds(asLead(fx), { slug: fx.slug, count: 2 })).rejects.toMatchObject({ status: 409 });
  await expect(rounds.createRounds(asLead(fx), { slug: fx.slug, count: 2, confirm: "x" })).rejects.toMatchObject({ status: 409 });

  // round 2 is closed to annotators
  const ann1 = asAccount(fx.accounts.ann1);
  const second = await assignmentOf(ann1.id, 1);
  await expect(data.getWorkspace(ann1.id, second.id)).rejects.toMatchObject({ status: 423, message: expect.stringContaining("waiting for the next round") });
  await expect(data.saveAnnotation(ann1, { kind: "grade", assignmentId: second.id, targetId: fx.changes[1].reviews[0], baseVersion: 0, value: { grade: 3, comment: "" } })).rejects.toMatchObject({ status: 423 });
  expect(await db.referenceGrade.count({ where: { reviewId: fx.changes[1].reviews[0] } })).toBe(0);
  await expect(rounds.releaseRound(asLead(fx), { slug: fx.slug, number: 2, notes: "" })).rejects.toMatchObject({ status: 409 });

  // round 1: the annotators disagree on some grades
  await gradeChange(fx.accounts.ann1, 0, (i) => 1 + (i % 5));
  expect((await listQueuesForAnnotator(fx.accounts.ann1)).find((q) => q.study.slug === fx.slug)).toMatchObject({ waitingForNextRound: true });
  await gradeChange(fx.accounts.ann2, 0, (i) => (i < 4 ? 1 + (i % 5) : 1 + ((i + 1) % 5)));
  const view = await rounds.studyRounds(asLead(fx), fx.slug);
  expect(view.rounds.map((r) => [r.number, r.closed, r.releasedAt !== null])).toEqual([
    [1, true, true],
    [2, false, false],
    [3, false, false],
  ]);
  const fleiss = view.rounds[0].agreement!.report.tasks[0].questions[0].coefficients.find((c) => c.key === "fleiss")!;
  expect(fleiss.value).not.toBeNull();
  expect(fleiss.ci!.low).not.toBeNull();
  expect(fleiss.ci!.low!).toBeLessThanOrEqual(fleiss.value!);
  expect(view.rounds[0].agreement!.report.tasks[0].questions[0].disagreements.length).toBe(3);

  await rounds.releaseRound(asLead(fx), { slug: fx.slug, number: 2, notes: "grades 4 and 5 discussed" });
  expect((await data.getWorkspace(ann1.id, second.id)).assignment.id).toBe(second.id);
  expect((await rounds.studyRounds(asLead(fx), fx.slug)).rounds[0].notes).toBe("grades 4 and 5 discussed");

  // round 2 in full agreement: the submit that closes it opens round 3 by the rule, before any page load
  await rounds.setRoundRule(asLead(fx), { slug: fx.slug, coefficient: "fleiss", threshold: 0.6 });
  await gradeChange(fx.accounts.ann1, 1, (i) => 1 + (i % 5));
  expect((await db.calibrationRound.findFirstOrThrow({ where: { studyId: fx.studyId, number: 3 } })).releasedAt).toBeNull();
  await gradeChange(fx.accounts.ann2, 1, (i) => 1 + (i % 5));
  expect((await db.calibrationRound.findFirstOrThrow({ where: { studyId: fx.studyId, number: 3 } })).releasedHow).toContain("lower CI bound ≥ 0.6 on round 2");
  const queue = (await listQueuesForAnnotator(fx.accounts.ann1)).find((q) => q.study.slug === fx.slug)!;
  expect(queue.waitingForNextRound).toBe(false);
  expect(queue.entries.every((e) => e.waitingForRound === null)).toBe(true);
  const third = (await rounds.studyRounds(asLead(fx), fx.slug)).rounds[2];
  expect(third.releasedAt).not.toBeNull();
  expect(third.releasedHow).toContain("lower CI bound ≥ 0.6 on round 2");
  expect(await announcedReleases(fx.studyId)).toEqual([
    [2, "by hand"],
    [3, "by the study's rule"],
  ]);
});

test("above the report inline limit, the worker's computation of the closed round's CIs releases the next round", async () => {
  const inlineLimit = process.env.CRJUDGE_REPORT_INLINE_LIMIT;
  const big = await createAnnotationFixture(db, `rounds-worker${Date.now()}`, { changes: 2 });
  try {
    await db.study.update({ where: { id: big.studyId }, data: { tasks: ["REFERENCE_GRADING"], reliabilitySetSize: 0 } });
    await db.studyMember.createMany({ data: [big.accounts.ann1, big.accounts.ann2].map((accountId) => ({ studyId: big.studyId, accountId, role: "ANNOTATOR" as const })) });
    await makeRounds(big, 2);
    await rounds.setRoundRule(asLead(big), { slug: big.slug, coefficient: "fleiss", threshold: 0.6 });
    process.env.CRJUDGE_REPORT_INLINE_LIMIT = "0";
    for (const accountId of [big.accounts.ann1, big.accounts.ann2]) {
      const assignment = await db.assignment.findFirstOrThrow({ where: { annotatorId: accountId, codeChangeId: big.changes[0].id } });
      for (const [i, review] of big.changes[0].reviews.entries()) {
        await data.saveAnnotation(asAccount(accountId), { kind: "grade", assignmentId: assignment.id, targetId: review, baseVersion: 0, value: { grade: 1 + (i % 5), comment: "" } } as SaveRequest);
      }
      await data.submitAssignment(accountId, assignment.id);
    }
    // round 1 is closed, but its CIs wait for the worker: round 2 is not released yet
    const second = () => db.calibrationRound.findFirstOrThrow({ where: { studyId: big.studyId, number: 2 } });
    expect((await second()).releasedAt).toBeNull();
    const job = await db.reportJob.findFirstOrThrow({ where: { studyId: big.studyId, kind: "agreement", status: "QUEUED" } });
    // The worker's listener (scripts/worker.ts): the report job announces its report, the rounds release.
    const stopListening = onReportDone(async (report) => void (await rounds.releaseAfterReport(report)));
    try {
      await processReportJob(job.id);
    } finally {
      stopListening();
    }
    expect((await db.reportJob.findUniqueOrThrow({ where: { id: job.id } })).status).toBe("DONE");
    expect((await second()).releasedHow).toContain("lower CI bound ≥ 0.6 on round 1");
  } finally {
    if (inlineLimit === undefined) delete process.env.CRJUDGE_REPORT_INLINE_LIMIT;
    else process.env.CRJUDGE_REPORT_INLINE_LIMIT = inlineLimit;
    await removeAnnotationFixture(db, big);
  }
});
