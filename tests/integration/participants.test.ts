/**
 * Participants of crowd links against a real PostgreSQL: a closed link lets nobody in; the link
 * makes a participant (no e-mail, no password, an annotator of that study alone) and resumes them
 * in their own browser only; admitted participants take their quota from the pool, gold items
 * aside and never beyond the annotators an item asks; an idle participant's open items go back to
 * the pool through the participant-releases job, which looks again later while they are active.
 */
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const participants = await import("@/lib/data/participants");
const { startQueue, PARTICIPANT_RELEASE_QUEUE } = await import("@/lib/jobs");
const { scheduleRelease } = await import("@/lib/crowd/release");
const { handleParticipantRelease } = await import("@/lib/crowd/work");

let fx: AnnotationFixture;
const made: string[] = [];

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `crowd${Date.now()}`, { changes: 4 });
  await db.study.update({ where: { id: fx.studyId }, data: { tasks: ["REFERENCE_GRADING"], annotatorsPerItem: 1, crowdQuota: 2, crowdReleaseMinutes: 30 } });
  await db.consensus.create({ data: { studyId: fx.studyId, task: "REFERENCE_GRADING", itemId: fx.changes[3].reviews[0], question: "grade", value: 4, gold: true } });
});
afterAll(async () => {
  await db.account.deleteMany({ where: { id: { in: made } } });
  await removeAnnotationFixture(db, fx);
});

const join = async (id: string, browser: string | null = null) => {
  const joined = await participants.joinStudy(fx.slug, { platform: "prolific", id }, browser);
  made.push(joined.account.id);
  return joined;
};

test("a closed link lets nobody in; an open one makes a participant of that study alone, resumed in their browser only", async () => {
  await expect(join("p-one")).rejects.toMatchObject({ code: "NOT_FOUND" });
  await db.study.update({ where: { id: fx.studyId }, data: { crowdOpen: true } });
  const first = await join("p-one");
  expect(first.created).toBe(true);
  const account = await db.account.findUniqueOrThrow({ where: { id: first.account.id }, include: { memberships: true } });
  expect(account).toMatchObject({ role: "ANNOTATOR", passwordHash: null, crowdPlatform: "prolific", crowdId: "p-one", crowdStudyId: fx.studyId, name: "prolific p-one" });
  expect(account.email).toMatch(/^participant-[0-9a-f-]+@participants\.invalid$/);
  expect(account.memberships.map((m) => [m.studyId, m.role])).toEqual([[fx.studyId, "ANNOTATOR"]]);

  expect(await join("p-one", first.account.id)).toMatchObject({ created: false, account: { id: first.account.id } });
  await expect(join("p-one")).rejects.toMatchObject({ code: "FORBIDDEN" });
  await expect(join("p-one", fx.accounts.ann2)).rejects.toMatchObject({ code: "FORBIDDEN" });
  // A signed-in annotator with a password cannot become a participant in that browser either.
  await expect(join("p-new", fx.accounts.ann1)).rejects.toMatchObject({ code: "FORBIDDEN" });
  expect(await db.account.count({ where: { crowdId: "p-new" } })).toBe(0);
});

test("participants take their quota from the pool in study order, gold items aside, each item once", async () => {
  const one = (await db.account.findFirstOrThrow({ where: { crowdStudyId: fx.studyId, crowdId: "p-one" } })).id;
  const two = (await join("p-two")).account.id;
  const first = await participants.participation({ id: one }, fx.slug);
  expect(first).toMatchObject({ qualification: "none", took: 2, done: null });
  expect((await participants.participation({ id: one }, fx.slug)).took).toBe(0);
  const second = await participants.participation({ id: two }, fx.slug);
  expect(second.took).toBe(1);
  const changeOf = async (id: string) => (await db.assignment.findMany({ where: { annotatorId: id }, orderBy: { position: "asc" }, select: { codeChangeId: true } })).map((a) => a.codeChangeId);
  expect(await changeOf(one)).toEqual([fx.changes[0].id, fx.changes[1].id]);
  expect(await changeOf(two)).toEqual([fx.changes[2].id]);
  // another participant's study is none of theirs
  await expect(participants.participation({ id: one }, "demo")).rejects.toMatchObject({ code: "NOT_FOUND" });
  await expect(participants.participation({ id: fx.accounts.ann1 }, fx.slug)).rejects.toMatchObject({ code: "NOT_FOUND" });
});

test("the release job leaves an active participant alone and looks again later; once idle, their open items go back to the pool and their session ends", async () => {
  const two = await db.account.findFirstOrThrow({ where: { crowdStudyId: fx.studyId, crowdId: "p-two" } });
  const boss = await startQueue(inject("databaseUrl"), { supervise: false });
  try {
    await scheduleRelease(two.id, new Date(Date.now() - 1000), boss);
    const [job] = await boss.fetch<{ accountId: string }>(PARTICIPANT_RELEASE_QUEUE);
    expect(job.data).toEqual({ accountId: two.id });
    await handleParticipantRelease(boss, job.data);
    expect(await db.assignment.count({ where: { annotatorId: two.id, status: "SKIPPED" } })).toBe(0);
    // it looks again at the end of the release time (not yet due)
    expect(await boss.fetch(PARTICIPANT_RELEASE_QUEUE)).toEqual([]);
    const later = await boss.getQueueSize(PARTICIPANT_RELEASE_QUEUE, { before: "active" });
    expect(later).toBeGreaterThanOrEqual(1);

    const past = new Date(Date.now() - 31 * 60_000);
    await db.account.update({ where: { id: two.id }, data: { crowdSeenAt: past } });
    await db.$executeRaw`UPDATE "Assignment" SET "updatedAt" = ${past} WHERE "userId" = ${two.id}`;
    await handleParticipantRelease(boss, { accountId: two.id });
  } finally {
    await boss.stop({ graceful: true, wait: true });
  }
  expect(await db.assignment.findMany({ where: { annotatorId: two.id }, select: { status: true, skipReason: true } })).toEqual([{ status: "SKIPPED", skipReason: "released: idle for 30 minutes" }]);
  expect(await db.account.findUniqueOrThrow({ where: { id: two.id }, select: { active: true, sessionVersion: true } })).toEqual({ active: false, sessionVersion: two.sessionVersion + 1 });
  await expect(join("p-two", two.id)).rejects.toMatchObject({ code: "LOCKED" });
  // the released item goes to the next participant
  const three = (await join("p-three")).account.id;
  expect((await participants.participation({ id: three }, fx.slug)).took).toBe(1);
  expect((await db.assignment.findFirstOrThrow({ where: { annotatorId: three } })).codeChangeId).toBe(fx.changes[2].id);
});
