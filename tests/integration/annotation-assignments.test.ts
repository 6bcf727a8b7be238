/** Assignment generation (reproducible, seeded), reassignment and progress, on a real PostgreSQL. */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { asLead, asAccount, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";
import { AppError } from "@/lib/errors";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const admin = await import("@/lib/data/assignment-admin");
const data = await import("@/lib/data/annotations");

let fx: AnnotationFixture;
const snapshot = async (studyId: string) =>
  (await db.assignment.findMany({ where: { studyId }, select: { annotatorId: true, codeChangeId: true, task: true, position: true, inReliabilitySet: true, status: true } })).sort((a, b) =>
    `${a.annotatorId}|${a.position}`.localeCompare(`${b.annotatorId}|${b.position}`),
  );

afterAll(() => removeAnnotationFixture(db, fx));

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `a${Date.now()}`, { changes: 6 });
});

describe("assignment generation", () => {
  test("reproducible: the same settings give the same assignments, whatever the annotator order", async () => {
    const accounts = [fx.accounts.ann1, fx.accounts.ann2, fx.accounts.ann3];
    const first = await admin.generateAssignments(asLead(fx), fx.slug, accounts);
    expect(first).toMatchObject({ created: expect.any(Number), updated: 0, removed: 0, kept: 0, annotators: 3 });
    const a = await snapshot(fx.studyId);
    const again = await admin.generateAssignments(asLead(fx), fx.slug, accounts.slice().reverse());
    expect(again).toMatchObject({ created: 0, updated: 0, removed: 0 });
    expect(await snapshot(fx.studyId)).toEqual(a);

    // the same plan on a fresh copy of the study (another database state) gives the same rows
    const { planForStudy } = admin;
    const plan = (await planForStudy(asLead(fx), fx.slug, accounts)).plan;
    expect(plan.map((p) => [p.annotatorId, p.codeChangeId, p.task, p.position, p.inReliabilitySet])).toEqual(
      a.map((r) => [r.annotatorId, r.codeChangeId, r.task, r.position, r.inReliabilitySet]).sort((x, y) => `${x[0]}|${String(x[3]).padStart(4, "0")}`.localeCompare(`${y[0]}|${String(y[3]).padStart(4, "0")}`)),
    );
  });

  test("annotators per item and the shared reliability set", async () => {
    const rows = await snapshot(fx.studyId);
    const perItem = new Map<string, Set<string>>();
    for (const r of rows) perItem.set(r.codeChangeId, (perItem.get(r.codeChangeId) ?? new Set()).add(r.annotatorId));
    const reliability = new Set(rows.filter((r) => r.inReliabilitySet).map((r) => r.codeChangeId));
    expect(reliability.size).toBe(1);
    for (const [item, annotators] of perItem) expect(annotators.size).toBe(reliability.has(item) ? 3 : 2);
    // stage 1 of an item before its stage 2, per annotator
    for (const r of rows.filter((x) => x.task === "REVIEW_RATING")) {
      const s1 = rows.find((x) => x.annotatorId === r.annotatorId && x.codeChangeId === r.codeChangeId && x.task === "CLAIM_VERIFICATION")!;
      expect(s1.position).toBeLessThan(r.position);
    }
    const members = await db.studyMember.count({ where: { studyId: fx.studyId } });
    expect(members).toBe(3);
  });

  test("regenerating with other settings keeps started work and removes only untouched assignments", async () => {
    const started = await db.assignment.findFirstOrThrow({ where: { studyId: fx.studyId, annotatorId: fx.accounts.ann1, task: "CLAIM_VERIFICATION" }, orderBy: { position: "asc" } });
    const ref = await db.pseudoReference.findFirstOrThrow({ where: { codeChangeId: started.codeChangeId, kind: "CLAIM" } });
    await data.saveAnnotation(asAccount(fx.accounts.ann1), { kind: "judgement", assignmentId: started.id, targetId: ref.id, baseVersion: 0, value: { code: "CORRECT", necessary: null, errorType: null, note: "" } });
    expect((await db.assignment.findUniqueOrThrow({ where: { id: started.id } })).status).toBe("IN_PROGRESS");

    await admin.updateAssignmentSettings(asLead(fx), { slug: fx.slug, annotatorsPerItem: 1, reliabilitySetSize: 0, assignmentSeed: 99 });
    const summary = await admin.generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann1, fx.accounts.ann2, fx.accounts.ann3]);
    expect(summary.removed).toBeGreaterThan(0);
    expect(await db.assignment.findUnique({ where: { id: started.id } })).not.toBeNull();
    const rows = await snapshot(fx.studyId);
    // every annotator's queue positions are distinct
    for (const account of Object.values(fx.accounts)) {
      const positions = rows.filter((r) => r.annotatorId === account).map((r) => r.position);
      expect(new Set(positions).size).toBe(positions.length);
    }
    // back to the first settings: the first plan again (started work stays)
    await admin.updateAssignmentSettings(asLead(fx), { slug: fx.slug, annotatorsPerItem: 2, reliabilitySetSize: 1, assignmentSeed: 11 });
    await admin.generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann1, fx.accounts.ann2, fx.accounts.ann3]);
    const plan = (await admin.planForStudy(asLead(fx), fx.slug, [fx.accounts.ann1, fx.accounts.ann2, fx.accounts.ann3])).plan;
    const now = await snapshot(fx.studyId);
    for (const p of plan) expect(now.find((r) => r.annotatorId === p.annotatorId && r.codeChangeId === p.codeChangeId && r.task === p.task)?.position).toBe(p.position);
  });

  test("a preview counts what generating creates, moves, removes and keeps, writes nothing, and only its key makes it", async () => {
    const accounts = [fx.accounts.ann1, fx.accounts.ann2, fx.accounts.ann3];
    // other settings: the stored assignments would change
    await admin.updateAssignmentSettings(asLead(fx), { slug: fx.slug, annotatorsPerItem: 1, reliabilitySetSize: 0, assignmentSeed: 5 });
    const before = await snapshot(fx.studyId);
    const preview = await admin.previewGenerate(asLead(fx), fx.slug, accounts);
    expect(await snapshot(fx.studyId)).toEqual(before);
    expect(preview.annotators).toBe(3);
    expect(preview.effect.remove + preview.effect.update).toBeGreaterThan(0);
    // the same preview whatever the order the annotators are given in
    expect((await admin.previewGenerate(asLead(fx), fx.slug, accounts.slice().reverse())).key).toBe(preview.key);
    await expect(admin.generateAssignments(asLead(fx), fx.slug, accounts, "not-the-key")).rejects.toThrow(/changed since the preview: nothing was made/);
    expect(await snapshot(fx.studyId)).toEqual(before);
    const made = await admin.generateAssignments(asLead(fx), fx.slug, accounts, preview.key);
    expect([made.created, made.updated, made.removed, made.kept]).toEqual([preview.effect.create, preview.effect.update, preview.effect.remove, preview.effect.keep]);
    // made, the preview is stale: its key no longer makes anything
    await admin.updateAssignmentSettings(asLead(fx), { slug: fx.slug, annotatorsPerItem: 2, reliabilitySetSize: 1, assignmentSeed: 11 });
    await expect(admin.generateAssignments(asLead(fx), fx.slug, accounts, preview.key)).rejects.toThrow(/changed since the preview/);
    await admin.generateAssignments(asLead(fx), fx.slug, accounts);
  });

  test("bad input: unknown study, no such annotator, invalid settings", async () => {
    await expect(admin.generateAssignments(asLead(fx), "no-such-study", [fx.accounts.ann1])).rejects.toBeInstanceOf(AppError);
    await expect(admin.generateAssignments(asLead(fx), fx.slug, ["nobody"])).rejects.toThrow(/do not exist/);
    expect(admin.assignmentSettingsSchema.safeParse({ slug: fx.slug, annotatorsPerItem: 0, reliabilitySetSize: 0, assignmentSeed: 1 }).success).toBe(false);
  });
});

describe("reassigning and progress", () => {
  test("an open assignment moves to another annotator's queue end; submitted ones do not move", async () => {
    const target = fx.accounts.ann3;
    const candidates = await db.assignment.findMany({ where: { studyId: fx.studyId, annotatorId: fx.accounts.ann2, status: "PENDING" } });
    const held = await db.assignment.findMany({ where: { annotatorId: target }, select: { codeChangeId: true, task: true } });
    const isHeld = (a: { codeChangeId: string; task: string }) => held.some((h) => h.codeChangeId === a.codeChangeId && h.task === a.task);
    const open = candidates.find((a) => !isHeld(a))!;
    const taken = candidates.find(isHeld)!;
    await expect(admin.reassignAssignment(asLead(fx), fx.slug, taken.id, target)).rejects.toThrow(/already has/);
    const lastBefore = (await db.assignment.aggregate({ where: { studyId: fx.studyId, annotatorId: target }, _max: { position: true } }))._max.position ?? -1;
    await admin.reassignAssignment(asLead(fx), fx.slug, open.id, target);
    const moved = await db.assignment.findUniqueOrThrow({ where: { id: open.id } });
    expect(moved).toMatchObject({ annotatorId: target, status: "PENDING", position: lastBefore + 1 });
    // the old annotator can no longer open it; the new one can
    await expect(data.getWorkspace(fx.accounts.ann2, open.id)).rejects.toMatchObject({ status: 404 });
    await expect(data.getWorkspace(target, open.id)).resolves.toMatchObject({ assignment: { id: open.id } });
    const submitted = candidates.find((a) => a.id !== open.id && a.id !== taken.id)!;
    await db.assignment.update({ where: { id: submitted.id }, data: { status: "DONE" } });
    await expect(admin.reassignAssignment(asLead(fx), fx.slug, submitted.id, fx.accounts.ann1)).rejects.toThrow(/submitted/);
  });

  test("moving all open assignments, and the progress table", async () => {
    const result = await admin.reassignOpenAssignments(asLead(fx), fx.slug, fx.accounts.ann3, fx.accounts.ann2);
    expect(result.moved + result.clashes).toBeGreaterThan(0);
    const remaining = await db.assignment.count({ where: { studyId: fx.studyId, annotatorId: fx.accounts.ann3, status: { in: ["PENDING", "IN_PROGRESS", "SKIPPED"] } } });
    expect(remaining).toBe(result.clashes);
    const page = await admin.getAssignmentAdmin(asLead(fx), fx.slug);
    const ann1 = page.progress.find((p) => p.annotatorId === fx.accounts.ann1)!;
    expect(ann1.total).toBe(page.assignments.filter((a) => a.annotatorId === fx.accounts.ann1).length);
    expect(ann1.byTask.CLAIM_VERIFICATION?.inProgress).toBeGreaterThanOrEqual(1);
  });
});
