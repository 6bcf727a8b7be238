/**
 * Releasing an idle participant's items (lib/data/participants.ts releaseIdleParticipant) as a
 * delayed job on the job queue: scheduled for the study's release time after the participant
 * joins or takes items, and again for a later time whenever they were active meanwhile.
 */
import type PgBoss from "pg-boss";
import { jobIdOf, PARTICIPANT_RELEASE_QUEUE, replaceJobs, sendQueue } from "@/lib/jobs/queue";

export interface ParticipantReleaseJob {
  accountId: string;
}

/** Looks at the participant at `at` (by default the study's release time from now, read when the job runs). */
export async function scheduleRelease(accountId: string, at?: Date, boss?: PgBoss): Promise<void> {
  const startAfter = at ?? new Date(Date.now() + 60_000);
  // One job per participant and due minute: scheduling the same look twice makes one job.
  const id = jobIdOf(`participant-release:${accountId}:${Math.floor(startAfter.getTime() / 60_000)}`);
  await replaceJobs(boss ?? (await sendQueue()), PARTICIPANT_RELEASE_QUEUE, [{ id, data: { accountId } satisfies ParticipantReleaseJob, startAfter }]);
}
