/**
 * A chat-completions server on 127.0.0.1 (random port) for the judge tests: records every
 * request and answers as the test's handler says (content, an HTTP error, or a delay).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ChatMessage } from "@/lib/judges";

export interface ReceivedRequest {
  path: string;
  authorization: string | undefined;
  model: string;
  messages: ChatMessage[];
  temperature: number | undefined;
  maxTokens: number | undefined;
  seed: number | undefined;
}

/**
 * `content` → 200 completion (with `finishReason`, default "stop", and `usage`, default a
 * count of 4 characters a token); `status` → that status with `body`; `delayMs` waits before
 * answering; `raw` → 200 with that body.
 */
export interface Reply {
  content?: string | null;
  finishReason?: string;
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  raw?: string;
}

export type Handler = (request: ReceivedRequest, index: number) => Reply;

export interface FakeLlm {
  /** Base URL without /v1. */
  url: string;
  requests: ReceivedRequest[];
  /** Most requests the server held at once. */
  maxInFlight: number;
  handle(handler: Handler): void;
  reset(): void;
  close(): Promise<void>;
}

export const userText = (r: ReceivedRequest) => r.messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");

/** Which SWE-Judge step (P1a ... P5) a request is, from the phrase only its prompt has. */
export function sweJudgeStep(request: ReceivedRequest): string {
  const last = request.messages[request.messages.length - 1].content;
  if (last.includes("recheck whether the reason")) return "P2";
  if (last.includes("semantically equivalent")) return "P3";
  if (last.includes("write tests")) return "P4-tests";
  if (last.includes("pass all the given tests")) return "P4";
  if (last.includes("core key points")) return "P5-points";
  if (last.includes("contains all the key points")) return "P5";
  if (last.includes("rate a review comment")) return last.includes("<reference_review>") ? "P1b" : "P1a";
  throw new Error(`unknown prompt: ${last.slice(0, 80)}`);
}

export async function startFakeLlm(): Promise<FakeLlm> {
  let handler: Handler = () => ({ content: "3" });
  // Requests still sleeping from an earlier test do not count towards the current test's in-flight figure.
  let generation = 0;
  let inFlight = 0;
  const fake: FakeLlm = {
    url: "",
    requests: [],
    maxInFlight: 0,
    handle: (h) => void (handler = h),
    reset: () => {
      generation++;
      inFlight = 0;
      fake.requests.length = 0;
      fake.maxInFlight = 0;
      handler = () => ({ content: "3" });
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };

  async function respond(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = "";
    for await (const chunk of req) text += chunk;
    const body = JSON.parse(text) as { model: string; messages: ChatMessage[]; temperature?: number; max_tokens?: number; seed?: number };
    const request: ReceivedRequest = { path: req.url ?? "", authorization: req.headers.authorization, model: body.model, messages: body.messages, temperature: body.temperature, maxTokens: body.max_tokens, seed: body.seed };
    const index = fake.requests.push(request) - 1;
    const mine = generation;
    inFlight++;
    fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
    try {
      const reply = handler(request, index);
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if (res.destroyed) return;
      if (reply.status !== undefined && reply.status !== 200) {
        res.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers }).end(reply.body ?? "");
      } else if (reply.raw !== undefined) {
        res.writeHead(200, { "content-type": "application/json" }).end(reply.raw);
      } else {
        const tokens = (t: string) => Math.ceil(t.length / 4);
        const usage = reply.usage !== undefined ? reply.usage : { prompt_tokens: tokens(body.messages.map((m) => m.content).join("")), completion_tokens: tokens(reply.content ?? "") };
        const completion = { id: `c${index}`, object: "chat.completion", model: `${body.model}-served`, choices: [{ index: 0, message: { role: "assistant", content: reply.content ?? null }, finish_reason: reply.finishReason ?? "stop" }], ...(usage ? { usage } : {}) };
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(completion));
      }
    } finally {
      if (mine === generation) inFlight--;
    }
  }

  const server = createServer((req, res) => void respond(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
