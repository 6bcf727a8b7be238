/** Study membership: which studies an account leads, and that every lead query is scoped by it (real PostgreSQL). */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { AppError } from "@/lib/errors";
import { asLead, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";
import { imported, jsonlFile } from "./import-fixtures";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const access = await import("@/lib/data/study-access");
const admin = await import("@/lib/data/assignment-admin");
const overview = await import("@/lib/data/study-overview");
const annotations = await import("@/lib/data/annotations");
const { listQueuesForAnnotator } = await import("@/lib/data/assignments");
const { runImport } = await import("@/lib/data/imports");
const members = await import("@/lib/data/study-members");

let fx: AnnotationFixture;
// Session accounts as the data layer takes them; the ids need no account for reads.
const otherLead = { id: "other-lead-of-no-study", role: "LEAD" as const };
const anAdmin = { id: "some-admin", role: "ADMIN" as const };
const expect404 = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).status).toBe(404);
};

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `sa${Date.now()}`, { changes: 2 });
});
afterAll(async () => {
  await db.study.deleteMany({ where: { slug: { startsWith: `${fx.slug}-new` } } });
  await removeAnnotationFixture(db, fx);
});

describe("who leads a study", () => {
  test("the owner, LEAD members and admins find it; another lead and annotators find nothing", async () => {
    expect((await access.findLedStudy(asLead(fx), fx.slug))?.id).toBe(fx.studyId);
    expect((await access.findLedStudy(anAdmin, fx.slug))?.id).toBe(fx.studyId);
    expect(await access.findLedStudy(otherLead, fx.slug)).toBeNull();
    expect(await access.findLedStudy({ id: fx.accounts.lead, role: "ANNOTATOR" }, fx.slug)).toBeNull();
    await expect404(access.requireLedStudy(otherLead, fx.slug));
    // an ANNOTATOR membership gives no lead access, a LEAD membership does
    const member = { id: fx.accounts.ann3, role: "LEAD" as const };
    await db.studyMember.create({ data: { studyId: fx.studyId, accountId: fx.accounts.ann3, role: "ANNOTATOR" } });
    expect(await access.findLedStudy(member, fx.slug)).toBeNull();
    await db.studyMember.update({ where: { studyId_accountId: { studyId: fx.studyId, accountId: fx.accounts.ann3 } }, data: { role: "LEAD" } });
    expect((await access.findLedStudy(member, fx.slug))?.id).toBe(fx.studyId);
    await db.studyMember.delete({ where: { studyId_accountId: { studyId: fx.studyId, accountId: fx.accounts.ann3 } } });
  });

  test("lists, overviews and every assignment and consolidation call of another lead find nothing and change nothing", async () => {
    expect((await overview.listStudiesWithCounts(otherLead)).map((s) => s.id)).not.toContain(fx.studyId);
    expect((await overview.listStudiesWithCounts(asLead(fx))).map((s) => s.id)).toContain(fx.studyId);
    expect(await overview.getStudyOverview(otherLead, fx.slug)).toBeNull();
    const before = { study: await db.study.findUniqueOrThrow({ where: { id: fx.studyId } }), assignments: await db.assignment.count({ where: { studyId: fx.studyId } }) };
    await expect404(admin.getAssignmentAdmin(otherLead, fx.slug));
    await expect404(admin.updateAssignmentSettings(otherLead, { slug: fx.slug, annotatorsPerItem: 9, reliabilitySetSize: 0, assignmentSeed: 5 }));
    await expect404(admin.generateAssignments(otherLead, fx.slug, [fx.accounts.ann1]));
    await expect404(admin.listConsolidation(otherLead, fx.slug));
    await expect404(admin.getConsolidationItem(otherLead, fx.slug, fx.changes[0].id));
    await expect404(admin.saveConsolidation(otherLead, { slug: fx.slug, codeChangeId: fx.changes[0].id, decisions: [] }));
    expect(await db.study.findUniqueOrThrow({ where: { id: fx.studyId } })).toEqual(before.study);
    expect(await db.assignment.count({ where: { studyId: fx.studyId } })).toBe(before.assignments);
  });
});

describe("whom a lead may give work", () => {
  test("their own annotators, yes; another lead's annotator, a lead or an admin account, by id: refused, nothing written", async () => {
    const stamp = Date.now();
    const other = await createAnnotationFixture(db, `sb${stamp}`, { changes: 1 });
    try {
      // other's annotator belongs to other's study only.
      await admin.generateAssignments(asLead(other), other.slug, [other.accounts.ann1]);
      const adminAccount = await db.account.create({ data: { email: `sa-admin-${stamp}@test.local`, name: "Admin", role: "ADMIN" } });
      const leadAccount = await db.account.create({ data: { email: `sa-lead-${stamp}@test.local`, name: "Lead", role: "LEAD" } });
      const before = await db.assignment.count({ where: { studyId: fx.studyId } });
      for (const foreign of [other.accounts.ann1, leadAccount.id, adminAccount.id]) {
        await expect(admin.generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann2, foreign])).rejects.toMatchObject({ status: 400 });
        expect(await db.studyMember.findUnique({ where: { studyId_accountId: { studyId: fx.studyId, accountId: foreign } } })).toBeNull();
      }
      expect(await db.assignment.count({ where: { studyId: fx.studyId } })).toBe(before);
      // Nor on the members page (by e-mail): another lead's annotator is added by an admin.
      const foreignEmail = (await db.account.findUniqueOrThrow({ where: { id: other.accounts.ann1 } })).email;
      await expect(members.addStudyMember(asLead(fx), { slug: fx.slug, email: foreignEmail, role: "ANNOTATOR" })).rejects.toThrow(members.NOT_ADDABLE_MESSAGE);
      await members.addStudyMember(anAdmin, { slug: fx.slug, email: foreignEmail, role: "ANNOTATOR" });
      await admin.generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann2, other.accounts.ann1]);
      expect(await db.assignment.count({ where: { studyId: fx.studyId, annotatorId: other.accounts.ann1 } })).toBeGreaterThan(0);
      await db.assignment.deleteMany({ where: { studyId: fx.studyId, annotatorId: other.accounts.ann1 } });
      await db.studyMember.deleteMany({ where: { studyId: fx.studyId, accountId: other.accounts.ann1 } });
      // An annotator of no study may be given work by id, which adds them.
      const free = await db.account.create({ data: { email: `sa-free-${stamp}@test.local`, name: "Free", role: "ANNOTATOR" } });
      await admin.generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann2, free.id]);
      expect(await db.studyMember.findUnique({ where: { studyId_accountId: { studyId: fx.studyId, accountId: free.id } } })).toMatchObject({ role: "ANNOTATOR" });
      await db.assignment.deleteMany({ where: { studyId: fx.studyId, annotatorId: free.id } });
      await db.account.deleteMany({ where: { id: { in: [adminAccount.id, leadAccount.id, free.id] } } });
    } finally {
      await removeAnnotationFixture(db, other);
    }
  });
});

describe("annotators see their own assignments in studies they belong to", () => {
  test("generation makes them members; removed from the study, their queue and workspace are gone", async () => {
    await admin.generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann1]);
    expect(await db.studyMember.findUnique({ where: { studyId_accountId: { studyId: fx.studyId, accountId: fx.accounts.ann1 } } })).toMatchObject({ role: "ANNOTATOR" });
    const [queue] = await listQueuesForAnnotator(fx.accounts.ann1);
    const first = queue.entries[0].id;
    expect((await annotations.getWorkspace(fx.accounts.ann1, first)).assignment.id).toBe(first);

    await db.studyMember.delete({ where: { studyId_accountId: { studyId: fx.studyId, accountId: fx.accounts.ann1 } } });
    expect(await listQueuesForAnnotator(fx.accounts.ann1)).toEqual([]);
    await expect404(annotations.getWorkspace(fx.accounts.ann1, first));
    await expect404(annotations.skipAssignment(fx.accounts.ann1, first, "not a member"));
    expect((await db.assignment.findUniqueOrThrow({ where: { id: first } })).status).toBe("PENDING");
  });
});

describe("web imports", () => {
  const file = jsonlFile("changes.jsonl", ["a", "b"]);

  test("into another lead's study: 404 and nothing written; into a new slug: the importer owns the new study", async () => {
    const changes = await db.codeChange.count();
    await expect404(runImport({ study: fx.slug, format: "jsonl", files: [file], importer: otherLead, update: true }));
    expect(await db.codeChange.count()).toBe(changes);

    const owner = await db.account.findUniqueOrThrow({ where: { id: fx.accounts.lead } });
    const summary = imported(await runImport({ study: `${fx.slug}-new`, format: "jsonl", files: [file], importer: { id: owner.id, role: "LEAD" }, createdById: owner.id }));
    expect((await db.study.findUniqueOrThrow({ where: { id: summary.study.id } })).ownerId).toBe(owner.id);
    expect(await access.findLedStudy(otherLead, `${fx.slug}-new`)).toBeNull();
  });
});

describe("the members page", () => {
  test("a lead adds and removes members; only admins add leads; annotator accounts cannot lead; the owner cannot be removed; another lead finds nothing", async () => {
    const lead2 = await db.account.create({ data: { email: `lead2-${fx.slug}@test.local`, name: "Second lead", role: "LEAD" } });
    try {
      const ann2 = await db.account.findUniqueOrThrow({ where: { id: fx.accounts.ann2 } });
      const asLead2 = { id: lead2.id, role: "LEAD" as const };
      await expect404(members.addStudyMember(asLead2, { slug: fx.slug, email: lead2.email, role: "LEAD" }));
      await expect404(members.listStudyMembers(asLead2, fx.slug));
      await expect(members.addStudyMember(anAdmin, { slug: fx.slug, email: ann2.email, role: "LEAD" })).rejects.toThrow(/cannot lead/);
      await expect(members.addStudyMember(asLead(fx), { slug: fx.slug, email: lead2.email, role: "LEAD" })).rejects.toThrow(/Only an admin/);
      await expect(members.addStudyMember(asLead(fx), { slug: fx.slug, email: lead2.email, role: "ANNOTATOR" })).rejects.toThrow(members.NOT_ADDABLE_MESSAGE);
      await expect(members.addStudyMember(asLead(fx), { slug: fx.slug, email: "nobody@test.local", role: "ANNOTATOR" })).rejects.toThrow(members.NOT_ADDABLE_MESSAGE);

      await members.addStudyMember(anAdmin, { slug: fx.slug, email: lead2.email, role: "LEAD" });
      expect((await access.findLedStudy(asLead2, fx.slug))?.id).toBe(fx.studyId);
      const list = await members.listStudyMembers(asLead2, fx.slug);
      expect(list.members[0]).toMatchObject({ accountId: fx.accounts.lead, owner: true, role: "LEAD" });
      expect(list.members.find((m) => m.accountId === lead2.id)).toMatchObject({ role: "LEAD", owner: false });

      await expect(members.removeStudyMember(asLead2, { slug: fx.slug, accountId: fx.accounts.lead })).rejects.toThrow(/owner/);
      await members.removeStudyMember(asLead(fx), { slug: fx.slug, accountId: lead2.id });
      expect(await access.findLedStudy(asLead2, fx.slug)).toBeNull();
      await expect404(members.removeStudyMember(asLead(fx), { slug: fx.slug, accountId: lead2.id }));
    } finally {
      await db.account.delete({ where: { id: lead2.id } });
    }
  });
});
