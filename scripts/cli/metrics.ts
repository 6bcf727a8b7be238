import { CliError, optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { listStudyMetrics } from "@/lib/data/metric-scores";
import { requireStudy } from "@/lib/data/studies";
import { createJobContext, drainMetricRun, METRIC_JOB_NAMES, runParams, startMetricRun, type TauCalibration } from "@/lib/metric-runs";
import { startQueue } from "@/lib/jobs";
import type { MetricRun } from "@/lib/generated/prisma/client";
import { databaseUrl } from "@/lib/env";

const numberFlag = (value: string | undefined, name: string): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new CliError(`--${name} must be a number, got "${value}"`);
  return n;
};

/** CRScore's τ procedure (lib/metric-runs/tau.ts): the paper's, on the best system's reviews, or τ_GT on the human references. */
function tauCalibrationFlag(value: string | undefined): TauCalibration | undefined {
  if (value === undefined || value === "best-system" || value === "gt") return value;
  throw new CliError(`--tau-calibration must be best-system or gt, got "${value}"`);
}

/** One progress line on stderr: rewritten in place on a terminal, at most once a second otherwise. */
function progressReporter(started: number): (run: MetricRun) => void {
  let last = 0;
  return (run) => {
    const now = performance.now();
    const finished = run.done >= run.total;
    if (!process.stderr.isTTY && !finished && now - last < 1000) return;
    last = now;
    const rate = run.done / Math.max((now - started) / 1000, 1e-3);
    const line = `metrics: ${run.done}/${run.total} reviews (${((100 * run.done) / Math.max(run.total, 1)).toFixed(0)}%), ${rate.toFixed(0)} reviews/s`;
    process.stderr.write(process.stderr.isTTY ? `\r${line}${finished ? "\n" : ""}` : `${line}\n`);
  };
}

const command: Command = {
  name: "metrics",
  usage: `metrics --study SLUG --metric NAME[,NAME] [--chunk-size N] [--tau T | --tau-calibration best-system|gt [--tau-system NAME]] [--embeddings-url URL --embeddings-model M --embeddings-api-key K] [--llm-url URL --llm-model M --llm-api-key K] [--swe-team P1b+P3+P5] [--swe-seed N]   (metrics: ${METRIC_JOB_NAMES.join(", ")}; LLM judges default to LLM_URL, LLM_MODEL, LLM_API_KEY)`,
  async run(args) {
    const study = await requireStudy({ slug: requireFlag(args, "study") });
    const metrics = requireFlag(args, "metric").split(",");
    const url = databaseUrl();
    const context = createJobContext({ apiKey: optionalFlag(args, "embeddings-api-key") });
    const boss = await startQueue(url, { supervise: false });
    try {
      const t0 = performance.now();
      const started = await startMetricRun(context, boss, study.id, {
        metrics,
        chunkSize: numberFlag(optionalFlag(args, "chunk-size"), "chunk-size"),
        tau: numberFlag(optionalFlag(args, "tau"), "tau"),
        tauCalibration: tauCalibrationFlag(optionalFlag(args, "tau-calibration")),
        tauSystem: optionalFlag(args, "tau-system"),
        embedding: { url: optionalFlag(args, "embeddings-url"), model: optionalFlag(args, "embeddings-model") },
        llm: {
          url: optionalFlag(args, "llm-url"),
          model: optionalFlag(args, "llm-model"),
          apiKey: optionalFlag(args, "llm-api-key"),
          sweTeam: optionalFlag(args, "swe-team")?.split(/[+,]/),
          sweSeed: numberFlag(optionalFlag(args, "swe-seed"), "swe-seed"),
        },
      });
      const computeStart = performance.now();
      const doneBefore = started.run.done;
      const run = await drainMetricRun(boss, context, started.run.id, { onProgress: progressReporter(computeStart) });
      if (run.status === "FAILED") throw new Error(`metric run ${run.id} failed: ${run.error}`);
      const seconds = (performance.now() - computeStart) / 1000;
      const params = runParams(run);
      const stored = await listStudyMetrics(study.id);
      return {
        run: { id: run.id, status: run.status, resumed: started.resumed, total: run.total, done: run.done, computedNow: run.done - doneBefore, chunks: started.chunks },
        study: study.slug,
        embedding: params.embedding && { ...params.embedding, label: params.embedding.offline ? "offline TF-IDF default (no embedding model configured)" : params.embedding.model },
        metrics: params.specs.map((spec) => ({
          name: spec.name,
          signature: spec.signature,
          ...(spec.kind === "crscore" ? { tau: spec.tau, tauSource: spec.tauSource, ...(spec.tauCalibration ? { tauCalibration: spec.tauCalibration } : {}), ...(spec.pooling ? { pooling: spec.pooling } : {}) } : {}),
          ...(spec.kind === "judge" ? { llm: spec.llm, ...(spec.team ? { team: spec.team } : {}), ...(spec.question ? { question: spec.question } : {}) } : {}),
          columns: spec.columns.map((metric) => {
            const variant = stored.find((v) => v.metric === metric && v.signature === spec.signature);
            return { metric, scored: variant?.count ?? 0, defined: variant?.defined ?? 0 };
          }),
        })),
        seconds: Number(seconds.toFixed(3)),
        planningSeconds: Number(((computeStart - t0) / 1000).toFixed(3)),
        reviewsPerSecond: Number(((run.done - doneBefore) / Math.max(seconds, 1e-3)).toFixed(1)),
      };
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
  },
};
export default command;
