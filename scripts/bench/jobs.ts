/**
 * Metric job throughput against the metric's own computing time (issue 15 item 3): a study of
 * GradedReviews-sized pairs (scripts/bench/metrics.ts: 5,164 changes, each with its human
 * reference and one generated review) and a larger one of 50,000 pairs, in a fresh database.
 * For each metric: the time of metric.score over the pairs in a loop, then a metric run
 * through pg-boss as the CLI computes it (planning, chunks, stored scores), its reviews per
 * second and the overhead per review (job time minus computing time).
 */
import { createClient, type PrismaClient } from "@/lib/db/client";
import { createTestDatabase } from "@/lib/db/test-database";
import { createJobContext, drainMetricRun, startMetricRun, startQueue } from "@/lib/jobs";
import { getReferenceMetric } from "@/lib/metrics";
import { makePairs, PAIRS } from "./metrics";

/** Inserts `pairs` as changes with a reference and one generated review each; returns the study id. */
export async function createStudy(client: PrismaClient, slug: string, pairs: readonly [string, string][]): Promise<string> {
  const study = await client.study.create({ data: { slug, name: slug, taskTypes: ["REFERENCE_GRADING"] } });
  for (let start = 0; start < pairs.length; start += 10_000) {
    const page = pairs.slice(start, start + 10_000);
    const changeIds = page.map((_, i) => `${slug}-c${start + i}`);
    await client.$executeRawUnsafe(
      `INSERT INTO "CodeChange" (id, "studyId", "externalId", language, diff, position, "updatedAt")
       SELECT u.id, $2, u.id, 'java', '', u.position, now() FROM unnest($1::text[], $3::int[]) AS u(id, position)`,
      changeIds,
      study.id,
      page.map((_, i) => start + i),
    );
    await client.$executeRawUnsafe(
      `INSERT INTO "CandidateReview" (id, "codeChangeId", "externalId", system, text, "isReference", position)
       SELECT u.change || '-' || u.system, u.change, u.system, u.system, u.text, u.system = 'msg', u.position
       FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS u(change, system, text, position)`,
      [...changeIds, ...changeIds],
      [...page.map(() => "msg"), ...page.map(() => "gpt3.5")],
      [...page.map(([, reference]) => reference), ...page.map(([review]) => review)],
      [...page.map(() => 0), ...page.map(() => 1)],
    );
  }
  return study.id;
}

function computeMs(metric: string, pairs: readonly [string, string][]): number {
  const { score } = getReferenceMetric(metric)!;
  for (const [review, reference] of pairs.slice(0, 50)) score(review, reference); // warm-up
  const t0 = performance.now();
  for (const [review, reference] of pairs) score(review, reference);
  return performance.now() - t0;
}

export default async function run(): Promise<void> {
  const database = await createTestDatabase("crjudge_bench_jobs");
  const client = createClient(database.url);
  const boss = await startQueue(database.url, { supervise: false });
  try {
    for (const [size, metrics] of [[PAIRS, ["bleu-gradedreviews", "exact-match"]], [50_000, ["exact-match", "bleu-gradedreviews"]]] as const) {
      const pairs = makePairs(size);
      const studyId = await createStudy(client, `bench-jobs-${size}`, pairs);
      for (const metric of metrics) {
        const compute = computeMs(metric, pairs);
        const context = createJobContext({ client });
        const t0 = performance.now();
        const done = await drainMetricRun(boss, context, (await startMetricRun(context, boss, studyId, { metrics: [metric] })).run.id);
        const ms = performance.now() - t0;
        const stored = await client.metricScore.count({ where: { metric, candidateReview: { codeChange: { studyId } } } });
        console.log(
          `${metric} over ${size.toLocaleString("en")} reviews: computing ${compute.toFixed(0)} ms, metric job ${ms.toFixed(0)} ms (${done.status}, ${stored} scores stored), ` +
            `${((done.done / ms) * 1000).toFixed(0)} reviews/s, job / computing ${(ms / compute).toFixed(2)}, overhead ${(((ms - compute) * 1000) / size).toFixed(1)} µs/review`,
        );
      }
    }
  } finally {
    await boss.stop({ graceful: false, wait: true });
    await client.$disconnect();
    await database.drop();
  }
}
