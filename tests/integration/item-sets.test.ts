/**
 * Item sets: stored per study from a file of external ids, listed, read and deleted by
 * the study's leads only; the assignment plan stores the study's reliability set; agreement and
 * validity (library, CLI) restrict a report to a stored set and state it (real PostgreSQL).
 */
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { AppError } from "@/lib/errors";
import { asLead, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";
import { cli } from "./cli";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const sets = await import("@/lib/data/item-sets");
const admin = await import("@/lib/data/assignment-admin");
const { agreementReport, validityReport } = await import("@/lib/data/reports");

let fx: AnnotationFixture;
const otherLead = { id: "lead-of-no-study", role: "LEAD" as const };
const file = (name: string, lines: string[]) => {
  const p = path.join(os.tmpdir(), `${process.pid}-${name}`);
  writeFileSync(p, lines.join("\n"));
  return p;
};
const refused = async (promise: Promise<unknown>, status: number, message?: RegExp) => {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).status).toBe(status);
  if (message) expect((error as AppError).message).toMatch(message);
};

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `is${Date.now()}`, { changes: 3 });
  // Two annotators rate the relevance of every review of the three changes; they agree on cc-0 only.
  for (const [c, change] of fx.changes.entries()) {
    for (const [r, reviewId] of change.reviews.entries()) {
      await db.reviewRating.create({ data: { annotatorId: fx.accounts.ann1, reviewId: reviewId, scores: { relevance: 1 + ((r + c) % 5) } } });
      await db.reviewRating.create({ data: { annotatorId: fx.accounts.ann2, reviewId: reviewId, scores: { relevance: c === 0 ? 1 + ((r + c) % 5) : 1 + ((r * 3 + 1) % 5) } } });
    }
  }
});
afterAll(async () => {
  await removeAnnotationFixture(db, fx);
  await db.$disconnect();
});

describe("stored item sets", () => {
  test("a lead creates a set from a file of CODE_CHANGE_ID and CODE_CHANGE_ID/REVIEW_ID lines, lists, reads and deletes it", async () => {
    const created = await sets.createItemSet(asLead(fx), { slug: fx.slug, name: "batch 1", kind: "CALIBRATION", fileName: "batch1.txt", text: "\ufeff# first batch\r\ncc-0\r\n\r\ncc-1/r2\ncc-1/r3\ncc-0\n" });
    expect(created).toMatchObject({ name: "batch 1", kind: "CALIBRATION", source: "batch1.txt", size: 3, changes: 2 });
    const list = await sets.listItemSets(asLead(fx), fx.slug);
    expect(list.sets.map((s) => s.name)).toEqual(["batch 1"]);
    expect((await sets.readItemSet(asLead(fx), fx.slug, "batch 1")).ids).toEqual(["cc-0", "cc-1/r2", "cc-1/r3"]);
    expect(await sets.itemSetFilter(asLead(fx), fx.slug, "batch 1")).toEqual({ name: "batch 1", kind: "calibration batch", ids: ["cc-0", "cc-1/r2", "cc-1/r3"] });
    await refused(sets.createItemSet(asLead(fx), { slug: fx.slug, name: "batch 1", kind: "CUSTOM", fileName: "b.txt", text: "cc-2" }), 409, /already has an item set "batch 1"/);
    expect(await sets.deleteItemSet(asLead(fx), { slug: fx.slug, name: "batch 1" })).toEqual({ deleted: "batch 1" });
    await refused(sets.readItemSet(asLead(fx), fx.slug, "batch 1"), 404);
  });

  test("ids that name no item are listed and nothing is stored; a claim is named CODE_CHANGE_ID/CLAIM_ID", async () => {
    await refused(sets.createItemSet(asLead(fx), { slug: fx.slug, name: "bad", kind: "CUSTOM", fileName: "bad.txt", text: "cc-0\ncc-9\ncc-1/nope\n" }), 400, /2 of 3 ids in bad.txt name no item of study .*: cc-9, cc-1\/nope/);
    await refused(sets.createItemSet(asLead(fx), { slug: fx.slug, name: "empty", kind: "CUSTOM", fileName: "empty.txt", text: "# nothing\n" }), 400, /lists no item/);
    expect(await db.itemSet.count({ where: { studyId: fx.studyId } })).toBe(0);
    const claims = await sets.createItemSet(asLead(fx), { slug: fx.slug, name: "claims", kind: "HELD_OUT", fileName: "claims.txt", text: "cc-2/claim-1" });
    expect(claims).toMatchObject({ size: 1, changes: 1 });
    const member = await db.itemSetMember.findFirstOrThrow({ where: { itemSet: { studyId: fx.studyId, name: "claims" } } });
    expect(member).toMatchObject({ codeChangeId: fx.changes[2].id, pseudoReferenceId: fx.changes[2].claims[1], reviewId: null });
    await sets.deleteItemSet(asLead(fx), { slug: fx.slug, name: "claims" });
  });

  test("another lead's study answers 404 for every function, as if absent", async () => {
    await sets.createItemSet(asLead(fx), { slug: fx.slug, name: "mine", kind: "CUSTOM", fileName: "m.txt", text: "cc-0" });
    await refused(sets.listItemSets(otherLead, fx.slug), 404);
    await refused(sets.readItemSet(otherLead, fx.slug, "mine"), 404);
    await refused(sets.createItemSet(otherLead, { slug: fx.slug, name: "theirs", kind: "CUSTOM", fileName: "t.txt", text: "cc-0" }), 404);
    await refused(sets.deleteItemSet(otherLead, { slug: fx.slug, name: "mine" }), 404);
    await refused(sets.reportItemSets(otherLead, fx.slug, "mine"), 404);
    expect(await db.itemSet.count({ where: { studyId: fx.studyId, name: "mine" } })).toBe(1);
    await sets.deleteItemSet(asLead(fx), { slug: fx.slug, name: "mine" });
  });

  test("generating assignments stores the plan's reliability set (never the last items); a study has one reliability set; a plan without one removes it", async () => {
    await admin.updateAssignmentSettings(asLead(fx), { slug: fx.slug, annotatorsPerItem: 1, reliabilitySetSize: 2, assignmentSeed: 5 });
    await admin.generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann1, fx.accounts.ann2]);
    const stored = await sets.readItemSet(asLead(fx), fx.slug, sets.PLAN_RELIABILITY_SET);
    expect(stored).toMatchObject({ kind: "RELIABILITY", source: "assignment plan (seed 5)", size: 2 });
    const inPlan = await db.assignment.findMany({ where: { studyId: fx.studyId, inReliabilitySet: true }, select: { codeChange: { select: { externalId: true } } } });
    expect([...stored.ids].sort()).toEqual([...new Set(inPlan.map((a) => a.codeChange.externalId))].sort());
    await refused(sets.createItemSet(asLead(fx), { slug: fx.slug, name: "second", kind: "RELIABILITY", fileName: "r.txt", text: "cc-0" }), 409, /already has a reliability set \("reliability"\)/);

    // Submitted work counts (lib/analysis/drafts.ts): the annotators finish their assignments.
    await db.assignment.updateMany({ where: { studyId: fx.studyId }, data: { status: "DONE" } });
    const report = await agreementReport(fx.studyId, { task: "REVIEW_RATING", bootstrap: { nResamples: 0 }, ...(await sets.reportItemSets(asLead(fx), fx.slug)) }, db);
    const relevance = report.tasks[0].questions.find((q) => q.question === "relevance")!;
    expect(report.settings.reliabilitySet).toEqual({ name: "reliability", kind: "reliability", size: 2 });
    expect(relevance.reliabilitySet).toMatchObject({ items: 14, rule: expect.stringMatching(/reliability set "reliability" \(2 ids\)/) });

    await admin.updateAssignmentSettings(asLead(fx), { slug: fx.slug, annotatorsPerItem: 1, reliabilitySetSize: 0, assignmentSeed: 5 });
    await admin.generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann1, fx.accounts.ann2]);
    expect(await sets.reportItemSets(asLead(fx), fx.slug)).toEqual({});
    await db.assignment.deleteMany({ where: { studyId: fx.studyId } });
  });
});

describe("reports on a stored set", () => {
  test("agreement --item-set NAME and validity --item-set NAME print the reports restricted to the set, which they state", async () => {
    const created = await cli("item-sets", "create", "--study", fx.slug, "--name", "first change", "--kind", "held-out", "--file", file("first.txt", ["cc-0"]));
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: "first change", kind: "HELD_OUT", size: 1 });
    const listed = await cli("item-sets", "list", "--study", fx.slug);
    expect(JSON.parse(listed.stdout).map((s: { name: string }) => s.name)).toEqual(["first change"]);

    const printed = await cli("agreement", "--study", fx.slug, "--task", "review-rating", "--item-set", "first change", "--resamples", "0", "--json");
    expect(printed.code).toBe(0);
    const items = { name: "first change", kind: "held-out", ids: ["cc-0"] };
    const expected = await agreementReport(fx.studyId, { task: "REVIEW_RATING", items, bootstrap: { nResamples: 0 } }, db);
    expect(JSON.parse(printed.stdout)).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(expected.itemSet).toEqual({ name: "first change", kind: "held-out", size: 1, unmatched: [] });
    const relevance = expected.tasks[0].questions.find((q) => q.question === "relevance")!;
    // On cc-0 the two annotators agree on every review: alpha 1 at both levels.
    expect(relevance.counts.items).toBe(7);
    expect(relevance.coefficients.filter((c) => c.key.startsWith("alpha")).map((c) => [c.key, c.value])).toEqual([
      ["alpha", 1],
      ["alpha-interval", 1],
    ]);

    for (const [i, change] of fx.changes.entries()) {
      for (const [r, reviewId] of change.reviews.entries()) await db.metricScore.create({ data: { reviewId: reviewId, metric: "exact-match", value: (r + i) % 2 } });
    }
    const correlated = await cli("validity", "--study", fx.slug, "--metric", "exact-match", "--human", "relevance", "--item-set", "first change", "--resamples", "0", "--json");
    expect(correlated.code).toBe(0);
    const report = JSON.parse(correlated.stdout) as Awaited<ReturnType<typeof validityReport>>;
    expect(report.itemSet).toEqual({ name: "first change", kind: "held-out", size: 1, unmatched: [] });
    expect(report.counts.paired).toBe(7);
    expect(report).toEqual(JSON.parse(JSON.stringify(await validityReport(fx.studyId, { metric: "exact-match", human: "relevance", items, bootstrap: { nResamples: 0 } }, db))));

    const both = await cli("agreement", "--study", fx.slug, "--items", file("x.txt", ["cc-0"]), "--item-set", "first change", "--json");
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/either --items FILE or --item-set NAME/);
    const missing = await cli("agreement", "--study", fx.slug, "--item-set", "no such set", "--json");
    expect(missing.stderr).toMatch(/has no item set "no such set"/);
  });
});
