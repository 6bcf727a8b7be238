/**
 * One attempt at a delivery: the target is checked again (lib/webhooks/target.ts) and the
 * request connects only to the addresses just checked; redirects are not followed. A 2xx answer
 * delivers; anything else, or no answer within the timeout, is a failed attempt.
 */
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { signature, type WebhookEvent } from "./events";
import { checkTarget, type Target } from "./target";

const TIMEOUT_MS = 10_000;
const ANSWER_BYTES = 2048;

export interface Outcome {
  ok: boolean;
  /** The receiver's HTTP status; null when there was no answer. */
  status: number | null;
  /** The start of the answer's body, or why there was none. */
  answer: string;
}

/** A lookup that answers only with the checked addresses. */
function pinned(target: Target): LookupFunction {
  return (_hostname, options, callback) => {
    const [first] = target.addresses;
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, target.addresses);
    else callback(null, first.address, first.family);
  };
}

function post(target: Target, headers: Record<string, string>, body: string): Promise<Outcome> {
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    const request = client.request(target.url, { method: "POST", headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, lookup: pinned(target), timeout: TIMEOUT_MS }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        if (size < ANSWER_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      response.on("end", () => {
        const status = response.statusCode ?? 0;
        resolve({ ok: status >= 200 && status < 300, status, answer: Buffer.concat(chunks).subarray(0, ANSWER_BYTES).toString("utf8") });
      });
      response.on("error", (error) => resolve({ ok: false, status: response.statusCode ?? null, answer: `the answer broke off: ${error.message}` }));
    });
    request.on("timeout", () => request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    request.on("error", (error) => resolve({ ok: false, status: null, answer: error.message }));
    request.end(body);
  });
}

export interface Delivery {
  url: string;
  secret: string;
  event: string;
  eventId: string;
  body: string;
}

/** Sends one delivery; a target refused now (its host resolves elsewhere) is a failed attempt naming why. */
export async function deliver(delivery: Delivery): Promise<Outcome> {
  let target: Target;
  try {
    target = await checkTarget(delivery.url);
  } catch (error) {
    return { ok: false, status: null, answer: (error as Error).message };
  }
  const headers = {
    "content-type": "application/json",
    "user-agent": "crjudge-webhooks",
    "x-event": delivery.event as WebhookEvent,
    "x-event-id": delivery.eventId,
    "x-signature": signature(delivery.secret, delivery.body),
  };
  return post(target, headers, delivery.body);
}
