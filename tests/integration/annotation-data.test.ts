/**
 * The annotation data layer against a real PostgreSQL: optimistic concurrency with history,
 * refusal of forged ids, the stage-2 set from stage 1, submit / skip / time.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { AppError } from "@/lib/errors";
import type { SaveRequest } from "@/lib/annotation/values";
import { asLead, asAccount, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const data = await import("@/lib/data/annotations");
const admin = await import("@/lib/data/assignment-admin");

let fx: AnnotationFixture;
let ann1: ReturnType<typeof asAccount>;
let ann2: ReturnType<typeof asAccount>;
const assignmentOf = async (accountId: string, codeChangeId: string, task: string) =>
  (await db.assignment.findFirstOrThrow({ where: { annotatorId: accountId, codeChangeId, task: task as never } })).id;

const claim = (code: string | null, note = "", extra: object = {}) => ({ code, necessary: null, errorType: null, note, ...extra }) as never;

async function expectStatus(promise: Promise<unknown>, status: number) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).status).toBe(status);
  return error as AppError;
}

afterAll(() => removeAnnotationFixture(db, fx));

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `d${Date.now()}`);
  ann1 = asAccount(fx.accounts.ann1);
  ann2 = asAccount(fx.accounts.ann2);
  // every annotator gets every item: 3 annotators per item
  await db.study.update({ where: { id: fx.studyId }, data: { annotatorsPerItem: 3 } });
  await admin.generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann1, fx.accounts.ann2, fx.accounts.ann3]);
});

describe("optimistic concurrency and history", () => {
  test("create, update, stale refusal with a CONFLICT row, idempotent retry", async () => {
    const change = fx.changes[0];
    const assignmentId = await assignmentOf(ann1.id, change.id, "CLAIM_VERIFICATION");
    const base = { kind: "judgement", assignmentId, targetId: change.claims[0] } as const;

    const created = await data.saveAnnotation(ann1, { ...base, baseVersion: 0, value: claim("CORRECT") } as SaveRequest);
    expect(created).toMatchObject({ version: 1, changed: true });
    const updated = await data.saveAnnotation(ann1, { ...base, baseVersion: 1, value: claim("INCORRECT", "misreads line 2", { errorType: "COMPREHENSION" }) } as SaveRequest);
    expect(updated.version).toBe(2);

    const refused = (await expectStatus(data.saveAnnotation(ann1, { ...base, baseVersion: 1, value: claim("UNVERIFIABLE", "stale tab") } as SaveRequest), 409)) as InstanceType<typeof data.ConflictError>;
    expect(refused).toBeInstanceOf(data.ConflictError);
    expect(refused.current).toMatchObject({ version: 2, value: { code: "INCORRECT", note: "misreads line 2" } });
    expect(refused.attempted).toMatchObject({ baseVersion: 1, value: { code: "UNVERIFIABLE" } });

    const row = await db.claimJudgement.findUniqueOrThrow({ where: { id: created.id! } });
    expect(row).toMatchObject({ version: 2, code: "INCORRECT", errorType: "COMPREHENSION", note: "misreads line 2" });

    const history = await db.annotationHistory.findMany({ where: { kind: "CLAIM_JUDGEMENT", annotationId: created.id! }, orderBy: { id: "asc" } });
    expect(history.map((h) => [h.action, h.baseVersion])).toEqual([
      ["CREATE", 0],
      ["UPDATE", 1],
      ["CONFLICT", 1],
    ]);
    expect(history[0].oldValue).toBeNull();
    expect(history[1].oldValue).toMatchObject({ code: "CORRECT" });
    expect(history[1].newValue).toMatchObject({ code: "INCORRECT" });
    expect(history[2].oldValue).toMatchObject({ code: "INCORRECT" });
    expect(history[2].newValue).toMatchObject({ code: "UNVERIFIABLE", note: "stale tab" });
    expect(history.every((h) => h.accountId === ann1.id)).toBe(true);

    // a retried request whose response was lost: same value, old base -> accepted, nothing written
    const retried = await data.saveAnnotation(ann1, { ...base, baseVersion: 1, value: claim("INCORRECT", "misreads line 2", { errorType: "COMPREHENSION" }) } as SaveRequest);
    expect(retried).toMatchObject({ version: 2, changed: false });
    expect(await db.annotationHistory.count({ where: { annotationId: created.id! } })).toBe(3);
  });

  test("two concurrent saves from the same version: one wins, the other is a conflict, history holds both", async () => {
    const change = fx.changes[0];
    const assignmentId = await assignmentOf(ann1.id, change.id, "REVIEW_RATING");
    const base = { kind: "rating", assignmentId, targetId: change.reviews[0] } as const;
    // stage 2 needs stage 1 only for reading the workspace; saving checks links against the set
    const first = await data.saveAnnotation(ann1, { ...base, baseVersion: 0, value: { scores: { conciseness: 3 }, links: [], comment: "" } } as SaveRequest);
    const results = await Promise.allSettled([
      data.saveAnnotation(ann1, { ...base, baseVersion: 1, value: { scores: { conciseness: 4 }, links: [{ pseudoReferenceId: change.smell, partial: false }], comment: "tab A" } } as SaveRequest),
      data.saveAnnotation(ann1, { ...base, baseVersion: 1, value: { scores: { conciseness: 2 }, links: [], comment: "tab B" } } as SaveRequest),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(data.ConflictError);
    const row = await db.reviewRating.findUniqueOrThrow({ where: { id: first.id! }, include: { links: true } });
    expect(row.version).toBe(2);
    const history = await db.annotationHistory.findMany({ where: { kind: "REVIEW_RATING", annotationId: first.id! }, orderBy: { id: "asc" } });
    expect(history.map((h) => h.action)).toEqual(["CREATE", "UPDATE", "CONFLICT"]);
    const comments = history.slice(1).map((h) => (h.newValue as { comment: string }).comment);
    expect(comments.sort()).toEqual(["tab A", "tab B"]);
    // the stored value is the winner's, links included
    expect(row.comment).toBe((history[1].newValue as { comment: string }).comment);
    expect(row.links.length).toBe(row.comment === "tab A" ? 1 : 0);
  });

  test("ratings are checked against the study's Likert dimensions and scale", async () => {
    const change = fx.changes[0];
    const assignmentId = await assignmentOf(ann1.id, change.id, "REVIEW_RATING");
    await expectStatus(data.saveAnnotation(ann1, { kind: "rating", assignmentId, targetId: change.reviews[1], baseVersion: 0, value: { scores: { conciseness: 9 }, links: [], comment: "" } }), 400);
    await expectStatus(data.saveAnnotation(ann1, { kind: "rating", assignmentId, targetId: change.reviews[1], baseVersion: 0, value: { scores: { beauty: 3 }, links: [], comment: "" } }), 400);
  });
});

describe("forged ids are refused and nothing is written", () => {
  test("another annotator's assignment, claims of other items, other annotators' added claims, wrong task", async () => {
    const change = fx.changes[1];
    const own1 = await assignmentOf(ann1.id, change.id, "CLAIM_VERIFICATION");
    const before = { judgements: await db.claimJudgement.count(), history: await db.annotationHistory.count(), refs: await db.pseudoReference.count() };

    // ann2 writes into ann1's assignment
    await expectStatus(data.saveAnnotation(ann2, { kind: "judgement", assignmentId: own1, targetId: change.claims[0], baseVersion: 0, value: claim("CORRECT") }), 404);
    // ann2 reads ann1's workspace, submits, skips, resumes, reports time on it
    await expectStatus(data.getWorkspace(ann2.id, own1), 404);
    await expectStatus(data.submitAssignment(ann2.id, own1), 404);
    await expectStatus(data.skipAssignment(ann2.id, own1, "not mine"), 404);
    await expectStatus(data.resumeAssignment(ann2.id, own1), 404);
    await expectStatus(data.recordTimeSpent(ann2.id, own1, 1000), 404);
    // a made-up id
    await expectStatus(data.saveAnnotation(ann1, { kind: "judgement", assignmentId: "cl_forged", targetId: change.claims[0], baseVersion: 0, value: claim("CORRECT") }), 404);
    // a claim of another item through ann1's own assignment
    await expectStatus(data.saveAnnotation(ann1, { kind: "judgement", assignmentId: own1, targetId: fx.changes[2].claims[0], baseVersion: 0, value: claim("CORRECT") }), 404);
    // a smell is not judged
    await expectStatus(data.saveAnnotation(ann1, { kind: "judgement", assignmentId: own1, targetId: change.smell, baseVersion: 0, value: claim("CORRECT") }), 404);
    // a review through a claim-verification assignment
    await expectStatus(data.saveAnnotation(ann1, { kind: "grade", assignmentId: own1, targetId: change.reviews[0], baseVersion: 0, value: { grade: 3, comment: "" } }), 400);
    // grading the reference review itself
    const grading = await assignmentOf(ann1.id, change.id, "REFERENCE_GRADING");
    await expectStatus(data.saveAnnotation(ann1, { kind: "grade", assignmentId: grading, targetId: change.reference, baseVersion: 0, value: { grade: 3, comment: "" } }), 404);
    expect({ judgements: await db.claimJudgement.count(), history: await db.annotationHistory.count(), refs: await db.pseudoReference.count() }).toEqual(before);

    // ann1 adds a claim; ann2 can neither edit nor delete it, by id or by a guessed client key
    const own2 = await assignmentOf(ann2.id, change.id, "CLAIM_VERIFICATION");
    const added = await data.saveAnnotation(ann1, { kind: "addedClaim", assignmentId: own1, targetId: "new:k1", baseVersion: 0, value: { text: "ann1's claim", correctsId: null } });
    await expectStatus(data.saveAnnotation(ann2, { kind: "addedClaim", assignmentId: own2, targetId: added.id!, baseVersion: 1, value: { text: "hijacked", correctsId: null } }), 404);
    await expectStatus(data.saveAnnotation(ann2, { kind: "addedClaim", assignmentId: own2, targetId: added.id!, baseVersion: 1, value: { text: "x", correctsId: null, deleted: true } }), 404);
    const mine = await data.saveAnnotation(ann2, { kind: "addedClaim", assignmentId: own2, targetId: "new:k1", baseVersion: 0, value: { text: "ann2's own claim", correctsId: null } });
    expect(mine.id).not.toBe(added.id);
    expect((await db.pseudoReference.findUniqueOrThrow({ where: { id: added.id! } })).text).toBe("ann1's claim");
    // ann2 does not see ann1's added claim
    const ws2 = await data.getWorkspace(ann2.id, own2);
    expect(ws2.claimVerification!.added.map((a) => a.id)).toEqual([mine.id]);
  });

  test("links to pseudo-references outside the annotator's stage-2 set are refused", async () => {
    const change = fx.changes[1];
    const rating = await assignmentOf(ann2.id, change.id, "REVIEW_RATING");
    const ann1Added = await db.pseudoReference.findFirstOrThrow({ where: { codeChangeId: change.id, addedById: ann1.id } });
    await expectStatus(
      data.saveAnnotation(ann2, { kind: "rating", assignmentId: rating, targetId: change.reviews[0], baseVersion: 0, value: { scores: {}, links: [{ pseudoReferenceId: ann1Added.id, partial: false }], comment: "" } }),
      400,
    );
  });
});

describe("stage 2 pseudo-references come from stage 1", () => {
  test("own stage 1 until a lead consolidates, then the consolidated set for everyone", async () => {
    const change = fx.changes[2];
    const [c0, c1, c2, impl] = change.claims;
    const stage1 = await assignmentOf(ann1.id, change.id, "CLAIM_VERIFICATION");
    const stage2 = await assignmentOf(ann1.id, change.id, "REVIEW_RATING");

    expect((await data.getWorkspace(ann1.id, stage2)).blockedBy?.assignmentId).toBe(stage1);
    const save = (targetId: string, value: object) => data.saveAnnotation(ann1, { kind: "judgement", assignmentId: stage1, targetId, baseVersion: 0, value: claim(null, "", value) });
    await save(c0, { code: "CORRECT" });
    await save(c1, { code: "INCORRECT", errorType: "REASONING" });
    await save(c2, { code: "INCOMPLETE" });
    await expectStatus(data.submitAssignment(ann1.id, stage1), 422);
    await save(impl, { code: "UNVERIFIABLE" });
    const correction = await data.saveAnnotation(ann1, { kind: "addedClaim", assignmentId: stage1, targetId: "new:fix", baseVersion: 0, value: { text: "corrected claim 1", correctsId: c1 } });
    const missing = await data.saveAnnotation(ann1, { kind: "addedClaim", assignmentId: stage1, targetId: "new:miss", baseVersion: 0, value: { text: "a missing claim", correctsId: null } });
    await data.submitAssignment(ann1.id, stage1);

    const ws = await data.getWorkspace(ann1.id, stage2);
    expect(ws.blockedBy).toBeNull();
    expect(ws.reviewRating!.stage2Source).toBe("own");
    expect(ws.reviewRating!.references.map((r) => [r.id, r.origin])).toEqual([
      [c0, "claim"],
      [correction.id, "replaced"],
      [change.smell, "smell"],
      [missing.id, "added"],
    ]);

    // ann2 did nothing in stage 1 yet: blocked; ann3's set (no judgements) is everything generated
    const ann2Stage2 = await assignmentOf(ann2.id, change.id, "REVIEW_RATING");
    expect((await data.getWorkspace(ann2.id, ann2Stage2)).blockedBy).not.toBeNull();
    const { references: raw } = await data.stage2ReferencesFor(db, fx.accounts.ann3, change.id);
    expect(raw.map((r) => r.id)).toEqual([c0, c1, c2, impl, change.smell]);

    // a lead consolidates: keep c0, replace c1 with the correction's text, drop c2 and impl, keep the missing claim
    const item = await admin.getConsolidationItem(asLead(fx), fx.slug, change.id);
    expect(item.claims.find((c) => c.id === c1)?.suggestion?.action).toBe("REPLACE");
    await expectStatus(admin.saveConsolidation(asLead(fx), { slug: fx.slug, codeChangeId: change.id, decisions: [{ pseudoReferenceId: c0, action: "KEEP" }] }), 400);
    await admin.saveConsolidation(asLead(fx), {
        slug: fx.slug,
        codeChangeId: change.id,
        decisions: [
          { pseudoReferenceId: c0, action: "KEEP" },
          { pseudoReferenceId: c1, action: "REPLACE", replacementText: "corrected claim 1 (lead)" },
          { pseudoReferenceId: c2, action: "DROP" },
          { pseudoReferenceId: impl, action: "DROP" },
          { pseudoReferenceId: correction.id!, action: "DROP" },
          { pseudoReferenceId: missing.id!, action: "KEEP" },
        ],
      });
    const consolidated = await data.getWorkspace(ann2.id, ann2Stage2);
    expect(consolidated.blockedBy).toBeNull();
    expect(consolidated.reviewRating!.stage2Source).toBe("consolidated");
    expect(consolidated.reviewRating!.references.map((r) => [r.id, r.text])).toEqual([
      [c0, `claim claim-0 of 2`],
      [c1, "corrected claim 1 (lead)"],
      [change.smell, "smell smell of 2"],
      [missing.id, "a missing claim"],
    ]);
    expect(await db.annotationHistory.count({ where: { kind: "CONSOLIDATION", accountId: fx.accounts.lead } })).toBe(6);
    // added claims a lead has consolidated can no longer be removed
    await expectStatus(data.saveAnnotation(ann1, { kind: "addedClaim", assignmentId: stage1, targetId: "new:miss", baseVersion: 1, value: { text: "a missing claim", correctsId: null, deleted: true } }), 409);
  });
});

describe("reviews per annotator", () => {
  test("shuffled per annotator, reproducibly, with system names hidden", async () => {
    const change = fx.changes[0];
    const a1 = await data.getWorkspace(ann1.id, await assignmentOf(ann1.id, change.id, "COMMENT_FILTERING"));
    const a1again = await data.getWorkspace(ann1.id, await assignmentOf(ann1.id, change.id, "COMMENT_FILTERING"));
    const a2 = await data.getWorkspace(ann2.id, await assignmentOf(ann2.id, change.id, "COMMENT_FILTERING"));
    const ids = (w: typeof a1) => w.commentFiltering!.reviews.map((r) => r.id);
    expect(ids(a1)).toEqual(ids(a1again));
    expect(ids(a1).slice().sort()).toEqual(ids(a2).slice().sort());
    expect(ids(a1)).not.toEqual(ids(a2));
    expect(a1.commentFiltering!.reviews.map((r) => r.label)).toEqual(["Review A", "Review B", "Review C", "Review D", "Review E", "Review F", "Review G", "Review H"]);
    expect(JSON.stringify(a1)).not.toMatch(/system-\d/);
    // grading shows the reference separately and grades only the generated reviews
    const g = await data.getWorkspace(ann1.id, await assignmentOf(ann1.id, change.id, "REFERENCE_GRADING"));
    expect(g.referenceGrading!.reference?.id).toBe(change.reference);
    expect(g.referenceGrading!.reviews.map((r) => r.id)).not.toContain(change.reference);

    await db.study.update({ where: { id: fx.studyId }, data: { hideSystemNames: false } });
    const shown = await data.getWorkspace(ann1.id, await assignmentOf(ann1.id, change.id, "COMMENT_FILTERING"));
    expect(shown.commentFiltering!.reviews.find((r) => r.id === change.reference)).toMatchObject({ system: "human", isReference: true });
    await db.study.update({ where: { id: fx.studyId }, data: { hideSystemNames: true } });
  });
});

describe("assignment life cycle", () => {
  test("submit needs every label; skip with a reason; resume; time spent per assignment and annotation", async () => {
    const change = fx.changes[0];
    const filtering = await assignmentOf(ann2.id, change.id, "COMMENT_FILTERING");
    await expectStatus(data.submitAssignment(ann2.id, filtering), 422);
    await expectStatus(data.skipAssignment(ann2.id, filtering, "x".repeat(5)).then(() => data.saveAnnotation(ann2, { kind: "label", assignmentId: filtering, targetId: change.reviews[0], baseVersion: 0, value: { highQuality: true, justification: "" } })), 423);
    expect(await db.assignment.findUniqueOrThrow({ where: { id: filtering } })).toMatchObject({ status: "SKIPPED", skipReason: "xxxxx" });
    await data.resumeAssignment(ann2.id, filtering);
    for (const review of [...change.reviews, change.reference]) {
      await data.saveAnnotation(ann2, { kind: "label", assignmentId: filtering, targetId: review, baseVersion: 0, value: { highQuality: review === change.reference, justification: "checked" } });
    }
    await data.recordTimeSpent(ann2.id, filtering, 12_000, { [`label:${change.reviews[0]}`]: 5_000, [`label:${fx.changes[1].reviews[0]}`]: 5_000 });
    await data.recordTimeSpent(ann2.id, filtering, 10 * 60_000);
    expect(await data.submitAssignment(ann2.id, filtering)).toEqual({ status: "DONE" });
    const done = await db.assignment.findUniqueOrThrow({ where: { id: filtering } });
    expect(done.status).toBe("DONE");
    expect(done.completedAt).not.toBeNull();
    expect(done.timeSpentMs).toBe(12_000 + data.MAX_TIME_REPORT_MS);
    const label = await db.commentFilteringLabel.findUniqueOrThrow({ where: { annotatorId_reviewId: { annotatorId: ann2.id, reviewId: change.reviews[0] } } });
    expect(label.timeSpentMs).toBe(5_000);
    await expectStatus(data.skipAssignment(ann2.id, filtering, "too late"), 409);
  });

  test("a refused submit names each review by the annotator's own label and the dimensions it lacks, and lists them", async () => {
    const ann3 = asAccount(fx.accounts.ann3);
    const change = fx.changes[1];
    const rating = await assignmentOf(ann3.id, change.id, "REVIEW_RATING");
    const reviews = (await data.getWorkspace(ann3.id, rating)).reviewRating!.reviews;
    expect(reviews.length).toBeGreaterThanOrEqual(3);
    const full = { conciseness: 4, comprehensiveness: 3, relevance: 5 };
    const scores = (i: number): Record<string, number> => (i === 1 ? { conciseness: 4, comprehensiveness: 3 } : i === reviews.length - 1 ? { comprehensiveness: 2 } : full);
    for (const [i, review] of reviews.entries()) await data.saveAnnotation(ann3, { kind: "rating", assignmentId: rating, targetId: review.id, baseVersion: 0, value: { scores: scores(i), links: [], comment: "" } });
    const refused = await expectStatus(data.submitAssignment(ann3.id, rating), 422);
    const [second, last] = [reviews[1], reviews[reviews.length - 1]];
    expect(refused.message).toBe(`Not complete yet, still missing: ${second.label}: relevance; ${last.label}: conciseness, relevance.`);
    expect(refused.details).toEqual({
      missing: [
        { kind: "rating", targetId: second.id, label: second.label, what: ["relevance"] },
        { kind: "rating", targetId: last.id, label: last.label, what: ["conciseness", "relevance"] },
      ],
    });
  });

  test("the next item skips items that wait, and the queue says what they wait for", async () => {
    const ann3 = asAccount(fx.accounts.ann3);
    const change = fx.changes[1];
    const [stage1, stage2, grading] = await Promise.all(["CLAIM_VERIFICATION", "REVIEW_RATING", "REFERENCE_GRADING"].map((t) => assignmentOf(ann3.id, change.id, t)));
    // queue order: stage 1, then stage 2 (after this stage 1), then grading
    for (const [i, id] of [stage1, stage2, grading].entries()) await db.assignment.update({ where: { id }, data: { position: 1000 + i } });
    const ws = await data.getWorkspace(ann3.id, stage1);
    expect(ws.queue.nextId).toBe(grading);
    expect(ws.queue.waiting).toBeGreaterThanOrEqual(1);
    const { listQueuesForAnnotator } = await import("@/lib/data/assignments");
    const entries = (await listQueuesForAnnotator(ann3.id)).find((q) => q.study.slug === fx.slug)!.entries;
    expect(entries.find((e) => e.id === stage2)).toMatchObject({ waiting: null, afterOwnStage1: true });
    expect(entries.find((e) => e.id === grading)).toMatchObject({ waiting: null, afterOwnStage1: false });
    expect((await data.getWorkspace(ann3.id, stage2)).blockedBy).toEqual({ assignmentId: stage1, message: expect.stringMatching(/^Finish claim verification/) });
    // with the stage order, a finished stage 1 still waits for its consolidation
    await db.assignment.update({ where: { id: stage1 }, data: { status: "DONE" } });
    await db.study.update({ where: { id: fx.studyId }, data: { stageOrder: true } });
    try {
      expect((await data.getWorkspace(ann3.id, stage2)).blockedBy?.message).toMatch(/opens once a lead has consolidated/);
      expect((await listQueuesForAnnotator(ann3.id)).find((q) => q.study.slug === fx.slug)!.entries.find((e) => e.id === stage2)).toMatchObject({ waiting: { kind: "consolidation" }, afterOwnStage1: false });
      expect((await data.getWorkspace(ann3.id, stage1)).queue.nextId).toBe(grading);
    } finally {
      await db.study.update({ where: { id: fx.studyId }, data: { stageOrder: false } });
    }
  });
});
