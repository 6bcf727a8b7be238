/**
 * Matcher runs (MatcherRun rows, lib/matcher-runs): the study's review comments where they are
 * anchored (what a matcher reads), a run made, finished with its pairs or failed, and the runs
 * and their stored pairs read back for the tools report.
 */
import "server-only";
import { db, type PrismaClient } from "@/lib/db/client";
import type { MatcherRun } from "@/lib/generated/prisma/client";
import type { CommentMatch, LocatedComment } from "@/lib/analysis/comment-matching";
import type { SessionAccount } from "@/lib/auth/authenticate";
import { requireLedStudy } from "@/lib/data/study-access";

/** The study's review comments where they are anchored, by pull request and position: what the matchers and the tools report read. */
export async function studyLocatedComments(studyId: string, client: PrismaClient = db): Promise<LocatedComment[]> {
  const comments = await client.reviewComment.findMany({
    where: { pullRequest: { studyId } },
    select: { id: true, system: true, path: true, side: true, startSide: true, startLine: true, line: true, pullRequest: { select: { externalId: true } } },
    orderBy: [{ pullRequestId: "asc" }, { position: "asc" }],
  });
  return comments.map((c) => ({ id: c.id, pullRequest: c.pullRequest.externalId, system: c.system, path: c.path, side: c.side, startSide: c.startSide, startLine: c.startLine, line: c.line }));
}

export function createMatcherRun(data: { studyId: string; matcher: string; signature: string; params: { k: number }; status: "QUEUED" | "RUNNING"; createdById?: string | null }): Promise<MatcherRun> {
  return db.matcherRun.create({ data });
}

export function findMatcherRun(runId: string): Promise<MatcherRun | null> {
  return db.matcherRun.findUnique({ where: { id: runId } });
}

/** Stores a run's pairs and marks it done, in one transaction (pairs an earlier attempt stored are replaced). */
export async function finishMatcherRun(runId: string, matches: readonly CommentMatch[]): Promise<MatcherRun> {
  const [, , run] = await db.$transaction([
    db.matcherMatch.deleteMany({ where: { runId } }),
    db.matcherMatch.createMany({ data: matches.map((m) => ({ runId, reviewCommentId: m.commentId, humanCommentId: m.humanCommentId })) }),
    db.matcherRun.update({ where: { id: runId }, data: { status: "DONE", pairs: matches.length, error: null, finishedAt: new Date() } }),
  ]);
  return run;
}

export function failMatcherRun(runId: string, message: string): Promise<MatcherRun> {
  return db.matcherRun.update({ where: { id: runId }, data: { status: "FAILED", error: message, finishedAt: new Date() } });
}

/** A study's matcher runs, newest first. */
export function studyMatcherRuns(studyId: string, client: PrismaClient = db): Promise<MatcherRun[]> {
  return client.matcherRun.findMany({ where: { studyId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}

/** The pairs each run stored, by run id. */
export async function matcherRunPairs(runIds: readonly string[], client: PrismaClient = db): Promise<Map<string, CommentMatch[]>> {
  const rows = await client.matcherMatch.findMany({ where: { runId: { in: [...runIds] } }, select: { runId: true, reviewCommentId: true, humanCommentId: true }, orderBy: [{ runId: "asc" }, { reviewCommentId: "asc" }, { humanCommentId: "asc" }] });
  const pairs = new Map<string, CommentMatch[]>(runIds.map((id) => [id, []]));
  for (const r of rows) pairs.get(r.runId)!.push({ commentId: r.reviewCommentId, humanCommentId: r.humanCommentId });
  return pairs;
}

/** The matcher runs of a study the account leads, newest first (404 otherwise). */
export async function ledStudyMatcherRuns(account: Pick<SessionAccount, "id" | "role">, slug: string): Promise<MatcherRun[]> {
  return studyMatcherRuns((await requireLedStudy(account, slug)).id);
}
