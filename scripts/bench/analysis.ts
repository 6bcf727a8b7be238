/**
 * Dashboard query time and metric job throughput on a synthetic CRScore-style study with
 * 100,000 ratings: 2,500 code changes with 3 pseudo-references each and 10 reviews (9 systems
 * and the human reference), every review rated by 4 annotators on the three Likert dimensions.
 * Reviews and ratings derive from a latent quality per review (fixed seed), so metrics and
 * ratings correlate a little, as in the papers. The study lives in its own database, dropped
 * at the end.
 *  - metric jobs: every metric of `metrics --metric`, computed through pg-boss as the CLI does,
 *    reviews per second including planning (TF-IDF fit and tau calibration for CRScore and
 *    embeddingSim, offline default); `--dashboards` runs only the two the correlation queries read
 *    (crscore, bleu-codereviewer), to time the dashboard queries alone; then a hash of every stored
 *    score, named by external ids, so that runs at two commits show whether the scores are the same;
 *  - dashboard queries: agreementReport (all questions) and validityReport (segment and
 *    system level), with their default bootstrap CIs (1000 resamples, fewer on big data, see
 *    affordableResamples) and without CIs (nResamples 0, the numbers a page can show first),
 *    and how long reading the ratings from the database takes on its own, before the new rows
 *    have statistics and after ANALYZE (the reports are timed after it); medians of `--runs N`
 *    (default 3) of wall time and of this process's CPU, with PostgreSQL's CPU beside them.
 */
import { availableParallelism, loadavg } from "node:os";
import { agreementReport, validityReport } from "@/lib/data/reports";
import { requireStudy } from "@/lib/data/studies";
import { gatherTaskColumns } from "@/lib/data/task-answers";
import { createClient, type PrismaClient, transactionConnection } from "@/lib/db/client";
import { copyRows } from "@/lib/data/import-writer";
import { BULK_TABLES } from "@/lib/import/write-bundle";
import { orderedIds } from "@/lib/import/row-ids";
import { createTestDatabase } from "@/lib/db/test-database";
import { createJobContext, drainMetricRun, isJudgeMetric, METRIC_JOB_NAMES, startMetricRun } from "@/lib/metric-runs";
import { startQueue } from "@/lib/jobs";
import { parseArgs } from "@/lib/cli/args";
import { seededRandom } from "@/lib/stats";
import { postgresCpuMs } from "./support/postgres-cpu";
import { formatTiming, measureAsync, median } from "./support/timing";

const CHANGES = 2500;
const SYSTEMS = ["msg", "knn", "lstm", "codereviewer", "magicoder", "deepseekcoder", "stable_code", "llama3", "codellama_13b", "gpt3.5"];
const ANNOTATORS = 4;
const DIMENSIONS = ["conciseness", "comprehensiveness", "relevance"];

const WORDS = (
  "the a this is it to of in for be we should can use not please why here method variable null check return value test add remove rename " +
  "unused import constant final private static class interface exception error handle log message string list map instead consider need " +
  "because typo comment code change field parameter argument default config timeout thread lock async callback cache retry loop index"
).split(" ");

/**
 * The study, written through COPY into the tables imports write (BULK_TABLES, the schema's
 * defaults where an import would have nothing to say), without statistics afterwards. Written through Prisma's createMany in batches of 5,000 rows, the query
 * plans of the batches stayed alive in this process (about 500 MB of heap, until later queries
 * displaced them), and the CRScore job timed next spent 0.7-0.9 s more of this process's CPU,
 * a full collection marking them among it: a cost of the bench's setup, not of the job.
 */
export async function createStudy(client: PrismaClient): Promise<string> {
  const random = seededRandom(20261122);
  const pick = () => WORDS[Math.floor(random() * WORDS.length)];
  const sentence = (words: number) => Array.from({ length: words }, pick).join(" ");
  const study = await client.study.create({ data: { slug: "bench-analysis", name: "bench", tasks: ["REVIEW_RATING"] } });
  const annotators = await Promise.all(Array.from({ length: ANNOTATORS }, (_, a) => client.account.create({ data: { email: `bench-${a}@bench.invalid`, name: `annotator ${a + 1}` } })));
  const now = new Date();
  const nextId = orderedIds(now);
  const changes = Array.from({ length: CHANGES }, (_, c) => ({ id: nextId(), studyId: study.id, externalId: `c${c}`, pullRequestId: null, filePath: "", language: ["python", "java", "javascript"][c % 3], diff: "", oldFile: "", newFile: "", metadata: {}, position: c, updatedAt: now }));
  const claims = changes.map(() => [sentence(9), sentence(10), sentence(8)]);
  const pseudoReferences = changes.flatMap((c, i) => claims[i].map((text, k) => ({ id: nextId(), codeChangeId: c.id, externalId: `p${k}`, text, kind: "CLAIM" as const, source: "bench", position: k, addedById: null, correctsId: null, updatedAt: now })));
  const quality: number[] = [];
  const reviews = changes.flatMap((c, i) =>
    SYSTEMS.map((system, s) => {
      const q = 1 + Math.floor(random() * 5);
      quality.push(q);
      // Better reviews repeat more words of the change's claims.
      const text = `${claims[i][0].split(" ").slice(0, q + 2).join(" ")} ${sentence(4)}. ${sentence(6 + Math.floor(random() * 8))}`;
      return { id: nextId(), codeChangeId: c.id, externalId: system, system, text, isReference: s === 0, textMissing: false, position: s };
    }),
  );
  const ratings = reviews.flatMap((review, r) =>
    annotators.map((a) => ({
      id: nextId(),
      annotatorId: a.id,
      reviewId: review.id,
      scores: Object.fromEntries(DIMENSIONS.map((d) => [d, Math.min(5, Math.max(1, quality[r] + (random() < 0.3 ? (random() < 0.5 ? -1 : 1) : 0)))])),
      comment: "",
      timeSpentMs: 0,
      importRunId: null,
      importedFile: null,
      createdAt: now,
      updatedAt: now,
    })),
  );
  await client.$transaction(
    async (tx) => {
      const connection = await transactionConnection(client, tx);
      await copyRows(connection, BULK_TABLES.codeChanges, changes);
      await copyRows(connection, BULK_TABLES.pseudoReferences, pseudoReferences);
      await copyRows(connection, BULK_TABLES.reviews, reviews);
      await copyRows(connection, BULK_TABLES.reviewRatings, ratings);
    },
    { timeout: 120_000 },
  );
  return study.id;
}

async function timed<T>(label: string, run: () => Promise<T>, describe: (result: T, ms: number) => string): Promise<T> {
  const t0 = performance.now();
  const result = await run();
  const ms = performance.now() - t0;
  console.log(`${label.padEnd(52)} ${(ms / 1000).toFixed(2).padStart(7)} s   ${describe(result, ms)}`);
  return result;
}

/** `run` `runs` times: medians of wall and CPU time, PostgreSQL's median CPU, and `describe` of the last result. */
async function timedRuns<T>(label: string, runs: number, port: number, run: () => Promise<T>, describe: (result: T) => string): Promise<void> {
  let result: T | undefined;
  const pg: number[] = [];
  const timing = await measureAsync(async () => {
    const pg0 = postgresCpuMs(port);
    result = await run();
    const pg1 = postgresCpuMs(port);
    if (pg0 !== null && pg1 !== null) pg.push(pg1 - pg0);
  }, runs);
  const pgMs = pg.length === 0 ? "" : `, PostgreSQL ${median(pg).toFixed(0)} ms CPU`;
  console.log(`${label.padEnd(52)} ${formatTiming(timing)}${pgMs}   ${describe(result as T)}`);
}

export default async function run(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const runs = Number(args.flags.get("runs") ?? 3);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number of at least 1, got ${String(args.flags.get("runs"))}`);
  const dashboardMetrics = new Set(["crscore", "bleu-codereviewer"]);
  const database = await createTestDatabase("crjudge_bench_analysis");
  // The runs' queries (lib/data) go through the process's connection to DATABASE_URL.
  process.env.DATABASE_URL = database.url;
  const client = createClient(database.url);
  const boss = await startQueue(database.url, { supervise: false });
  const port = Number(new URL(database.url).port);
  try {
    const studyId = await timed("create study (25,000 reviews, 100,000 ratings)", () => createStudy(client), () => "");
    // LLM judges need an endpoint (LLM_URL); scripts/bench/judges.ts measures them.
    console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(" ")} (${availableParallelism()} cores)`);
    for (const metric of METRIC_JOB_NAMES.filter((m) => !isJudgeMetric(m) && (!args.flags.has("dashboards") || dashboardMetrics.has(m)))) {
      const context = createJobContext();
      // The run's chunks of the default size, as the CLI and the pages ask; CPU of this process and of the database beside the wall time.
      const pg0 = postgresCpuMs(port);
      const c0 = process.cpuUsage();
      await timed(
        `metric job: ${metric}`,
        async () => drainMetricRun(boss, context, (await startMetricRun(context, boss, studyId, { metrics: [metric] })).run.id),
        (r, ms) => {
          const used = process.cpuUsage(c0);
          const pg1 = postgresCpuMs(port);
          const cpu = `${((used.user + used.system) / 1000).toFixed(0)} ms CPU here${pg0 === null || pg1 === null ? "" : `, ${(pg1 - pg0).toFixed(0)} ms PostgreSQL's`}`;
          return `${r.status} ${r.done} reviews, ${((r.done / ms) * 1000).toFixed(0)} reviews/s (${cpu})`;
        },
      );
    }
    console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    // Named by the study's external ids, so runs at other commits (each on its own new study) can be compared: the same scores, the same hash.
    const [stored] = await client.$queryRaw<{ rows: number; hash: string }[]>`
      SELECT count(*)::int AS rows, md5(string_agg(concat_ws('|', c."externalId", r."externalId", s.metric, s."paramsKey", s.value::text, s.detail::text), E'\n' ORDER BY c."externalId", r."externalId", s.metric, s."paramsKey")) AS hash
      FROM "MetricScore" s JOIN "CandidateReview" r ON r.id = s."candidateReviewId" JOIN "CodeChange" c ON c.id = r."codeChangeId" WHERE c."studyId" = ${studyId}`;
    console.log(`stored scores: ${stored.rows} rows, md5 of their reviews' external ids, metric, signature, value and detail ${stored.hash}`);
    const readRatings = async () => gatherTaskColumns(await requireStudy({ id: studyId }, client), "REVIEW_RATING", client);
    await timedRuns("read ratings, 3 Likert questions (database only), no statistics yet", runs, port, readRatings, (r) => `${r.items.length} items`);
    // What autovacuum does within a minute of such a bulk insert; the reads' plans (hash joins and aggregates) rest on it.
    await client.$executeRawUnsafe("ANALYZE");
    await timedRuns("read ratings, 3 Likert questions (database only)", runs, port, readRatings, (r) => `${r.items.length} items`);
    for (const [label, bootstrap] of [["CIs", {}], ["no CIs", { nResamples: 0 }]] as const) {
      await timedRuns(`agreementReport (3 Likert questions), ${label}`, runs, port, () => agreementReport(studyId, { bootstrap }, client), (r) => {
        const q = r.tasks[0].questions[0];
        const alpha = q.coefficients.find((c) => c.key === "alpha");
        return `${q.counts.ratings} ratings/question, alpha(${q.question}) ${alpha?.value?.toFixed(4)}, ${alpha?.ci?.nResamples ?? 0} resamples`;
      });
      for (const [metric, level] of [["crscore-rel", "review"], ["bleu-codereviewer", "review"], ["bleu-codereviewer", "system"]] as const) {
        await timedRuns(`validityReport ${metric} × relevance, ${level}, ${label}`, runs, port, () => validityReport(studyId, { metric, human: "relevance", level, bootstrap }, client), (r) => `n ${r.correlations.overall.n}, Spearman ${r.correlations.overall.spearman.statistic?.toFixed(4)}`);
      }
    }
    console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  } finally {
    await boss.stop({ graceful: false, wait: true });
    await client.$disconnect();
    await database.drop();
  }
}
