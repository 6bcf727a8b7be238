/**
 * Overhead of the LLM-judge client against a loopback chat-completions server that answers at
 * once (or after a fixed delay): requests/s at several concurrency limits, and reviews/s of the
 * GradedReviews (3 trials) and SWE-Judge (6 strategies, first steps shared per change) judges.
 * Then a judge run (the CLI `judge` command's runJudge) of 1,000 judgements on a fresh database
 * against a server answering in 200 ms at concurrency 16: its wall time against the endpoint's
 * floor (1000 / 16 · 0.2 s = 12.5 s), this process's and the database server's CPU, and the same
 * run by another judge name served from the response cache. The figures measure our client,
 * judges and runs only, never a model.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { createClient } from "@/lib/db/client";
import { createTestDatabase } from "@/lib/db/test-database";
import { runJudge } from "@/lib/judge-runs/run";
import { createChatClient, gradedReviewsMetric, sweJudgeMetric, type ChatClient } from "@/lib/judges";
import { createStudy } from "./jobs";
import { postgresCpuBetween, postgresCpuByProcess } from "./support/postgres-cpu";

/** Starts the server; `delayMs` simulates model latency. Every answer reads as a grade, a 0-100 score and a judge rater's answer 3. */
async function startServer(delayMs: number): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let count = 0;
  const body = JSON.stringify({ model: "bench", choices: [{ index: 0, message: { role: "assistant", content: '{"score": 3, "answer": "3", "reason": "bench"}' }, finish_reason: "stop" }] });
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

  await judgeRunBench();
}

/** Judgements of the judge-run bench, the endpoint's latency and the run's concurrency. */
const JUDGEMENTS = 1000;
const LATENCY_MS = 200;
const CONCURRENCY = 16;

/** One judge run over the study's generated reviews (reference grading's grade), timed: wall, this process's CPU and the database server's. */
async function timedRun(port: number, slug: string, name: string, url: string) {
  const pg0 = postgresCpuByProcess(port);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const { run } = await runJudge({ study: slug, task: "REFERENCE_GRADING", question: "grade", name, concurrency: CONCURRENCY, llm: { url, model: "bench" } });
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const pg1 = postgresCpuByProcess(port);
  return { run, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, databaseCpuMs: pg0 && pg1 ? postgresCpuBetween(pg0, pg1) : null };
}

async function judgeRunBench(): Promise<void> {
  const database = await createTestDatabase("crjudge_bench_judges");
  // The run's queries (lib/data) go through the process's connection to DATABASE_URL.
  process.env.DATABASE_URL = database.url;
  const client = createClient(database.url);
  const server = await startServer(LATENCY_MS);
  try {
    const slug = "bench-judges";
    const pairs = Array.from({ length: JUDGEMENTS }, (_, i): [string, string] => [`Review ${i}: rename the variable.`, `Reference ${i}: use a clearer name.`]);
    await createStudy(client, slug, pairs);
    const port = Number(new URL(database.url).port);
    console.log(`judge run: ${JUDGEMENTS} judgements, endpoint ${LATENCY_MS} ms, concurrency ${CONCURRENCY}, load ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
    const floorS = (JUDGEMENTS / CONCURRENCY) * (LATENCY_MS / 1000);
    for (const [label, name] of [["first run", "bench"], ["again, another judge name: from the cache", "bench-cached"]] as const) {
      const before = server.requests();
      const t = await timedRun(port, slug, name, server.url);
      const db = t.databaseCpuMs === null ? "n/a" : `${(t.databaseCpuMs / 1000).toFixed(2)} s`;
      console.log(
        `  ${label.padEnd(44)} ${(t.wallMs / 1000).toFixed(2)} s wall (endpoint floor ${floorS.toFixed(1)} s), CPU ${(t.cpuMs / 1000).toFixed(2)} s, database CPU ${db}, ${server.requests() - before} requests, ${t.run.status} ${t.run.done}/${t.run.total}`,
      );
    }
  } finally {
    await server.close();
    await client.$disconnect();
    await database.drop();
  }
}
