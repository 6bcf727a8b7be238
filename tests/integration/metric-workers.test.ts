/**
 * Scale-out: two metric worker processes (scripts/worker.ts, as `npm start` or a second machine
 * runs it) on one database share one run's chunks through the pg-boss queue, and no chunk is
 * computed twice. Each chunk job records which worker computed it (its output).
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, expect, inject, test } from "vitest";
import { createClient } from "@/lib/db/client";
import { type ChunkJobOutput, createJobContext, startMetricRun } from "@/lib/metric-runs";
import { METRIC_QUEUE, startQueue } from "@/lib/jobs";
import { studyReviewIds } from "./study-review-ids";

const url = inject("databaseUrl");
const db = createClient(url);
const workers: ChildProcess[] = [];
let studyId: string | undefined;

/** Reports at exit whether the process loaded Prisma. */
const PRISMA_AT_EXIT = path.resolve("tests/integration/prisma-loaded-at-exit.mjs");
const stderrOf = new WeakMap<ChildProcess, string>();

/** Starts scripts/worker.ts on the test database and resolves once it subscribed to the queue. */
function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "--import", PRISMA_AT_EXIT, "scripts/worker.ts"], { cwd: path.resolve("."), env: { ...process.env, DATABASE_URL: url }, stdio: ["ignore", "ignore", "pipe"] });
  workers.push(child);
  stderrOf.set(child, "");
  return new Promise((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderrOf.set(child, stderrOf.get(child) + chunk.toString("utf8"));
      if (stderrOf.get(child)!.includes("metric worker: processing")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}: ${stderrOf.get(child)}`)));
  });
}

/** Stops the worker as `npm start` does (SIGTERM); its exit code and everything it wrote to stderr. */
async function stopWorker(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  // The stream may still hold the last lines once the process has exited.
  if (!child.stderr?.readableEnded) await new Promise((resolve) => child.stderr?.once("end", resolve));
  return { code: child.exitCode, stderr: stderrOf.get(child) ?? "" };
}

afterAll(async () => {
  await Promise.all(workers.map(stopWorker));
  if (studyId) await db.study.delete({ where: { id: studyId } });
  await db.$disconnect();
});

test("two workers on one database share a run's chunks, none computed twice", async () => {
  const study = await db.study.create({ data: { slug: "two-workers", name: "two workers", tasks: ["REVIEW_RATING"] } });
  studyId = study.id;
  // Enough chunks that the run outlasts a worker's polling interval (1 s) several times over even
  // on an idle machine: the worker that polls first drains chunk after chunk without waiting, so a
  // run shorter than the interval could end before the other worker polls at all.
  const changes = 200;
  const chunks = changes * 3;
  for (let c = 0; c < changes; c++) {
    await db.codeChange.create({
      data: {
        studyId,
        externalId: `change-${c}`,
        language: "python",
        diff: "",
        position: c,
        reviews: {
          create: [
            { externalId: "ref", system: "msg", text: `Why is x set to ${c} here?`, isReference: true, position: 0 },
            ...["a", "b", "c"].map((system, i) => ({ externalId: system, system, text: `Please explain why x becomes ${c + i}.`, position: i + 1 })),
          ],
        },
      },
    });
  }
  await Promise.all([startWorker(), startWorker()]);

  // As a web page does: plan and enqueue only; one review per chunk, so 600 chunks to share.
  const boss = await startQueue(url, { supervise: false });
  const started = await startMetricRun(createJobContext(), boss, studyId, { metrics: ["chrf"], chunkSize: 1 }).finally(() => boss.stop({ graceful: false, wait: true }));
  expect(started.chunks).toEqual({ total: chunks, enqueued: chunks, skipped: 0 });
  let run = started.run;
  for (let i = 0; i < 600 && run.status !== "DONE" && run.status !== "FAILED"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    run = await db.metricRun.findUniqueOrThrow({ where: { id: run.id } });
  }
  expect(run).toMatchObject({ status: "DONE", done: chunks, total: chunks });

  const readJobs = () => db.$queryRaw<{ chunk: number; state: string; retries: number; output: ChunkJobOutput }[]>`
    SELECT (data->>'chunk')::int AS chunk, state::text AS state, retry_count AS retries, output
    FROM pgboss.job WHERE name = ${METRIC_QUEUE} AND data->>'runId' = ${run.id} ORDER BY 1`;
  // The run is done once the last chunk is stored; its job completes after the worker announced the run's end (metric-run.finished).
  let jobs = await readJobs();
  for (let i = 0; i < 100 && jobs.some((j) => j.state === "active"); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    jobs = await readJobs();
  }
  // Every chunk ran once, completed at the first attempt, and computed its one review.
  expect(jobs.map((j) => j.chunk)).toEqual(Array.from({ length: chunks }, (_, i) => i));
  expect(jobs.every((j) => j.state === "completed" && j.retries === 0 && j.output.reviews === 1)).toBe(true);
  // Both processes took a share.
  const byWorker = new Map<string, number>();
  for (const j of jobs) byWorker.set(j.output.worker, (byWorker.get(j.output.worker) ?? 0) + 1);
  expect(byWorker.size).toBe(2);
  expect(new Set([...byWorker.keys()].map((w) => Number(w.split(":").pop())))).toEqual(new Set(workers.map((w) => w.pid)));
  expect(await db.metricScore.count({ where: { metric: "chrf", reviewId: await studyReviewIds(db, studyId) } })).toBe(chunks);

  // Workers that ran jobs loaded Prisma with them, and stop cleanly, disconnecting it.
  for (const stopped of await Promise.all(workers.map(stopWorker))) {
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr).toContain("prisma loaded: true");
  }
});

test("a worker stopped before any job never loads Prisma, and exits cleanly", async () => {
  const stopped = await stopWorker(await startWorker());
  expect(stopped.code, stopped.stderr).toBe(0);
  expect(stopped.stderr).toContain("prisma loaded: false");
});
