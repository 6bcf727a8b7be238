/**
 * A study's webhooks and their deliveries (lib/webhooks): leads add, list and remove the hooks
 * of studies they lead and resend a delivery; events record one delivery per hook of the study,
 * which the queue's job then sends and records each attempt of.
 */
import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import type { SessionAccount } from "@/lib/auth/authenticate";
import { leadStudyWhere } from "@/lib/data/study-access";
import { db } from "@/lib/db/client";
import type { WebhookDeliveryStatus } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";

type Lead = Pick<SessionAccount, "id" | "role">;

/** Deliveries listed per hook on the settings page, newest first. */
const LISTED_DELIVERIES = 20;
/** How much of a receiver's answer is kept. */
const ANSWER_CHARS = 500;

async function ledStudyId(lead: Lead, slug: string): Promise<string> {
  const study = await db.study.findFirst({ where: { slug, ...leadStudyWhere(lead) }, select: { id: true } });
  if (!study) throw new AppError("NOT_FOUND", { message: `No study ${slug} that you lead.` });
  return study.id;
}

/** Adds a hook with a new secret; `url` was checked by the caller (lib/webhooks/target.ts). */
export async function addWebhook(lead: Lead, slug: string, url: string): Promise<{ id: string; secret: string }> {
  const studyId = await ledStudyId(lead, slug);
  const secret = randomBytes(32).toString("hex");
  const hook = await db.webhook.create({ data: { studyId, url, secret }, select: { id: true } });
  return { id: hook.id, secret };
}

export async function removeWebhook(lead: Lead, slug: string, webhookId: string): Promise<void> {
  const { count } = await db.webhook.deleteMany({ where: { id: webhookId, study: { slug, ...leadStudyWhere(lead) } } });
  if (count === 0) throw new AppError("NOT_FOUND", { message: "No such webhook in a study you lead." });
}

export interface WebhookView {
  id: string;
  url: string;
  secret: string;
  createdAt: Date;
  deliveries: { id: string; event: string; eventId: string; status: WebhookDeliveryStatus; attempts: number; lastStatus: number | null; lastAnswer: string; lastAttemptAt: Date | null; createdAt: Date }[];
}

/** The hooks of a study the lead leads, each with its newest deliveries. */
export async function listWebhooks(lead: Lead, slug: string): Promise<WebhookView[]> {
  const studyId = await ledStudyId(lead, slug);
  return db.webhook.findMany({
    where: { studyId },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      url: true,
      secret: true,
      createdAt: true,
      deliveries: { orderBy: { createdAt: "desc" }, take: LISTED_DELIVERIES, select: { id: true, event: true, eventId: true, status: true, attempts: true, lastStatus: true, lastAnswer: true, lastAttemptAt: true, createdAt: true } },
    },
  });
}

/** A study by its id or its slug. */
export type StudyRef = { id: string } | { slug: string };

/** One delivery per hook of the study, of the body `bodyOf(eventId, study's slug)`; their ids (none without hooks). */
export async function recordEvent(study: StudyRef, event: string, bodyOf: (eventId: string, slug: string) => string): Promise<string[]> {
  const hooks = await db.webhook.findMany({ where: { study }, select: { id: true, study: { select: { slug: true } } } });
  if (hooks.length === 0) return [];
  const eventId = randomUUID();
  const body = bodyOf(eventId, hooks[0].study.slug);
  const rows = hooks.map((hook) => ({ id: randomUUID(), webhookId: hook.id, eventId, event, body }));
  await db.webhookDelivery.createMany({ data: rows });
  return rows.map((r) => r.id);
}

/** Sets a delivery of a study the lead leads to be sent again; its id. */
export async function resendDelivery(lead: Lead, slug: string, deliveryId: string): Promise<string> {
  const { count } = await db.webhookDelivery.updateMany({ where: { id: deliveryId, webhook: { study: { slug, ...leadStudyWhere(lead) } } }, data: { status: "PENDING" } });
  if (count === 0) throw new AppError("NOT_FOUND", { message: "No such delivery in a study you lead." });
  return deliveryId;
}

/** What a delivery job sends: the hook's URL and secret, the event and its body; null once delivered or gone. */
export async function deliveryToSend(deliveryId: string) {
  const delivery = await db.webhookDelivery.findUnique({ where: { id: deliveryId }, select: { id: true, event: true, eventId: true, body: true, status: true, webhook: { select: { url: true, secret: true } } } });
  return delivery && delivery.status !== "DELIVERED" ? delivery : null;
}

/** Records one attempt: its answer's status (null: none) and text; `final`: no retry follows a failure. */
export async function recordAttempt(deliveryId: string, outcome: { ok: boolean; status: number | null; answer: string }, final: boolean): Promise<void> {
  await db.webhookDelivery.update({
    where: { id: deliveryId },
    data: { attempts: { increment: 1 }, lastStatus: outcome.status, lastAnswer: outcome.answer.slice(0, ANSWER_CHARS), lastAttemptAt: new Date(), status: outcome.ok ? "DELIVERED" : final ? "FAILED" : "PENDING" },
  });
}
