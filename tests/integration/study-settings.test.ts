/**
 * The study settings page's data layer against a real PostgreSQL: what the lead may
 * edit, what is refused because stored annotations depend on it (with how many), that the
 * annotators' workspace follows the new guidelines and hide-system-names (claims' generating
 * model included), and that another lead's study is untouched.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { crscoreCodebookTemplate } from "@/lib/annotation/guidelines-template";
import { AppError, toAppError } from "@/lib/errors";
import { asLead, asAccount, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const data = await import("@/lib/data/annotations");
const admin = await import("@/lib/data/assignment-admin");
const { editableSettings, studySettingsSchema, updateStudySettings, getStudySettings } = await import("@/lib/data/study-settings");

let fx: AnnotationFixture;
let other: AnnotationFixture;
const assignmentOf = async (accountId: string, codeChangeId: string, task: string) => (await db.assignment.findFirstOrThrow({ where: { annotatorId: accountId, codeChangeId, task: task as never } })).id;

/** The study's settings as the form sends them, with changes. */
async function settingsOf(f: AnnotationFixture, changes: object = {}) {
  const s = await db.study.findUniqueOrThrow({ where: { id: f.studyId } });
  return studySettingsSchema.parse({ slug: s.slug, ...editableSettings(s), ...changes });
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const studyRow = (f: AnnotationFixture) => db.study.findUniqueOrThrow({ where: { id: f.studyId }, omit: { updatedAt: true } });

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `ss${Date.now()}`);
  other = await createAnnotationFixture(db, `so${Date.now()}`);
  await admin.generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann1, fx.accounts.ann2]);
  await admin.generateAssignments(asLead(other), other.slug, [other.accounts.ann1, other.accounts.ann2]);
});
afterAll(async () => {
  await removeAnnotationFixture(db, fx);
  await removeAnnotationFixture(db, other);
});

describe("validation", () => {
  test.each([
    ["a study needs a name", { name: "  " }],
    ["choose at least one task", { tasks: [] }],
    ["each task once", { tasks: ["REVIEW_RATING", "REVIEW_RATING"] }],
    ["tasks", { tasks: ["SUMMARIZING"] }],
    ["at least one Likert dimension", { likertDimensions: [] }],
    ["each Likert dimension once", { likertDimensions: ["relevance", "Relevance"] }],
    ["another task's question", { likertDimensions: ["grade"] }],
    ["lowercase letters, digits and dashes", { likertDimensions: ["two words"] }],
    ["the top of the Likert scale must be above its bottom", { likertMin: 5, likertMax: 5 }],
    ["likertMax", { likertMax: 11 }],
    ["at least 1 annotator per item", { annotatorsPerItem: 0 }],
    ["at most 200,000 characters", { guidelines: "x".repeat(200_001) }],
  ])("refused: %s", async (why, changes) => {
    const error = await refusal(
      settingsOf(fx, changes).catch((e: unknown) => {
        throw toAppError(e);
      }),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toContain(why);
  });

  test("dimensions are trimmed and lower-cased", async () => {
    expect((await settingsOf(fx, { likertDimensions: [" Clarity ", "relevance"] })).likertDimensions).toEqual(["clarity", "relevance"]);
  });
});

describe("editing", () => {
  test("name, guidelines, hide-system-names and annotators per item reach the annotators' workspace; annotators per item only notes future plans", async () => {
    const guidelines = `# Our codebook\n\nRate **carefully**.\n\n${crscoreCodebookTemplate()}`;
    const before = await db.assignment.count({ where: { studyId: fx.studyId } });
    const { notes } = await updateStudySettings(asLead(fx), await settingsOf(fx, { name: "Renamed study", guidelines, hideSystemNames: false, annotatorsPerItem: 3 }));
    expect(notes).toEqual([expect.stringContaining("applies to the next assignment plan")]);
    expect(await db.assignment.count({ where: { studyId: fx.studyId } })).toBe(before);
    expect(await studyRow(fx)).toMatchObject({ name: "Renamed study", guidelines, hideSystemNames: false, annotatorsPerItem: 3 });

    const claims = await assignmentOf(fx.accounts.ann1, fx.changes[0].id, "CLAIM_VERIFICATION");
    const shown = await data.getWorkspace(fx.accounts.ann1, claims);
    expect(shown.study).toMatchObject({ name: "Renamed study", guidelines });
    expect(shown.claimVerification!.references.map((r) => r.source)).toContain("model");

    await updateStudySettings(asLead(fx), await settingsOf(fx, { hideSystemNames: true }));
    const hidden = await data.getWorkspace(fx.accounts.ann1, claims);
    // the model that generated the claims is hidden too, not only the review systems
    expect(hidden.claimVerification!.references.every((r) => r.source === "")).toBe(true);
    expect(JSON.stringify(hidden)).not.toContain('"model"');
  });

  test("removing claim verification ends CRScore's stage order, so review rating is not held waiting for a consolidation that cannot come", async () => {
    await db.study.update({ where: { id: other.studyId }, data: { stageOrder: true } });
    const rating = await assignmentOf(other.accounts.ann1, other.changes[0].id, "REVIEW_RATING");
    expect((await data.getWorkspace(other.accounts.ann1, rating)).blockedBy).not.toBeNull();
    const { notes } = await updateStudySettings(asLead(other), await settingsOf(other, { tasks: ["REVIEW_RATING", "REFERENCE_GRADING", "COMMENT_FILTERING"] }));
    expect(notes).toEqual([expect.stringMatching(/^Claim verification removed with its \d+ unopened assignments\.$/)]);
    expect((await data.getWorkspace(other.accounts.ann1, rating)).blockedBy).toBeNull();
  });

  test("the CRScore template carries Table 8's codes and Table 7's rules of thumb", () => {
    const template = crscoreCodebookTemplate();
    for (const row of ["| 1 | Correct |", "| 0 | Incorrect |", "| -1 | Unverifiable |", "| 2 | Ambiguous |", "| Conciseness | 1 |", "| Comprehensiveness | 1 |", "| Relevance |"]) expect(template).toContain(row);
    expect(template).toContain("ScalarSpaceEncoder");
  });
});

describe("stored annotations are never invalidated", () => {
  beforeAll(async () => {
    // ann1 rates two reviews on relevance (and one on conciseness); a lead decides one relevance score
    const rating = await assignmentOf(fx.accounts.ann1, fx.changes[0].id, "REVIEW_RATING");
    for (const [i, scores] of ([{ relevance: 4, conciseness: 3 }, { relevance: 2 }] as Record<string, number>[]).entries())
      await data.saveAnnotation(asAccount(fx.accounts.ann1), { kind: "rating", assignmentId: rating, targetId: fx.changes[0].reviews[i], baseVersion: 0, value: { scores, links: [], comment: "" } });
    await db.consensus.create({ data: { studyId: fx.studyId, task: "REVIEW_RATING", itemId: fx.changes[0].reviews[0], question: "relevance", value: 4, decidedById: fx.accounts.lead } });
  });

  test("changing the Likert scale of scored ratings is refused, naming how many", async () => {
    const before = await studyRow(fx);
    const error = await refusal(updateStudySettings(asLead(fx), await settingsOf(fx, { likertMin: 1, likertMax: 7, name: "not saved" })));
    expect(error.code).toBe("CONFLICT");
    expect(error.userMessage).toContain("The Likert scale cannot change from 1-5 to 1-7: 2 stored review ratings and 1 lead decision have scores on the 1-5 scale");
    expect(await studyRow(fx)).toEqual(before);
  });

  test("removing or renaming a scored dimension is refused per dimension; reordering and adding are allowed, with a note", async () => {
    const before = await studyRow(fx);
    const error = await refusal(updateStudySettings(asLead(fx), await settingsOf(fx, { likertDimensions: ["brevity", "comprehensiveness", "relevance"] })));
    expect(error.userMessage).toContain('The Likert dimension "conciseness" cannot be removed or renamed: it is scored in 1 stored review rating.');
    const both = await refusal(updateStudySettings(asLead(fx), await settingsOf(fx, { likertDimensions: ["comprehensiveness"] })));
    expect(both.userMessage).toContain('"relevance" cannot be removed or renamed: it is scored in 2 stored review ratings and 1 lead decision.');
    expect(await studyRow(fx)).toEqual(before);

    // comprehensiveness has no score yet: it may go; a new dimension is noted against the stored ratings
    const { notes } = await updateStudySettings(asLead(fx), await settingsOf(fx, { likertDimensions: ["relevance", "conciseness", "clarity"] }));
    expect(notes).toEqual(['2 stored review ratings have no score on "clarity"; they are kept as they are, and unsubmitted items ask for it before submitting.']);
    expect((await studyRow(fx)).likertDimensions).toEqual(["relevance", "conciseness", "clarity"]);
    const ratings = await db.reviewRating.findMany({ where: { annotatorId: fx.accounts.ann1 }, orderBy: { createdAt: "asc" } });
    expect(ratings.map((r) => r.scores)).toEqual([{ relevance: 4, conciseness: 3 }, { relevance: 2 }]);
  });

  test("removing a task with stored answers or started assignments is refused; one with only unopened assignments takes them along", async () => {
    const before = await studyRow(fx);
    const error = await refusal(updateStudySettings(asLead(fx), await settingsOf(fx, { tasks: ["CLAIM_VERIFICATION", "REFERENCE_GRADING", "COMMENT_FILTERING"] })));
    expect(error.code).toBe("CONFLICT");
    expect(error.userMessage).toContain("Review rating cannot be removed: it has 2 stored review ratings, 1 lead decision and 1 started, skipped or submitted assignment, which would be left without their task.");
    expect(await studyRow(fx)).toEqual(before);

    // ann2 opened (skipped) one comment-filtering item without answering: its time and reason are kept, so the task stays
    const filtering = await assignmentOf(fx.accounts.ann2, fx.changes[1].id, "COMMENT_FILTERING");
    await data.skipAssignment(fx.accounts.ann2, filtering, "cannot judge this one");
    const started = await refusal(updateStudySettings(asLead(fx), await settingsOf(fx, { tasks: ["CLAIM_VERIFICATION", "REVIEW_RATING", "REFERENCE_GRADING"] })));
    expect(started.userMessage).toContain("Comment filtering cannot be removed: it has 1 started, skipped or submitted assignment");

    const pending = await db.assignment.count({ where: { studyId: fx.studyId, task: "REFERENCE_GRADING" } });
    expect(pending).toBeGreaterThan(0);
    const { notes } = await updateStudySettings(asLead(fx), await settingsOf(fx, { tasks: ["CLAIM_VERIFICATION", "REVIEW_RATING", "COMMENT_FILTERING"] }));
    expect(notes).toEqual([`Reference-based grading removed with its ${pending} unopened assignments.`]);
    expect(await db.assignment.count({ where: { studyId: fx.studyId, task: "REFERENCE_GRADING" } })).toBe(0);
    expect((await studyRow(fx)).tasks).toEqual(["CLAIM_VERIFICATION", "REVIEW_RATING", "COMMENT_FILTERING"]);
    // adding it back is always allowed
    await updateStudySettings(asLead(fx), await settingsOf(fx, { tasks: ["CLAIM_VERIFICATION", "REVIEW_RATING", "COMMENT_FILTERING", "REFERENCE_GRADING"] }));
    expect((await studyRow(fx)).tasks).toContain("REFERENCE_GRADING");
  });

  test("the page's counts are the ones the refusals name", async () => {
    const { usage } = await getStudySettings(asLead(fx), fx.slug);
    expect(usage).toMatchObject({ scoredRatings: 2, scoresByDimension: { relevance: 2, conciseness: 1 }, likertConsensus: { relevance: 1 } });
    expect(usage.annotations).toMatchObject({ REVIEW_RATING: 2, CLAIM_VERIFICATION: 0, REFERENCE_GRADING: 0 });
  });
});

describe("authorization", () => {
  test("another study's lead and an annotator find no study, and change nothing", async () => {
    const before = await studyRow(fx);
    for (const account of [asLead(other), { id: fx.accounts.ann1, role: "ANNOTATOR" as const }]) {
      const error = await refusal(updateStudySettings(account, await settingsOf(fx, { name: "taken over", guidelines: "" })));
      expect(error.code).toBe("NOT_FOUND");
      expect((await refusal(getStudySettings(account, fx.slug))).code).toBe("NOT_FOUND");
    }
    expect(await studyRow(fx)).toEqual(before);
  });

  test("a lead's edit leaves another lead's study untouched", async () => {
    const before = await studyRow(other);
    await updateStudySettings(asLead(fx), await settingsOf(fx, { name: "Only mine", guidelines: "mine" }));
    expect(await studyRow(other)).toEqual(before);
    expect((await studyRow(fx)).name).toBe("Only mine");
  });
});
