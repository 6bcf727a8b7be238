/**
 * Webhooks on PostgreSQL and the job queue, against receivers on loopback: a submitted
 * assignment reaches the study's hook as a signed `assignment.submitted` whose signature
 * verifies with the hook's secret; a failing receiver gets retries with backoff, each attempt
 * listed with its answer; a lead resends a delivery (the same event id), another lead cannot;
 * a URL to a private address is refused unless its host is allowed.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { asAccount, asLead, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

const url = inject("databaseUrl");
process.env.DATABASE_URL = url;
process.env.CRJUDGE_WEBHOOK_ALLOWED_HOSTS = "127.0.0.1";
const { db } = await import("@/lib/db/client");
const data = await import("@/lib/data/annotations");
const admin = await import("@/lib/data/assignment-admin");
const { listWebhooks, recordEvent } = await import("@/lib/data/webhooks");
const { sendQueue, startQueue } = await import("@/lib/jobs");
const { addCheckedWebhook, resend } = await import("@/lib/webhooks/manage");
const { announceSubmission, queueDeliveries } = await import("@/lib/webhooks/send");
const { workWebhookDeliveries } = await import("@/lib/webhooks/work");
const { eventBody, signatureMatches } = await import("@/lib/webhooks/events");
const { createJobContext, drainMetricRun, startMetricRun } = await import("@/lib/metric-runs");

interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

let receiver: Server;
let base = "";
const received: Received[] = [];
/** The status each path answers with. */
const answers = new Map<string, number>();
let fx: AnnotationFixture;
let worker: PgBoss;

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const status = answers.get(request.url ?? "") ?? 200;
      response.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "thanks" : "receiver is down");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  fx = await createAnnotationFixture(db, `hooks-${Date.now()}`, { changes: 1 });
  await admin.generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann1, fx.accounts.ann2]);
  worker = await startQueue(url);
  await workWebhookDeliveries(worker);
});

afterAll(async () => {
  await worker?.stop({ graceful: false, wait: true });
  await (await sendQueue()).stop({ graceful: false, wait: true });
  await new Promise((resolve) => receiver.close(resolve));
  if (fx) await removeAnnotationFixture(db, fx);
});

describe("webhooks", () => {
  test("a submitted assignment reaches the study's hook as a signed assignment.submitted", async () => {
    const hook = await addCheckedWebhook(asLead(fx), fx.slug, `${base}/ok`);
    expect(hook.secret).toMatch(/^[0-9a-f]{64}$/);
    const change = fx.changes[0];
    const assignment = await db.assignment.findFirstOrThrow({ where: { annotatorId: fx.accounts.ann2, codeChangeId: change.id, task: "COMMENT_FILTERING" } });
    for (const review of [...change.reviews, change.reference])
      await data.saveAnnotation(asAccount(fx.accounts.ann2), { kind: "label", assignmentId: assignment.id, targetId: review, baseVersion: 0, value: { highQuality: review === change.reference, justification: "checked" } });
    expect(await data.submitAssignment(fx.accounts.ann2, assignment.id, announceSubmission)).toEqual({ status: "DONE" });

    const got = await until("the delivery", () => received.find((r) => r.path === "/ok"));
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["x-event"]).toBe("assignment.submitted");
    expect(got.headers["x-event-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.headers["x-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(signatureMatches(hook.secret, got.body, got.headers["x-signature"] as string)).toBe(true);
    expect(signatureMatches("another secret", got.body, got.headers["x-signature"] as string)).toBe(false);
    const body = JSON.parse(got.body) as { id: string; event: string; study: string; data: Record<string, unknown> };
    expect(body).toMatchObject({ id: got.headers["x-event-id"], event: "assignment.submitted", study: fx.slug, data: { assignmentId: assignment.id, task: "COMMENT_FILTERING", codeChangeId: change.id, annotatorId: fx.accounts.ann2 } });

    const [listed] = await until("the delivery recorded", async () => {
      const hooks = await listWebhooks(asLead(fx), fx.slug);
      return hooks[0]?.deliveries[0]?.status === "DELIVERED" ? hooks : undefined;
    });
    expect(listed.deliveries[0]).toMatchObject({ event: "assignment.submitted", status: "DELIVERED", attempts: 1, lastStatus: 200, lastAnswer: "thanks" });
    // Submitting again announces nothing new.
    await data.submitAssignment(fx.accounts.ann2, assignment.id, announceSubmission);
    expect(await db.webhookDelivery.count({ where: { webhookId: hook.id } })).toBe(1);
  });

  test("a failing receiver gets retries with growing waits, each attempt listed; a lead resends it with the same event id", async () => {
    answers.set("/down", 503);
    const hook = await addCheckedWebhook(asLead(fx), fx.slug, `${base}/down`);
    // The queue's backoff with a first wait of 1 s instead of 30 s: waits of 1-2 s, 2-4 s, ...
    const ids = await recordEvent({ id: fx.studyId }, "report.ready", (eventId, slug) => eventBody(eventId, "report.ready", slug, { report: "agreement" }));
    const deliveries = await db.webhookDelivery.findMany({ where: { id: { in: ids }, webhookId: hook.id } });
    expect(deliveries).toHaveLength(1);
    // the other hook of the study (/ok) gets this event too
    expect(ids).toHaveLength(2);
    await queueDeliveries(worker, ids, 1);
    const attempts = await until("three attempts", () => {
      const seen = received.filter((r) => r.path === "/down");
      return seen.length >= 3 ? seen : undefined;
    });
    expect(new Set(attempts.map((a) => a.headers["x-event-id"])).size).toBe(1);
    const waits = attempts.slice(1, 3).map((a, i) => a.at - attempts[i].at);
    expect(waits[0]).toBeGreaterThanOrEqual(900);
    expect(waits[1]).toBeGreaterThanOrEqual(1900);
    const failing = await until("the attempts recorded", async () => {
      const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveries[0].id } });
      return row.attempts >= 3 ? row : undefined;
    });
    expect(failing).toMatchObject({ status: "PENDING", lastStatus: 503, lastAnswer: "receiver is down" });

    // Another lead cannot resend it; the study's lead can, and the receiver is back.
    await expect(resend({ id: fx.accounts.ann1, role: "LEAD" }, fx.slug, deliveries[0].id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    answers.set("/down", 200);
    await resend(asLead(fx), fx.slug, deliveries[0].id);
    const delivered = await until("the resent delivery", async () => {
      const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveries[0].id } });
      return row.status === "DELIVERED" ? row : undefined;
    });
    expect(delivered.lastStatus).toBe(200);
    expect(received.filter((r) => r.path === "/down").at(-1)!.headers["x-event-id"]).toBe(attempts[0].headers["x-event-id"]);
  });

  test("a hook to a private or link-local address is refused, and to loopback unless allowed", async () => {
    await expect(addCheckedWebhook(asLead(fx), fx.slug, "https://169.254.169.254/latest")).rejects.toThrow(/link-local/);
    await expect(addCheckedWebhook(asLead(fx), fx.slug, "https://10.0.0.1/hook")).rejects.toThrow(/private address/);
    process.env.CRJUDGE_WEBHOOK_ALLOWED_HOSTS = "";
    try {
      await expect(addCheckedWebhook(asLead(fx), fx.slug, `${base}/ok`)).rejects.toThrow(/loopback address/);
    } finally {
      process.env.CRJUDGE_WEBHOOK_ALLOWED_HOSTS = "127.0.0.1";
    }
    // Another lead's study is not found.
    await expect(addCheckedWebhook({ id: fx.accounts.ann1, role: "LEAD" }, fx.slug, `${base}/ok`)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  test("a metric run's last chunk announces metric-run.finished, once", async () => {
    const hook = await addCheckedWebhook(asLead(fx), fx.slug, `${base}/metrics`);
    const boss = await startQueue(url, { supervise: false });
    const context = createJobContext();
    const { run } = await startMetricRun(context, boss, fx.studyId, { metrics: ["sacrebleu"] });
    expect((await drainMetricRun(boss, context, run.id)).status).toBe("DONE");
    await boss.stop({ graceful: false, wait: true });
    const got = await until("the delivery", () => received.find((r) => r.path === "/metrics"));
    expect(got.headers["x-event"]).toBe("metric-run.finished");
    expect(signatureMatches(hook.secret, got.body, got.headers["x-signature"] as string)).toBe(true);
    expect(JSON.parse(got.body)).toMatchObject({ event: "metric-run.finished", study: fx.slug, data: { runId: run.id, status: "DONE", metrics: ["sacrebleu"], error: null } });
    expect(await db.webhookDelivery.count({ where: { webhookId: hook.id } })).toBe(1);
  });
});
