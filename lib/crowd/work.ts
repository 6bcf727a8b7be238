/** The worker's subscription to participant releases (lib/crowd/release.ts); their code loads with the first job (lib/jobs/work.ts). */
import type PgBoss from "pg-boss";
import { PARTICIPANT_RELEASE_QUEUE } from "@/lib/jobs/queue";
import { workQueue } from "@/lib/jobs/work";
import type { ParticipantReleaseJob } from "./release";

/** Releases the participant's open items if idle long enough, else looks again when they would be. */
export async function handleParticipantRelease(boss: PgBoss, job: ParticipantReleaseJob): Promise<void> {
  const { releaseIdleParticipant } = await import("@/lib/data/participants");
  const outcome = await releaseIdleParticipant(job.accountId);
  if (outcome && "notBefore" in outcome) await (await import("./release")).scheduleRelease(job.accountId, outcome.notBefore, boss);
}

export function workParticipantReleases(boss: PgBoss): Promise<string[]> {
  return workQueue<ParticipantReleaseJob>(boss, PARTICIPANT_RELEASE_QUEUE, 1, async ([job]) => handleParticipantRelease(boss, job.data));
}
