/**
 * The reviewers' order in a blinded pull-request study on a real PostgreSQL: each annotator sees
 * "Reviewer A/B/C" in an order of their own, seeded (the study's seed, the annotator, the pull
 * request), the same on every read of their workspace (a reload), and threads on the same line
 * follow that order, so no annotator reads the systems in the order they were imported.
 */
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { COMMENT_QUESTION_TEMPLATES } from "@/lib/annotation/comment-questions";
import { createCommentQuestionsFixture, removeCommentQuestionsFixture, type CommentQuestionsFixture } from "./comment-questions-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const { getWorkspace } = await import("@/lib/data/annotations");

/** Enough annotators that some two of them draw different orders of the three reviewers (all alike: 6^-7). */
const ANNOTATORS = 8;
let fx: CommentQuestionsFixture;
let annotators: string[] = [];

beforeAll(async () => {
  const tag = `order${Date.now()}`;
  fx = await createCommentQuestionsFixture(db, tag, [COMMENT_QUESTION_TEMPLATES.useful]);
  // A codex comment on the line of the human's (a.py line 2): two threads at one place.
  await db.reviewComment.create({ data: { pullRequestId: fx.study.pullRequestId, codeChangeId: fx.study.files[0], externalId: "c5", path: "a.py", side: "RIGHT", line: 2, body: "comment c5", system: "codex", author: "codex-bot", position: 4 } });
  annotators = (await Promise.all(Array.from({ length: ANNOTATORS }, (_, i) => db.account.create({ data: { email: `order${i}-${tag}@test.local`, name: `order ${i}`, role: "ANNOTATOR" } })))).map((a) => a.id);
  // Each annotator holds the pull request (on its first file), as an assignment plan with more annotators per item would give them.
  await db.studyMember.createMany({ data: annotators.map((accountId) => ({ studyId: fx.study.studyId, accountId, role: "ANNOTATOR" as const })) });
  await db.assignment.createMany({ data: annotators.map((annotatorId) => ({ studyId: fx.study.studyId, annotatorId, codeChangeId: fx.study.files[0], task: "COMMENT_QUESTIONS" as const, position: 0 })) });
});
afterAll(async () => {
  await removeCommentQuestionsFixture(db, fx);
  await db.account.deleteMany({ where: { id: { in: annotators } } });
  await db.$disconnect();
});

/** What an annotator's workspace shows: each comment's reviewer label, in reading order. */
async function shown(annotatorId: string) {
  const assignment = await db.assignment.findFirstOrThrow({ where: { annotatorId, studyId: fx.study.studyId } });
  const part = (await getWorkspace(annotatorId, assignment.id)).commentQuestions!;
  return part.comments.map((c) => [c.externalId, c.reviewer] as const);
}

test("each annotator sees the reviewers in an order of their own, the same after a reload, and same-line threads in that order", async () => {
  const systemOf: Record<string, string> = { c1: "claude-code", c2: "human", c3: "codex", c4: "claude-code", c5: "codex" };
  const orders = new Set<string>();
  for (const annotatorId of annotators) {
    const first = await shown(annotatorId);
    expect(await shown(annotatorId)).toEqual(first);
    // One label per system, the blinded labels only.
    const labels = new Map(first.map(([id, label]) => [systemOf[id], label]));
    expect([...labels.values()].sort()).toEqual(["Reviewer A", "Reviewer B", "Reviewer C"]);
    // a.py: the whole-file comment, then the two threads on line 2 (human's c2 with its reply c4, codex's c5) by their labels; then b.py's c1.
    const ids = first.map(([id]) => id);
    const humanFirst = labels.get("human")! < labels.get("codex")!;
    expect(ids).toEqual(humanFirst ? ["c3", "c2", "c4", "c5", "c1"] : ["c3", "c5", "c2", "c4", "c1"]);
    orders.add(["human", "codex", "claude-code"].map((s) => labels.get(s)).join());
  }
  expect(orders.size).toBeGreaterThan(1);
});
