/**
 * Announcing a study's event to its webhooks: one delivery per hook is recorded and queued
 * (queue webhook-deliveries); the worker sends it (./work.ts). Announcing never fails the work
 * that announces: a failure to record is logged.
 */
import type PgBoss from "pg-boss";
import type { FinishedMetricRun } from "@/lib/data/metric-runs";
import { recordEvent, type StudyRef } from "@/lib/data/webhooks";
import type { ImportResult } from "@/lib/import";
import { jobIdOf, replaceJobs, sendQueue, WEBHOOK_QUEUE } from "@/lib/jobs/queue";
import { eventBody, type WebhookEvent } from "./events";

/** Queues the deliveries (a resent one replaces its job, whose retries it restarts). */
export function queueDeliveries(boss: PgBoss, deliveryIds: readonly string[], retryDelay?: number): Promise<void> {
  return replaceJobs(boss, WEBHOOK_QUEUE, deliveryIds.map((deliveryId) => ({ id: jobIdOf(`webhook:${deliveryId}`), data: { deliveryId } })), retryDelay);
}

/** assignment.submitted: which assignment (task, code change) and whose (a round the submission released is announced where it is released, lib/data/rounds). */
export async function announceSubmission({ studyId, ...submitted }: { studyId: string; assignmentId: string; task: string; codeChangeId: string; annotatorId: string }): Promise<void> {
  await announce({ id: studyId }, "assignment.submitted", submitted);
}

/** import.finished of an import that wrote (or was refused), not of a preview: the study's hooks hear what it brought. */
export async function announceImport(slug: string, result: ImportResult): Promise<void> {
  if (result.status === "preview") return;
  if (result.status === "refused") await announce({ slug }, "import.finished", { status: "refused", errors: result.totalErrors });
  else await announce({ id: result.summary.study.id }, "import.finished", { status: "imported", importRunId: result.summary.importRunId, files: result.summary.files, counts: result.summary.counts });
}

/** metric-run.finished: the run's last chunk stored (DONE), or a chunk failed for good (FAILED, with the message). */
export async function announceMetricRun(run: FinishedMetricRun, status: "DONE" | "FAILED", error: string | null = null): Promise<void> {
  await announce({ id: run.studyId }, "metric-run.finished", { runId: run.id, status, metrics: run.metrics, error });
}

export async function announce(study: StudyRef, event: WebhookEvent, data: Record<string, unknown>): Promise<void> {
  try {
    const ids = await recordEvent(study, event, (eventId, slug) => eventBody(eventId, event, slug, data));
    if (ids.length > 0) await queueDeliveries(await sendQueue(), ids);
  } catch (error) {
    console.error(`webhooks: the ${event} event of study ${JSON.stringify(study)} was not sent: ${(error as Error).message}`);
  }
}
