/**
 * The metric worker: computes queued metric runs (pg-boss queue "metric-chunks"), dashboard
 * reports with CIs (queue "report-jobs"), pseudo-reference runs (queues "pseudo-reference-jobs"
 * and "static-analysis-jobs"), large upload imports (queue "import-jobs"), judge runs started
 * from a page (queue "judge-runs"), matcher runs started from the tools page (queue
 * "matcher-runs"), idle participants' releases (queue "participant-releases") and webhook deliveries (queue "webhook-deliveries") until stopped with
 * Ctrl+C / SIGTERM. Here the domains' handlers are gathered: each domain subscribes to its queue
 * (lib/jobs/work.ts), and the job queue knows none of them. `npm start` runs
 * and supervises it from its prebuilt bundle (`node scripts/run.mjs worker`). Runs started
 * from the web pages wait in the queue for a
 * worker; chunks a killed worker held are retried once they expire. Uses DATABASE_URL, or the
 * embedded server as the CLI does.
 */
import { resolveDatabase } from "@/lib/db/resolve";
import { startQueue } from "@/lib/jobs/queue";
import { onReportDone, workReportJobs } from "@/lib/analysis/report-work";
import { workImportJobs } from "@/lib/import/work";
import { workMetricChunks } from "@/lib/metric-runs/work";
import { workPseudoReferenceJobs } from "@/lib/pseudo-refs/work";
import { workJudgeRuns } from "@/lib/judge-runs/work";
import { workMatcherRuns } from "@/lib/matcher-runs/work";
import { workParticipantReleases } from "@/lib/crowd/work";
import { workWebhookDeliveries } from "@/lib/webhooks/work";
import { env } from "@/lib/env";

const database = await resolveDatabase((line) => console.error(line));
const boss = await startQueue(database.url);
// Chunks computed at once by this process: 1 suits CPU-bound metrics (run one worker per core
// instead); more suit LLM judges and embedding endpoints, which mostly wait.
const concurrency = env().METRIC_WORKER_CONCURRENCY;
await workMetricChunks(boss, { concurrency });
await workPseudoReferenceJobs(boss, { concurrency });
await workReportJobs(boss);
await workImportJobs(boss);
await workJudgeRuns(boss);
await workMatcherRuns(boss);
await workParticipantReleases(boss);
await workWebhookDeliveries(boss);
// The domains' listeners of each other's jobs: a calibration round whose release rule waited for
// its agreement report's CIs opens as soon as this worker has computed them (loaded then).
// A report's webhooks hear of it (and of the round it released: lib/data/rounds announces it).
onReportDone(async (report) => {
  const [{ releaseAfterReport }, { announce }] = await Promise.all([import("@/lib/data/rounds"), import("@/lib/webhooks/send")]);
  await announce({ id: report.studyId }, "report.ready", { report: report.kind });
  await releaseAfterReport(report);
});

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await boss.stop({ graceful: true, wait: true });
  // Through Prisma only if a job loaded it (it then owns the pool): loading it only to disconnect is slow (lib/db/connection.ts).
  const { closeConnections } = await import("@/lib/db/connection");
  await closeConnections();
  await database.release();
  process.exit(0);
}
process.once("SIGINT", () => void stop());
process.once("SIGTERM", () => void stop());
// Ready once stopping is handled: a supervisor may stop the worker as soon as it reads this.
console.error(`metric worker: processing queue "metric-chunks" on ${new URL(database.url).host} (${concurrency} at a time)`);
