/**
 * The common save is one SQL statement (lib/data/annotation-statement.ts): counted where every
 * statement leaves the process, pg's `Client.query` (Prisma's adapter and `sql` both send through
 * it), on a real PostgreSQL. Its effects are those of the transaction it
 * replaces (row, version, append-only history with old and new value, assignment started), and
 * everything else (repeats, conflicts, refusals, ratings) still takes the transaction.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import pg from "pg";
import type { SaveRequest } from "@/lib/annotation/values";
import { asLead, asAccount, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

const url = inject("databaseUrl");
process.env.DATABASE_URL = url;
const statements: string[] = [];
const send = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements.push(typeof args[0] === "string" ? args[0] : (args[0] as { text: string }).text);
  return send.apply(this, args);
} as typeof pg.Client.prototype.query;
const { db: counted } = await import("@/lib/db/client");
const { saveAnnotation } = await import("@/lib/data/annotations");
const { generateAssignments } = await import("@/lib/data/assignment-admin");

let fx: AnnotationFixture;
const assignments: Record<string, string> = {};
beforeAll(async () => {
  fx = await createAnnotationFixture(counted, `s${Date.now()}`);
  await counted.study.update({ where: { id: fx.studyId }, data: { annotatorsPerItem: 3 } });
  await generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann1, fx.accounts.ann2, fx.accounts.ann3]);
  for (const a of await counted.assignment.findMany({ where: { annotatorId: fx.accounts.ann1, codeChangeId: fx.changes[0].id } })) assignments[a.task] = a.id;
});
afterAll(async () => {
  await removeAnnotationFixture(counted, fx);
  await counted.$disconnect();
});

/** The save's result and the statements it sent. */
async function save(request: SaveRequest) {
  statements.length = 0;
  const result = await saveAnnotation(asAccount(fx.accounts.ann1), request);
  return { result, statements: statements.length };
}

const history = (annotationId: string) => counted.annotationHistory.findMany({ where: { annotationId }, orderBy: { id: "asc" }, select: { action: true, baseVersion: true, oldValue: true, newValue: true, accountId: true } });

describe("a create or update of a claim, grade or filter label is one statement", () => {
  test("claim: create and update, with history and the assignment started", async () => {
    const base = { kind: "judgement", assignmentId: assignments.CLAIM_VERIFICATION, targetId: fx.changes[0].claims[0] } as const;
    const first = { code: "CORRECT", necessary: null, errorType: null, note: "" } as const;
    const created = await save({ ...base, baseVersion: 0, value: first } as SaveRequest);
    expect(created).toMatchObject({ statements: 1, result: { version: 1, changed: true, value: first } });
    expect((await counted.assignment.findUniqueOrThrow({ where: { id: assignments.CLAIM_VERIFICATION } })).status).toBe("IN_PROGRESS");

    const second = { code: "INCORRECT", necessary: true, errorType: "REASONING", note: "wrong line" } as const;
    const updated = await save({ ...base, baseVersion: 1, value: second } as SaveRequest);
    expect(updated).toMatchObject({ statements: 1, result: { id: created.result.id, version: 2, changed: true } });
    const row = await counted.claimJudgement.findUniqueOrThrow({ where: { id: created.result.id! } });
    expect(row).toMatchObject({ ...second, version: 2, annotatorId: fx.accounts.ann1 });
    expect(row.updatedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(row.updatedAt.getTime()).toBeLessThan(Date.now() + 1000);
    expect(await history(created.result.id!)).toEqual([
      { action: "CREATE", baseVersion: 0, oldValue: null, newValue: first, accountId: fx.accounts.ann1 },
      { action: "UPDATE", baseVersion: 1, oldValue: first, newValue: second, accountId: fx.accounts.ann1 },
    ]);

    // A repeat of the stored value is no change (the transaction says so); a stale save is a conflict.
    const repeat = await save({ ...base, baseVersion: 2, value: second } as SaveRequest);
    expect(repeat.result).toMatchObject({ version: 2, changed: false });
    await expect(save({ ...base, baseVersion: 1, value: first } as SaveRequest)).rejects.toMatchObject({ status: 409 });
    expect((await history(created.result.id!)).map((h) => h.action)).toEqual(["CREATE", "UPDATE", "CONFLICT"]);
  });

  test("grade and filter label: create and update in one statement each", async () => {
    const review = fx.changes[0].reviews[0];
    const grade = { kind: "grade", assignmentId: assignments.REFERENCE_GRADING, targetId: review } as const;
    const g1 = await save({ ...grade, baseVersion: 0, value: { grade: 2, comment: "" } } as SaveRequest);
    const g2 = await save({ ...grade, baseVersion: 1, value: { grade: 5, comment: "close" } } as SaveRequest);
    expect([g1.statements, g2.statements, g2.result.version]).toEqual([1, 1, 2]);
    expect(await counted.referenceGrade.findUniqueOrThrow({ where: { id: g1.result.id! } })).toMatchObject({ grade: 5, comment: "close", version: 2 });

    const filter = { kind: "label", assignmentId: assignments.COMMENT_FILTERING, targetId: review } as const;
    const f1 = await save({ ...filter, baseVersion: 0, value: { highQuality: true, justification: "" } } as SaveRequest);
    const f2 = await save({ ...filter, baseVersion: 1, value: { highQuality: false, justification: "vague" } } as SaveRequest);
    expect([f1.statements, f2.statements, f2.result.version]).toEqual([1, 1, 2]);
    expect(await history(f1.result.id!)).toEqual([
      { action: "CREATE", baseVersion: 0, oldValue: null, newValue: { highQuality: true, justification: "" }, accountId: fx.accounts.ann1 },
      { action: "UPDATE", baseVersion: 1, oldValue: { highQuality: true, justification: "" }, newValue: { highQuality: false, justification: "vague" }, accountId: fx.accounts.ann1 },
    ]);
  });

  test("refusals still come from the transaction: the reference review is not gradable, a claim save on a grading assignment is the wrong task, a non-member finds nothing", async () => {
    const reference = fx.changes[0].reference;
    await expect(save({ kind: "grade", assignmentId: assignments.REFERENCE_GRADING, targetId: reference, baseVersion: 0, value: { grade: 3, comment: "" } } as SaveRequest)).rejects.toMatchObject({ status: 404 });
    await expect(
      save({ kind: "judgement", assignmentId: assignments.REFERENCE_GRADING, targetId: fx.changes[0].claims[1], baseVersion: 0, value: { code: "CORRECT", necessary: null, errorType: null, note: "" } } as SaveRequest),
    ).rejects.toMatchObject({ status: 400 });
    expect(await counted.referenceGrade.count({ where: { reviewId: reference } })).toBe(0);

    // An annotator taken out of the study no longer reaches their assignments there.
    const membership = { studyId: fx.studyId, accountId: fx.accounts.ann1 };
    await counted.studyMember.deleteMany({ where: membership });
    const claim = { kind: "judgement", assignmentId: assignments.CLAIM_VERIFICATION, targetId: fx.changes[0].claims[2], baseVersion: 0, value: { code: "CORRECT", necessary: null, errorType: null, note: "" } } as SaveRequest;
    await expect(save(claim)).rejects.toMatchObject({ status: 404 });
    expect(await counted.claimJudgement.count({ where: { annotatorId: fx.accounts.ann1, pseudoReferenceId: fx.changes[0].claims[2] } })).toBe(0);
    await counted.studyMember.create({ data: { ...membership, role: "ANNOTATOR" } });
    expect((await save(claim)).statements).toBe(1);
  });

  test("the account is checked inside the statement: a token from before a password change, or a deactivated account, saves nothing", async () => {
    const claim = { kind: "judgement", assignmentId: assignments.CLAIM_VERIFICATION, targetId: fx.changes[0].claims[3], baseVersion: 0, value: { code: "CORRECT", necessary: null, errorType: null, note: "" } } as SaveRequest;
    const stored = () => counted.claimJudgement.count({ where: { annotatorId: fx.accounts.ann1, pseudoReferenceId: fx.changes[0].claims[3] } });
    await counted.account.update({ where: { id: fx.accounts.ann1 }, data: { sessionVersion: 1 } });
    await expect(save(claim)).rejects.toMatchObject({ status: 401 });
    expect(await stored()).toBe(0);
    await counted.account.update({ where: { id: fx.accounts.ann1 }, data: { sessionVersion: 0, active: false } });
    await expect(save(claim)).rejects.toMatchObject({ status: 401 });
    expect(await stored()).toBe(0);
    await counted.account.update({ where: { id: fx.accounts.ann1 }, data: { active: true } });
    expect((await save(claim)).statements).toBe(1);
    expect(await stored()).toBe(1);
  });
});
