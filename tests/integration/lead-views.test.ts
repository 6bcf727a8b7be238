/**
 * Leads' views of annotators' work against a real PostgreSQL: the read-only
 * preview of an item is what the annotator's own workspace shows (their order of the reviews,
 * their answers), without answers when no annotator is chosen; the page of one annotator has
 * their progress, time on task, answers per item and their pairwise Cohen's kappa and agreement
 * with the consensus from the agreement report's own code. Viewing writes nothing; a lead of
 * another study, an annotator, or an annotator of another study gets nothing (404).
 */
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { SaveRequest } from "@/lib/annotation/values";
import { asLead, asAccount, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const data = await import("@/lib/data/annotations");
const admin = await import("@/lib/data/assignment-admin");
const views = await import("@/lib/data/lead-views");
const { taskReliability } = await import("@/lib/data/adjudication");

let a: AnnotationFixture;
let b: AnnotationFixture;
// ann1 and ann2 label the eight reviews of one change: they differ on the third only.
const ANN1 = [true, true, true, false, false, false, true, false];
const ANN2 = [true, true, false, false, false, false, true, false];

const assignmentOf = (accountId: string, task: "COMMENT_FILTERING" | "CLAIM_VERIFICATION", codeChangeId?: string) =>
  db.assignment.findFirstOrThrow({ where: { studyId: a.studyId, annotatorId: accountId, task, ...(codeChangeId ? { codeChangeId } : {}) }, orderBy: { position: "asc" } });

/** Counts and hashes of the tables a view could write to: equal before and after means nothing was written. */
async function written(): Promise<unknown> {
  const tables = ["Assignment", "ClaimJudgement", "CommentFilterLabel", "ReviewRating", "ReferenceGrade", "AnnotationHistory", "ReportJob", "PseudoReference", "Consensus"];
  return db.$queryRawUnsafe(`SELECT ${tables.map((t) => `(SELECT count(*) || ':' || coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '') FROM "${t}" x) AS "${t}"`).join(", ")}`);
}

let filterChange: string;
let claimChange: string;

beforeAll(async () => {
  a = await createAnnotationFixture(db, `views${Date.now()}a`);
  b = await createAnnotationFixture(db, `views${Date.now()}b`);
  await admin.generateAssignments(asLead(a), a.slug, [a.accounts.ann1, a.accounts.ann2]);
  await admin.generateAssignments(asLead(b), b.slug, [b.accounts.ann1, b.accounts.ann2]);
  // Both annotators have every item (2 per item): label one change's reviews through the real save, and submit.
  const first = await assignmentOf(a.accounts.ann1, "COMMENT_FILTERING");
  filterChange = first.codeChangeId;
  const change = a.changes.find((c) => c.id === filterChange)!;
  const reviews = [...change.reviews, change.reference];
  for (const [accountId, labels] of [
    [a.accounts.ann1, ANN1],
    [a.accounts.ann2, ANN2],
  ] as const) {
    const assignment = await assignmentOf(accountId, "COMMENT_FILTERING", filterChange);
    for (const [i, review] of reviews.entries()) {
      const save: SaveRequest = { kind: "label", assignmentId: assignment.id, targetId: review, baseVersion: 0, value: { highQuality: labels[i], justification: i === 0 ? `said by ${accountId}` : "" } };
      await data.saveAnnotation(asAccount(accountId), save);
    }
    await data.submitAssignment(accountId, assignment.id);
  }
  await data.recordTimeSpent(a.accounts.ann1, first.id, 4_200);
  // A draft: ann1 codes one claim of a change and does not submit it.
  const claimAssignment = await assignmentOf(a.accounts.ann1, "CLAIM_VERIFICATION");
  claimChange = claimAssignment.codeChangeId;
  const claim = a.changes.find((c) => c.id === claimChange)!.claims[1];
  await data.saveAnnotation(asAccount(a.accounts.ann1), { kind: "judgement", assignmentId: claimAssignment.id, targetId: claim, baseVersion: 0, value: { code: "INCORRECT", necessary: true, errorType: null, note: "wrong line" } });
});
afterAll(async () => {
  await removeAnnotationFixture(db, a);
  await removeAnnotationFixture(db, b);
});

test("the preview shows the item as the annotator's workspace does, with their answers; without an annotator, no answers", async () => {
  const before = await written();
  for (const accountId of [a.accounts.ann1, a.accounts.ann2]) {
    const assignment = await assignmentOf(accountId, "COMMENT_FILTERING", filterChange);
    const workspace = await data.getWorkspace(accountId, assignment.id);
    const preview = await views.codeChangePreview(asLead(a), a.slug, filterChange, { task: "COMMENT_FILTERING", annotatorId: accountId });
    expect(preview.data.commentFiltering).toEqual(workspace.commentFiltering);
    expect(preview.data.item).toEqual(workspace.item);
    expect(preview.data.sources).toEqual(workspace.sources);
    expect(preview.data.study).toEqual(workspace.study);
    expect(preview.annotators.find((p) => p.id === accountId)?.assignment?.status).toBe("DONE");
  }
  const ann1 = await views.codeChangePreview(asLead(a), a.slug, filterChange, { task: "COMMENT_FILTERING", annotatorId: a.accounts.ann1 });
  const ann2 = await views.codeChangePreview(asLead(a), a.slug, filterChange, { task: "COMMENT_FILTERING", annotatorId: a.accounts.ann2 });
  const third = a.changes.find((c) => c.id === filterChange)!.reviews[2];
  expect(ann1.data.commentFiltering!.labels[third].value.highQuality).toBe(true);
  expect(ann2.data.commentFiltering!.labels[third].value.highQuality).toBe(false);

  const nobody = await views.codeChangePreview(asLead(a), a.slug, filterChange, { task: "COMMENT_FILTERING" });
  expect(nobody.annotatorId).toBeNull();
  expect(nobody.data.commentFiltering!.labels).toEqual({});
  expect(nobody.data.commentFiltering!.reviews.map((r) => r.id).sort()).toEqual(ann1.data.commentFiltering!.reviews.map((r) => r.id).sort());
  expect(nobody.annotators.map((p) => p.id).sort()).toEqual([a.accounts.ann1, a.accounts.ann2].sort());

  // The claim task shows the annotator's draft judgement, and the study's first task is the default.
  const claims = await views.codeChangePreview(asLead(a), a.slug, claimChange, { annotatorId: a.accounts.ann1 });
  expect(claims.task).toBe("CLAIM_VERIFICATION");
  const claim = a.changes.find((c) => c.id === claimChange)!.claims[1];
  expect(claims.data.claimVerification!.judgements[claim].value).toMatchObject({ code: "INCORRECT", note: "wrong line" });
  expect(await written()).toEqual(before);
});

test("the annotator's page: progress per task, time on task, answers per item, and agreement from the agreement report", async () => {
  const before = await written();
  const overview = await views.annotatorOverview(asLead(a), a.slug, a.accounts.ann1);
  const assignments = await db.assignment.findMany({ where: { studyId: a.studyId, annotatorId: a.accounts.ann1 } });
  expect(overview.progress.total).toBe(assignments.length);
  expect(overview.progress.byTask.COMMENT_FILTERING).toMatchObject({ total: assignments.filter((x) => x.task === "COMMENT_FILTERING").length, done: 1, inProgress: 0 });
  expect(overview.progress.byTask.CLAIM_VERIFICATION).toMatchObject({ done: 0, inProgress: 1 });
  expect(overview.progress.timeSpentMs).toBe(4_200);
  const filtered = overview.items.find((i) => i.codeChangeId === filterChange && i.task === "COMMENT_FILTERING")!;
  expect(filtered).toMatchObject({ status: "DONE", timeSpentMs: 4_200 });
  expect(filtered.answers).toHaveLength(8);
  expect(filtered.answers.every((x) => x.answers.length === 1 && x.answers[0].question === "Actionable and verifiable comment")).toBe(true);
  const drafted = overview.items.find((i) => i.codeChangeId === claimChange && i.task === "CLAIM_VERIFICATION")!;
  expect(drafted.status).toBe("IN_PROGRESS");
  expect(drafted.answers).toEqual([{ item: "claim 2", answers: [{ question: "Claim accuracy code", value: expect.anything() }] }]);

  // Cohen's kappa with ann2 on the eight reviews: p_o = 7/8, p_e = 4/8·3/8 + 4/8·5/8 = 1/2, kappa = 0.75.
  const filtering = overview.agreement.find((x) => x.task === "COMMENT_FILTERING")!;
  expect(filtering.pairs).toHaveLength(1);
  expect(filtering.pairs[0].rater.id).toBe(a.accounts.ann2);
  expect(filtering.pairs[0].n).toBe(8);
  expect(filtering.pairs[0].value).toBeCloseTo(0.75, 10);
  const reliability = (await taskReliability(asLead(a), a.slug, "COMMENT_FILTERING"))[0].annotators.find((x) => x.rater === a.accounts.ann1)!;
  expect(filtering.withConsensus).toEqual(reliability.withConsensus);
  // Seven items agreed, but with two annotators their consensus is ann1's own answer: left out, not 7 of 7 (100 %).
  expect(filtering.withConsensus).toEqual({ agree: 0, n: 0, value: null, leftOut: 7 });
  // Drafts are not counted: the unsubmitted claim gives no agreement row.
  expect(overview.agreement.some((x) => x.task === "CLAIM_VERIFICATION")).toBe(false);
  expect(overview.counted).toMatch(/submitted work only/);
  expect(await written()).toEqual(before);
});

test("a lead of another study, an annotator, and annotators of another study get nothing", async () => {
  const notFound = { code: "NOT_FOUND" };
  await expect(views.codeChangePreview(asLead(b), a.slug, filterChange)).rejects.toMatchObject(notFound);
  await expect(views.codeChangePreview(asLead(b), b.slug, filterChange)).rejects.toMatchObject(notFound);
  await expect(views.annotatorOverview(asLead(b), a.slug, a.accounts.ann1)).rejects.toMatchObject(notFound);
  await expect(views.annotatorOverview(asLead(b), b.slug, a.accounts.ann1)).rejects.toMatchObject(notFound);
  await expect(views.codeChangePreview(asLead(a), a.slug, filterChange, { annotatorId: b.accounts.ann1 })).rejects.toMatchObject(notFound);
  await expect(views.annotatorOverview(asLead(a), a.slug, b.accounts.ann1)).rejects.toMatchObject(notFound);
  // the annotator role leads no study
  await expect(views.codeChangePreview(asAccount(a.accounts.ann1), a.slug, filterChange)).rejects.toMatchObject(notFound);
  await expect(views.annotatorOverview(asAccount(a.accounts.ann1), a.slug, a.accounts.ann1)).rejects.toMatchObject(notFound);
  // a task the study does not have
  await db.study.update({ where: { id: b.studyId }, data: { tasks: ["COMMENT_FILTERING"] } });
  await expect(views.codeChangePreview(asLead(b), b.slug, b.changes[0].id, { task: "REVIEW_RATING" })).rejects.toMatchObject(notFound);
  // an admin sees every study
  expect((await views.codeChangePreview({ id: "admin", role: "ADMIN" }, a.slug, filterChange)).data.item.id).toBe(filterChange);
});
