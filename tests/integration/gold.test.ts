/**
 * Gold items and attention checks against a real PostgreSQL: a lead gives two
 * reviews of one change known grades; the change is mixed into each annotator's queue; the two
 * reviews' grades (not the change's other reviews) are left out of agreement and exports unless
 * asked for; the annotator who misses the gold grades is below
 * the chosen accuracy, and once paused can neither open nor save items (in the query and in the
 * one-statement save), until resumed. Finished items are timed in seconds, too-fast ones counted.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { SaveRequest } from "@/lib/annotation/values";
import { asLead, asAccount, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";
import { cli } from "./cli";
import { exportText } from "./import-fixtures";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const data = await import("@/lib/data/annotations");
const admin = await import("@/lib/data/assignment-admin");
const adjudication = await import("@/lib/data/adjudication");
const quality = await import("@/lib/data/quality");
const { gatherTaskColumns } = await import("@/lib/data/task-answers");
const { requireStudy } = await import("@/lib/data/studies");
const { listQueuesForAnnotator } = await import("@/lib/data/assignments");

/** The items of a task's first question that have ratings. */
const ratedItems = (columns: Awaited<ReturnType<typeof gatherTaskColumns>>) => new Set(Array.from(columns.questions[0].item, (u) => columns.items[u].id));

let fx: AnnotationFixture;
const GOLD = [4, 2];

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `gold${Date.now()}`);
  await db.study.update({ where: { id: fx.studyId }, data: { reliabilitySetSize: 0, annotatorsPerItem: 1 } });
  await quality.updateQualitySettings(asLead(fx), { slug: fx.slug, goldPerQueue: 1, goldMinAccuracyPercent: 75, minSecondsPerItem: 5 });
  for (const [i, grade] of GOLD.entries()) {
    await adjudication.saveConsensus(asLead(fx), { slug: fx.slug, task: "REFERENCE_GRADING", itemId: fx.changes[0].reviews[i], question: "grade", value: grade, reason: "known answer", baseVersion: 0, gold: true });
  }
  await admin.generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann1, fx.accounts.ann2]);
});
afterAll(() => removeAnnotationFixture(db, fx));

const goldAssignment = (accountId: string) => db.assignment.findFirstOrThrow({ where: { annotatorId: accountId, codeChangeId: fx.changes[0].id } });
const grade = (assignmentId: string, review: string, value: number): SaveRequest => ({ kind: "grade", assignmentId, targetId: review, baseVersion: 0, value: { grade: value, comment: "" } });

test("the gold item is in every queue, only for the task it has known answers for, among the other items", async () => {
  for (const accountId of [fx.accounts.ann1, fx.accounts.ann2]) {
    const queue = await db.assignment.findMany({ where: { annotatorId: accountId, studyId: fx.studyId }, orderBy: { position: "asc" } });
    expect(queue.filter((a) => a.codeChangeId === fx.changes[0].id).map((a) => a.task)).toEqual(["REFERENCE_GRADING"]);
    expect(queue.some((a) => a.codeChangeId !== fx.changes[0].id)).toBe(true);
  }
  // the regular items are shared out as before: each of the two other changes once per task
  expect(await db.assignment.count({ where: { studyId: fx.studyId, codeChangeId: fx.changes[1].id, task: "REFERENCE_GRADING" } })).toBe(1);
});

test("an annotator who misses the gold grades is below the accuracy; gold stays out of agreement and exports unless asked for", async () => {
  const [right, wrong] = [await goldAssignment(fx.accounts.ann1), await goldAssignment(fx.accounts.ann2)];
  for (const [i, known] of GOLD.entries()) {
    await data.saveAnnotation(asAccount(fx.accounts.ann1), grade(right.id, fx.changes[0].reviews[i], known));
    await data.saveAnnotation(asAccount(fx.accounts.ann2), grade(wrong.id, fx.changes[0].reviews[i], known === 4 ? 1 : 5));
  }
  await db.assignment.update({ where: { id: wrong.id }, data: { status: "DONE", timeSpentMs: 2_000 } });
  await db.assignment.update({ where: { id: right.id }, data: { status: "DONE", timeSpentMs: 42_000 } });

  const report = await quality.studyQuality(asLead(fx), fx.slug);
  expect(report.goldItems).toBe(1);
  const row = (accountId: string) => report.annotators.find((a) => a.annotatorId === accountId)!;
  expect(row(fx.accounts.ann1).gold).toMatchObject({ answered: 2, correct: 2, accuracy: 1 });
  expect(row(fx.accounts.ann1).lowAccuracy).toBe(false);
  expect(row(fx.accounts.ann2).gold).toMatchObject({ answered: 2, correct: 0, accuracy: 0 });
  expect(row(fx.accounts.ann2).gold!.misses.map((m) => [m.value, m.gold])).toEqual(expect.arrayContaining([[1, 4], [5, 2]]));
  expect(row(fx.accounts.ann2).lowAccuracy).toBe(true);
  expect(row(fx.accounts.ann2).pace).toEqual({ finished: 1, meanSeconds: 2, tooFast: 1 });
  expect(row(fx.accounts.ann1).pace).toEqual({ finished: 1, meanSeconds: 42, tooFast: 0 });

  const study = await requireStudy({ id: fx.studyId });
  const rated = async (mode?: "include") => ratedItems(await gatherTaskColumns(study, "REFERENCE_GRADING", db, { gold: mode }));
  expect([...(await rated())].some((item) => fx.changes[0].reviews.includes(item))).toBe(false);
  expect(await rated("include")).toContain(fx.changes[0].reviews[0]);

  const changesIn = async (includeGold: boolean) => new Set((parse(await exportText(db, fx.studyId, "long-csv", { includeGold }), { columns: true }) as Record<string, string>[]).map((r) => r.codeChange));
  expect(await changesIn(false)).not.toContain("cc-0");
  expect(await changesIn(true)).toContain("cc-0");
});

test("the command line leaves gold out of agreement and exports unless --include-gold, as the pages do", async () => {
  const gradeRatings = async (...flags: string[]) => {
    const result = await cli("agreement", "--study", fx.slug, "--task", "reference-grading", "--resamples", "0", ...flags);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { tasks: { task: string; questions: { counts: { ratings: number } }[] }[] };
    return report.tasks.find((t) => t.task === "REFERENCE_GRADING")?.questions[0]?.counts.ratings ?? 0;
  };
  expect(await gradeRatings()).toBe(0);
  expect(await gradeRatings("--include-gold")).toBe(4);

  const dir = mkdtempSync(path.join(tmpdir(), "crjudge-gold-"));
  try {
    const changesIn = async (...flags: string[]) => {
      const out = path.join(dir, `long${flags.length}.csv`);
      const result = await cli("export", "--study", fx.slug, "--format", "long", "--out", out, ...flags);
      expect(result.code, result.stderr).toBe(0);
      return new Set((parse(readFileSync(out, "utf8"), { columns: true }) as Record<string, string>[]).map((r) => r.codeChange));
    };
    expect(await changesIn()).not.toContain("cc-0");
    expect(await changesIn("--include-gold")).toContain("cc-0");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a known answer leaves out only its review for its task: the gold change's other reviews count in agreement and exports", async () => {
  const right = await goldAssignment(fx.accounts.ann1);
  await data.saveAnnotation(asAccount(fx.accounts.ann1), grade(right.id, fx.changes[0].reviews[2], 3));
  const study = await requireStudy({ id: fx.studyId });
  const rated = async (mode?: "only") => ratedItems(await gatherTaskColumns(study, "REFERENCE_GRADING", db, { gold: mode }));
  const kept = await rated();
  expect(kept.has(fx.changes[0].reviews[2])).toBe(true);
  expect(kept.has(fx.changes[0].reviews[0]) || kept.has(fx.changes[0].reviews[1])).toBe(false);
  expect([...(await rated("only"))].sort()).toEqual(fx.changes[0].reviews.slice(0, 2).sort());
  // accuracy still counts each known answer once
  const row = (await quality.studyQuality(asLead(fx), fx.slug)).annotators.find((a) => a.annotatorId === fx.accounts.ann1)!;
  expect(row.gold).toMatchObject({ answered: 2, correct: 2 });

  const itemsOfGoldChange = async (includeGold: boolean) =>
    (parse(await exportText(db, fx.studyId, "long-csv", { includeGold }), { columns: true }) as Record<string, string>[])
      .filter((r) => r.codeChange === "cc-0")
      .map((r) => r.item)
      .sort();
  expect(await itemsOfGoldChange(false)).toEqual(["r2"]);
  expect(await itemsOfGoldChange(true)).toEqual(["r0", "r0", "r1", "r1", "r2"]);
});

test("a paused annotator can neither open nor save items until resumed", async () => {
  const ann2 = asAccount(fx.accounts.ann2);
  const open = await db.assignment.findFirstOrThrow({ where: { annotatorId: ann2.id, task: "REFERENCE_GRADING", status: "PENDING" } });
  const change = fx.changes.find((c) => c.id === open.codeChangeId)!;
  await quality.setAnnotatorPaused(asLead(fx), { slug: fx.slug, annotatorId: ann2.id, paused: true, reason: "gold" });

  await expect(data.getWorkspace(ann2.id, open.id)).rejects.toMatchObject({ status: 423 });
  await expect(data.saveAnnotation(ann2, grade(open.id, change.reviews[0], 3))).rejects.toMatchObject({ status: 423 });
  await expect(data.submitAssignment(ann2.id, open.id)).rejects.toMatchObject({ status: 423 });
  expect(await db.referenceGrade.count({ where: { annotatorId: ann2.id, reviewId: change.reviews[0] } })).toBe(0);
  expect((await listQueuesForAnnotator(ann2.id)).find((q) => q.study.slug === fx.slug)?.paused).toBe(true);
  expect((await quality.studyQuality(asLead(fx), fx.slug)).annotators.find((a) => a.annotatorId === ann2.id)?.paused).toBe(true);
  // the other annotator works on
  const other = await db.assignment.findFirstOrThrow({ where: { annotatorId: fx.accounts.ann1, task: "REFERENCE_GRADING", status: "PENDING" } });
  await expect(data.getWorkspace(fx.accounts.ann1, other.id)).resolves.toBeTruthy();

  await quality.setAnnotatorPaused(asLead(fx), { slug: fx.slug, annotatorId: ann2.id, paused: false, reason: "" });
  expect((await data.saveAnnotation(ann2, grade(open.id, change.reviews[0], 3))).version).toBe(1);
  expect((await listQueuesForAnnotator(ann2.id)).find((q) => q.study.slug === fx.slug)?.paused).toBe(false);
});

test("only an annotator of the lead's own study can be paused", async () => {
  await expect(quality.setAnnotatorPaused(asLead(fx), { slug: fx.slug, annotatorId: fx.accounts.ann3, paused: true, reason: "" })).rejects.toMatchObject({ status: 404 });
  await expect(quality.setAnnotatorPaused({ id: fx.accounts.ann1, role: "LEAD" }, { slug: fx.slug, annotatorId: fx.accounts.ann2, paused: true, reason: "" })).rejects.toMatchObject({ status: 404 });
});
