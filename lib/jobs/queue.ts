/**
 * The PostgreSQL-backed job queue (pg-boss, in the schema "pgboss" of the product's database):
 * its queues and their retry policies, starting it, and enqueueing. The domains' runs (metric
 * runs, pseudo-reference runs, report jobs, import jobs, judge runs, matcher runs) send to these queues and register their
 * handlers (./work.ts); this module knows nothing of them.
 */
import { createHash } from "node:crypto";
import pg from "pg";
import PgBoss from "pg-boss";
import { databaseUrl } from "@/lib/env";
import { InvariantError } from "@/lib/errors";

/** One job per chunk of a metric run's reviews (lib/metric-runs). */
export const METRIC_QUEUE = "metric-chunks";
/** Dashboard reports with CIs (lib/analysis/report-jobs.ts). */
export const REPORT_QUEUE = "report-jobs";
/** One job per code change of a pseudo-reference run (lib/pseudo-refs): LLM claims, one at a time. */
export const PSEUDO_REFERENCE_QUEUE = "pseudo-reference-jobs";
/** One job per code change of a static-analysis (smells) run, taken in chunks (lib/pseudo-refs). */
export const STATIC_ANALYSIS_QUEUE = "static-analysis-jobs";
/** Large upload imports (lib/import/jobs.ts). */
export const IMPORT_QUEUE = "import-jobs";
/** One job per judge run started from a page (lib/judge-runs): the run answers every item, resuming where it stopped. */
export const JUDGE_QUEUE = "judge-runs";
/** One job per matcher run started from the tools page (lib/matcher-runs). */
export const MATCHER_QUEUE = "matcher-runs";
/** One job per participant (crowd links, lib/crowd): releases their open items once they have been idle for the study's release time. */
export const PARTICIPANT_RELEASE_QUEUE = "participant-releases";
/** One job per webhook delivery (lib/webhooks), retried with backoff for about a day. */
export const WEBHOOK_QUEUE = "webhook-deliveries";

/** Retries of a failing job (and of one whose worker died, once it expires). */
const RETRY_LIMIT = 2;
/** A job not finished after this long counts as lost (its worker died) and is retried. */
const EXPIRE_SECONDS = 15 * 60;

const QUEUES: PgBoss.Queue[] = [
  { name: METRIC_QUEUE, retryLimit: RETRY_LIMIT, expireInSeconds: EXPIRE_SECONDS },
  { name: REPORT_QUEUE, retryLimit: 1, expireInSeconds: EXPIRE_SECONDS },
  // A chunk of static analyses may take longer than one LLM claim.
  { name: PSEUDO_REFERENCE_QUEUE, retryLimit: RETRY_LIMIT, expireInSeconds: EXPIRE_SECONDS },
  { name: STATIC_ANALYSIS_QUEUE, retryLimit: RETRY_LIMIT, expireInSeconds: 2 * EXPIRE_SECONDS },
  // One transaction, allowed up to 30 minutes.
  { name: IMPORT_QUEUE, retryLimit: 1, expireInSeconds: 2 * EXPIRE_SECONDS + 5 * 60 },
  // A run answers a study's items at its concurrency (hours on a big study); a retry resumes it.
  { name: JUDGE_QUEUE, retryLimit: RETRY_LIMIT, expireInSeconds: 8 * EXPIRE_SECONDS },
  // A run reads the study's comments and stores its pairs in one transaction.
  { name: MATCHER_QUEUE, retryLimit: RETRY_LIMIT, expireInSeconds: EXPIRE_SECONDS },
  // A few statements; due at a time of its own (startAfter), looked at again later if the participant was active meanwhile.
  { name: PARTICIPANT_RELEASE_QUEUE, retryLimit: RETRY_LIMIT, expireInSeconds: EXPIRE_SECONDS },
  // Retry n waits 30 s × 2^n to 30 s × 2^(n+1) (pg-boss's backoff with jitter): the 11 retries
  // span 17 to 34 hours. One attempt is a request with a 10 s timeout.
  { name: WEBHOOK_QUEUE, retryLimit: 11, retryDelay: 30, retryBackoff: true, expireInSeconds: 60 },
];

/**
 * Starts pg-boss on `url` (installing its schema on first use) with the product's queues.
 * `supervise: false` suits short-lived CLI processes: they drain their own run and leave
 * expiry and archiving to the long-running worker.
 */
export async function startQueue(url: string, options: { supervise?: boolean } = {}): Promise<PgBoss> {
  const supervise = options.supervise ?? true;
  // No cron schedules are used: without pg-boss's timekeeper a start saves its queries (clock
  // skew, its own queue, a polling worker).
  const boss = new PgBoss({ connectionString: url, max: 4, supervise, schedule: false });
  boss.on("error", (error) => console.error(`job queue: ${error.message}`));
  await boss.start();
  // Made once per database: a start after the first finds them all in one statement.
  if ((await missingQueues(boss)).length > 0) await createMissingQueues(boss, url);
  return boss;
}

async function missingQueues(boss: PgBoss): Promise<PgBoss.Queue[]> {
  const existing = new Set((await boss.getQueues()).map((queue) => queue.name));
  return QUEUES.filter((queue) => !existing.has(queue.name));
}

/** An arbitrary constant naming the advisory lock under which starting processes make the queues. */
const QUEUE_LOCK_KEY = 72707302;

/**
 * Makes the queues still missing, one process at a time: processes starting together on a new
 * database (the web server and the worker, or several workers) would otherwise make the same
 * queue at once, and pg-boss's create_queue deadlocks then.
 */
async function createMissingQueues(boss: PgBoss, url: string): Promise<void> {
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query("SELECT pg_advisory_lock($1)", [QUEUE_LOCK_KEY]);
    for (const queue of await missingQueues(boss)) await boss.createQueue(queue.name, queue);
  } finally {
    await lock.end(); // the session's end releases its lock
  }
}

let webQueue: Promise<PgBoss> | undefined;

/** The web process's queue connection for sending report and import jobs (no maintenance: the worker does it). */
export function sendQueue(): Promise<PgBoss> {
  const url = databaseUrl();
  webQueue ??= startQueue(url, { supervise: false }).catch((error: unknown) => {
    webQueue = undefined;
    throw error;
  });
  return webQueue;
}

/** A UUID fixed by `key`, so enqueueing the same work twice makes one job (pg-boss ignores a known id). */
export function jobIdOf(key: string): string {
  const h = createHash("sha256").update(key).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Enqueues jobs on `queue` with its retry policy, each with a fixed id (jobIdOf), replacing any
 * job of the same id left by an earlier attempt (e.g. one that was active when its process was
 * killed, which would otherwise wait for its expiry). `retryDelay`: seconds before the first
 * retry instead of the queue's (tests make a day of backoff a few seconds).
 */
export async function replaceJobs(boss: PgBoss, queue: string, jobs: readonly { id: string; data: object; startAfter?: Date }[], retryDelay?: number): Promise<void> {
  if (jobs.length === 0) return;
  const policy = QUEUES.find((q) => q.name === queue);
  if (!policy) throw new InvariantError(`no job queue ${queue}`);
  await boss.deleteJob(queue, jobs.map((job) => job.id));
  const retry = { retryLimit: policy.retryLimit, retryDelay: retryDelay ?? policy.retryDelay, retryBackoff: policy.retryBackoff };
  await boss.insert(jobs.map(({ id, data, startAfter }) => ({ id, name: queue, data, startAfter, ...retry, expireInSeconds: policy.expireInSeconds })));
}
