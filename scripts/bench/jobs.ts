/**
 * Metric job throughput against the metric's own computing time: a study of
 * GradedReviews-sized pairs (scripts/bench/metrics.ts: 5,164 changes, each with its human
 * reference and one generated review) and a larger one of 50,000 pairs, in a fresh database.
 * For each metric: the time of metric.score over the pairs in a loop, then a metric run
 * through pg-boss as the CLI computes it (planning, chunks, stored scores), its reviews per
 * second and the overhead per review (job time minus computing time). Medians of wall time, of
 * this process's CPU time and of the database server's CPU time (5 runs at 5,164 reviews, as
 * for the computing time, so that the first run's JIT warm-up is not the median; 1 at 50,000),
 * since on a shared machine wall time also counts other people's work. Each run starts from the
 * same state: the previous run's scores deleted and the database vacuumed and analysed.
 */
import { availableParallelism, loadavg } from "node:os";
import { createClient, type PrismaClient } from "@/lib/db/client";
import { listStudyMetrics } from "@/lib/data/metric-scores";
import { createTestDatabase } from "@/lib/db/test-database";
import { createJobContext, drainMetricRun, startMetricRun } from "@/lib/metric-runs";
import { startQueue } from "@/lib/jobs";
import { getReferenceMetric } from "@/lib/metrics";
import { makePairs, PAIRS } from "./metrics";
import { postgresCpuBetween, postgresCpuByProcess } from "./support/postgres-cpu";
import { formatTiming, measure, median, type Timing } from "./support/timing";

/** Inserts `pairs` as changes with a reference and one generated review each; returns the study id. */
export async function createStudy(client: PrismaClient, slug: string, pairs: readonly [string, string][]): Promise<string> {
  const study = await client.study.create({ data: { slug, name: slug, tasks: ["REFERENCE_GRADING"] } });
  for (let start = 0; start < pairs.length; start += 10_000) {
    const page = pairs.slice(start, start + 10_000);
    const codeChangeIds = page.map((_, i) => `${slug}-c${start + i}`);
    await client.$executeRawUnsafe(
      `INSERT INTO "CodeChange" (id, "studyId", "externalId", language, diff, position, "updatedAt")
       SELECT u.id, $2, u.id, 'java', '', u.position, now() FROM unnest($1::text[], $3::int[]) AS u(id, position)`,
      codeChangeIds,
      study.id,
      page.map((_, i) => start + i),
    );
    await client.$executeRawUnsafe(
      `INSERT INTO "CandidateReview" (id, "codeChangeId", "externalId", system, text, "isReference", position)
       SELECT u.change || '-' || u.system, u.change, u.system, u.system, u.text, u.system = 'msg', u.position
       FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS u(change, system, text, position)`,
      [...codeChangeIds, ...codeChangeIds],
      [...page.map(() => "msg"), ...page.map(() => "gpt3.5")],
      [...page.map(([, reference]) => reference), ...page.map(([review]) => review)],
      [...page.map(() => 0), ...page.map(() => 1)],
    );
  }
  return study.id;
}

/** The metric's own scoring loop over the pairs: medians of wall and CPU time. */
function computeTiming(metric: string, pairs: readonly [string, string][]): Timing {
  const { score } = getReferenceMetric(metric)!;
  return measure(() => {
    for (const [review, reference] of pairs) score(review, reference);
  }, 5);
}


export default async function run(): Promise<void> {
  const database = await createTestDatabase("crjudge_bench_jobs");
  // The runs' queries (lib/data) go through the process's connection to DATABASE_URL.
  process.env.DATABASE_URL = database.url;
  const client = createClient(database.url);
  const boss = await startQueue(database.url, { supervise: false });
  const port = Number(new URL(database.url).port);
  const load = () => loadavg().map((l) => l.toFixed(1)).join(" ");
  console.log(`load average at start ${load()} (${availableParallelism()} cores)`);
  try {
    for (const [size, metrics, runs] of [[PAIRS, ["bleu-gradedreviews", "exact-match"], 5], [50_000, ["exact-match", "bleu-gradedreviews"], 1]] as const) {
      const pairs = makePairs(size);
      const studyId = await createStudy(client, `bench-jobs-${size}`, pairs);
      for (const metric of metrics) {
        const compute = computeTiming(metric, pairs);
        const wall: number[] = [];
        const cpu: number[] = [];
        const databaseCpu: number[] = [];
        let stored = 0;
        for (let i = 0; i < runs; i++) {
          await client.metricScore.deleteMany({ where: { metric } });
          // Every run from the same state: without it each later run inserts among the dead rows of
          // the one before (index entries to skip, heap pages to prune), and the first run plans its
          // statements on the statistics of an empty database.
          await client.$executeRawUnsafe("VACUUM (ANALYZE)");
          const context = createJobContext();
          const pg0 = postgresCpuByProcess(port);
          const c0 = process.cpuUsage();
          const t0 = performance.now();
          const done = await drainMetricRun(boss, context, (await startMetricRun(context, boss, studyId, { metrics: [metric] })).run.id);
          wall.push(performance.now() - t0);
          const used = process.cpuUsage(c0);
          cpu.push((used.user + used.system) / 1000);
          const pg1 = postgresCpuByProcess(port);
          if (pg0 !== null && pg1 !== null) databaseCpu.push(postgresCpuBetween(pg0, pg1));
          if (done.status !== "DONE") throw new Error(`metric run ended ${done.status}: ${done.error}`);
          stored = (await listStudyMetrics(studyId, client)).filter((v) => v.metric === metric).reduce((n, v) => n + v.count, 0);
        }
        const ms = median(wall);
        const job = { wallMs: ms, cpuMs: median(cpu), runs };
        const pgMs = databaseCpu.length > 0 ? median(databaseCpu) : null;
        const perReview = (jobMs: number, computeMs: number) => `${(((jobMs - computeMs) * 1000) / size).toFixed(1)} µs`;
        console.log(
          `${metric} over ${size.toLocaleString("en")} reviews (${stored} scores stored): computing ${formatTiming(compute)}; metric job ${formatTiming(job)}` +
            `${pgMs === null ? "" : `, PostgreSQL ${pgMs.toFixed(0)} ms CPU`}; ${((size / ms) * 1000).toFixed(0)} reviews/s, ` +
            `job / computing ${(ms / compute.wallMs).toFixed(2)} by wall, ${(job.cpuMs / compute.cpuMs).toFixed(2)} by this process's CPU`,
        );
        console.log(
          `  pipeline overhead per review (job minus computing, / ${size.toLocaleString("en")}): ${perReview(ms, compute.wallMs)} wall, ${perReview(job.cpuMs, compute.cpuMs)} this process's CPU` +
            `${pgMs === null ? "" : `, ${perReview(job.cpuMs + pgMs, compute.cpuMs)} CPU with PostgreSQL's`}`,
        );
      }
    }
    console.log(`load average at end ${load()}`);
  } finally {
    await boss.stop({ graceful: false, wait: true });
    await client.$disconnect();
    await database.drop();
  }
}
