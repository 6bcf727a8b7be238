/**
 * The events a study's webhooks receive and how each is signed: the body is JSON
 * `{ id, event, study, at, data }`, sent with `X-Event` (the event), `X-Event-Id` (the same on
 * every attempt and resend) and `X-Signature: sha256=HEX`, the HMAC-SHA256 of the body's bytes
 * with the hook's secret.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const WEBHOOK_EVENTS = ["assignment.submitted", "round.released", "report.ready", "import.finished", "judge-run.finished", "metric-run.finished"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export function eventBody(eventId: string, event: WebhookEvent, study: string, data: Record<string, unknown>, at = new Date()): string {
  return JSON.stringify({ id: eventId, event, study, at: at.toISOString(), data });
}

export function signature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;
}

/** What a receiver does: whether `header` is the body's signature with `secret` (in constant time). */
export function signatureMatches(secret: string, body: string, header: string | null): boolean {
  const expected = Buffer.from(signature(secret, body));
  const given = Buffer.from(header ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
