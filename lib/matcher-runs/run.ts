/**
 * Matcher runs (docs/test-results.md): a run of the location matcher is made with its signature,
 * computed from the study's review comments as they are stored then, and its pairs are stored
 * with it, so that runs are listed, re-run and compared, and the tools report reads their pairs.
 * The tools page queues a run for the worker (./work.ts); the command line computes one at once.
 */
import "server-only";
import { z } from "zod";
import type { MatcherRun } from "@/lib/generated/prisma/client";
import type { SessionAccount } from "@/lib/auth/authenticate";
import { AppError } from "@/lib/errors";
import { locationMatches, locationSignature } from "@/lib/analysis/comment-matching";
import { createMatcherRun, failMatcherRun, findMatcherRun, finishMatcherRun, studyLocatedComments } from "@/lib/data/matcher-runs";
import { requireLedStudy } from "@/lib/data/study-access";
import { jobIdOf, MATCHER_QUEUE, replaceJobs, sendQueue } from "@/lib/jobs/queue";
import { slugField } from "@/lib/validation/study-fields";

/** A matcher run's job on the queue (./work.ts). */
export interface MatcherRunJobData {
  runId: string;
}

/** The location matcher's k: lines between two comments' ranges. */
const matchLines = z.coerce.number().int("k must be a whole number of lines").min(0, "k must be 0 or more").max(10_000, "k must be at most 10,000 lines");
const locationParams = z.object({ k: matchLines });

/** The tools page's form: the study and k. */
export const startMatcherRunSchema = z.object({ slug: slugField, k: matchLines });

function newLocationRun(studyId: string, k: number, status: "QUEUED" | "RUNNING", createdById: string | null): Promise<MatcherRun> {
  return createMatcherRun({ studyId, matcher: "location", signature: locationSignature(k), params: { k }, status, createdById });
}

/** Computes a run: the location matcher's pairs over the study's review comments, stored with the run; a failure is stored as its error. */
export async function computeMatcherRun(runId: string): Promise<MatcherRun> {
  const run = await findMatcherRun(runId);
  if (!run) throw new AppError("NOT_FOUND", { message: `No matcher run ${runId}.` });
  if (run.status === "DONE") return run;
  try {
    const { k } = locationParams.parse(run.params);
    return await finishMatcherRun(run.id, locationMatches(await studyLocatedComments(run.studyId), k));
  } catch (error) {
    return failMatcherRun(run.id, (error as Error).message);
  }
}

/** The command line's run: made and computed at once, with the rights the account has on the study. */
export async function runLocationMatcher(account: Pick<SessionAccount, "id" | "role">, slug: string, k: number): Promise<MatcherRun> {
  const study = await requireLedStudy(account, slug);
  const run = await newLocationRun(study.id, matchLines.parse(k), "RUNNING", null);
  return computeMatcherRun(run.id);
}

/** The tools page's run: made QUEUED and put on the queue for the worker, after checking the account leads the study. */
export async function queueLocationMatcher(account: Pick<SessionAccount, "id" | "role">, input: z.infer<typeof startMatcherRunSchema>): Promise<MatcherRun> {
  const study = await requireLedStudy(account, input.slug);
  const run = await newLocationRun(study.id, input.k, "QUEUED", account.id);
  await replaceJobs(await sendQueue(), MATCHER_QUEUE, [{ id: jobIdOf(`matcher-run:${run.id}`), data: { runId: run.id } satisfies MatcherRunJobData }]);
  return run;
}
