/** The worker's subscription to webhook deliveries; their code loads with the first job (lib/jobs/work.ts). */
import type PgBoss from "pg-boss";
import { WEBHOOK_QUEUE } from "@/lib/jobs/queue";
import { workQueue } from "@/lib/jobs/work";

/** Requests mostly wait on the receiver: a few at once. */
const CONCURRENCY = 4;

/**
 * One attempt per job; a failed one throws, so the queue retries it with backoff, and the last
 * retry's failure leaves the delivery FAILED (a lead can resend it).
 */
export function workWebhookDeliveries(boss: PgBoss): Promise<string[]> {
  return workQueue<{ deliveryId: string }>(boss, WEBHOOK_QUEUE, CONCURRENCY, async ([job]) => {
    const [{ deliveryToSend, recordAttempt }, { deliver }] = await Promise.all([import("@/lib/data/webhooks"), import("./deliver")]);
    const delivery = await deliveryToSend(job.data.deliveryId);
    if (!delivery) return;
    const outcome = await deliver({ url: delivery.webhook.url, secret: delivery.webhook.secret, event: delivery.event, eventId: delivery.eventId, body: delivery.body });
    await recordAttempt(delivery.id, outcome, job.retryCount >= job.retryLimit);
    if (!outcome.ok) throw new Error(`webhook delivery ${delivery.id}: ${outcome.status ?? "no answer"} ${outcome.answer.slice(0, 200)}`);
  });
}
