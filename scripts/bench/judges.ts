/**
 * Overhead of the LLM-judge client against a loopback chat-completions server that answers at
 * once (or after a fixed delay): requests/s at several concurrency limits, and reviews/s of the
 * GradedReviews (3 trials) and SWE-Judge (6 strategies, first steps shared per change) judges.
 * The figures measure our client and judges only, never a model.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createChatClient, gradedReviewsMetric, sweJudgeMetric, type ChatClient } from "@/lib/judges";

/** Starts the server; `delayMs` simulates model latency. Every answer reads as a grade and a 0-100 score. */
async function startServer(delayMs: number): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let count = 0;
  const body = JSON.stringify({ model: "bench", choices: [{ index: 0, message: { role: "assistant", content: '{"score": 3, "reason": "bench"}' }, finish_reason: "stop" }] });
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      count++;
      const send = () => res.writeHead(200, { "content-type": "application/json" }).end(body);
      if (delayMs > 0) setTimeout(send, delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => count,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function timed(label: string, units: string, count: number, run: () => Promise<unknown>): Promise<void> {
  const t0 = performance.now();
  await run();
  const seconds = (performance.now() - t0) / 1000;
  console.log(`${label.padEnd(52)} ${(count / seconds).toFixed(0).padStart(7)} ${units}/s   (${count} in ${seconds.toFixed(2)} s)`);
}

const messages = [{ role: "user" as const, content: "Grade this review: 1 to 5." }];

async function requests(client: ChatClient, n: number): Promise<void> {
  await Promise.all(Array.from({ length: n }, () => client.complete({ messages })));
}

export default async function run(): Promise<void> {
  for (const delayMs of [0, 20]) {
    const server = await startServer(delayMs);
    for (const maxConcurrency of [1, 4, 16, 64]) {
      const n = delayMs === 0 ? 2000 : Math.min(2000, maxConcurrency * 25);
      const client = createChatClient({ url: server.url, model: "bench", maxConcurrency }, {});
      await requests(client, 20); // warm up the connection pool
      await timed(`chat requests, server delay ${delayMs} ms, concurrency ${maxConcurrency}`, "req", n, () => requests(client, n));
    }
    await server.close();
  }

  const server = await startServer(0);
  const client = createChatClient({ url: server.url, model: "bench", maxConcurrency: 16 }, {});
  const reviews = Array.from({ length: 300 }, (_, i) => ({ text: `Review ${i}: rename the variable.`, reference: `Reference ${i % 30}: use a clearer name.`, change: `@@ change ${i % 30} @@` }));

  const graded = gradedReviewsMetric(client);
  let before = server.requests();
  await timed("GradedReviews judge (3 trials), concurrency 16", "reviews", reviews.length, () => Promise.all(reviews.map((r) => graded.score(r.text, r.reference))));
  console.log(`  ${server.requests() - before} requests`);

  const swe = sweJudgeMetric(client);
  before = server.requests();
  await timed("SWE-Judge (all 6 variants, 30 changes), concurrency 16", "reviews", reviews.length, () =>
    Promise.all(reviews.map((r) => swe.score(r.text, r.reference, { codeChange: r.change }))),
  );
  console.log(`  ${server.requests() - before} requests (6 per review + 2 first steps per change)`);
  await server.close();
}
