import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { AutoRefresh } from "@/components/dashboard/auto-refresh";
import { LevelChart } from "@/components/dashboard/charts/level-chart";
import { MetricScatterChart } from "@/components/dashboard/charts/scatter-chart";
import { DataTable } from "@/components/dashboard/data-table";
import { formatTime } from "@/components/dashboard/format";
import { correlationsTable, humanMetricTable, ksTable, levelsTable, rankCorrelationTable, sweepTable, systemsTable } from "@/components/dashboard/validity-tables";
import { correlationReport, type CorrelationReport, findStudy, metricInfo, reviewQuestionKeys } from "@/lib/analysis";
import { LEAD_ROLES, requirePageUser } from "@/lib/auth/session";
import { listStudyMetrics } from "@/lib/data/metric-scores";
import { db } from "@/lib/db/client";
import { errorMessage } from "@/lib/validation/format";

export const dynamic = "force-dynamic";

const single = z.preprocess((v) => (Array.isArray(v) ? v[0] : v), z.string().min(1).optional());
const querySchema = z.object({
  metric: single,
  human: single,
  params: single,
  level: z.enum(["segment", "system"]).optional().catch(undefined),
  includeReferences: z.preprocess((v) => v === "1" || v === "on" || v === "true", z.boolean()),
});

/** A sensible first pair: CRScore Rel with relevance, else the first metric with the first question. */
function defaultHuman(metric: string | undefined, questions: readonly string[]): string | undefined {
  const crscore: Record<string, string> = { "crscore-con": "conciseness", "crscore-comp": "comprehensiveness", "crscore-rel": "relevance" };
  const match = metric ? crscore[metric] : undefined;
  return match && questions.includes(match) ? match : questions[0];
}

const selectClass = "rounded border border-slate-300 bg-white px-1 py-0.5";

/** Validity dashboard: the `correlate` CLI's report for one metric and one human question, recomputed on every request. */
export default async function ValidityPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser(LEAD_ROLES);
  const { slug } = await params;
  const study = await findStudy({ slug }).catch(() => null);
  if (!study) notFound();
  const query = querySchema.parse(await searchParams);

  const variants = await listStudyMetrics(study.id);
  const metricNames = [...new Set(variants.map((v) => v.metric))];
  const questions = reviewQuestionKeys(study);
  const metric = query.metric && metricNames.includes(query.metric) ? query.metric : (metricNames.find((m) => m === "crscore-rel") ?? metricNames[0]);
  const human = query.human && questions.includes(query.human) ? query.human : defaultHuman(metric, questions);
  const level = query.level ?? "segment";
  const metricVariants = variants.filter((v) => v.metric === metric);
  const paramsKey = query.params && metricVariants.some((v) => v.paramsKey === query.params) ? query.params : undefined;

  let report: CorrelationReport | null = null;
  let error: string | null = null;
  if (metric && human) {
    try {
      report = await correlationReport(study.id, { metric, human, level, paramsKey, includeReferences: query.includeReferences });
    } catch (e) {
      error = errorMessage(e);
    }
  }
  const annotatorIds = report?.humanMetricAgreement ? [...new Set([...report.humanMetricAgreement.humanHuman.pairs.flatMap((p) => [p.a, p.b]), ...report.humanMetricAgreement.humanMetric.pairs.map((p) => p.annotator)])] : [];
  const names = new Map((await db.user.findMany({ where: { id: { in: annotatorIds } }, select: { id: true, name: true } })).map((u) => [u.id, u.name]));
  const cli = report
    ? `npm run cli -- correlate --study ${study.slug} --metric ${report.metric.name} --human ${report.human.question} --level ${report.level}${paramsKey ? ` --params '${paramsKey}'` : ""}${query.includeReferences ? " --include-references" : ""} --json`
    : null;
  const sweep = report && sweepTable(report);
  const humanMetric = report && humanMetricTable(report, names);

  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <Link href={`/studies/${study.slug}`} className="text-sm text-blue-700 hover:underline">
          ← {study.name}
        </Link>
        <h1 className="text-2xl font-semibold">Validity</h1>
        <p className="text-sm text-slate-600">
          How well an automatic metric agrees with the human judgments: correlations with p-values and bootstrap CIs, system rankings, the metric per human level, and annotators against the metric.
          {cli && (
            <>
              {" "}
              Same numbers as <code className="text-xs">{cli}</code>.
            </>
          )}
        </p>
        <AutoRefresh seconds={10} computedAt={formatTime(new Date())} />
        <form method="get" aria-label="Choose metric and question" className="flex flex-wrap items-end gap-3 text-sm">
          <label className="flex flex-col">
            Metric
            <select name="metric" defaultValue={metric} className={selectClass}>
              {metricNames.map((m) => (
                <option key={m} value={m}>
                  {m}: {metricInfo(m, variants.find((v) => v.metric === m)?.paramsKey ?? "").label}
                </option>
              ))}
            </select>
          </label>
          {metricVariants.length > 1 && (
            <label className="flex flex-col">
              Signature
              <select name="params" defaultValue={paramsKey ?? ""} className={`${selectClass} max-w-md`}>
                <option value="">most recent</option>
                {metricVariants.map((v) => (
                  <option key={v.paramsKey} value={v.paramsKey}>
                    {v.paramsKey} ({v.defined}/{v.count})
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="flex flex-col">
            Human question
            <select name="human" defaultValue={human} className={selectClass}>
              {questions.map((q) => (
                <option key={q} value={q}>
                  {q}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col">
            Level
            <select name="level" defaultValue={level} className={selectClass}>
              <option value="segment">segment (reviews)</option>
              <option value="system">system (system means)</option>
            </select>
          </label>
          <label>
            <input type="checkbox" name="includeReferences" value="1" defaultChecked={query.includeReferences} /> include human reference reviews
          </label>
          <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-white">
            Show
          </button>
        </form>
      </div>

      {metricNames.length === 0 && (
        <p role="status" className="rounded border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          No metric scores are stored for this study yet.{" "}
          <Link href={`/studies/${study.slug}/metrics`} className="text-blue-700 underline">
            Compute metrics
          </Link>{" "}
          or import precomputed scores.
        </p>
      )}
      {questions.length === 0 && <p className="text-sm text-slate-500">This study has no review-level human question (Likert rating, reference grading or comment filtering).</p>}
      {error && (
        <p role="alert" className="whitespace-pre-line rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      )}

      {report && (
        <div className="space-y-6" data-testid="validity-report">
          <section aria-label="Metric and question" className="space-y-1 rounded border border-slate-200 bg-white p-3 text-sm">
            <p>
              <span className="font-medium">Metric:</span> <span data-testid="metric-label">{report.metric.label}</span> {report.metric.higherIsBetter ? "(higher is better)" : "(lower is better)"}
            </p>
            <p className="break-all font-mono text-xs text-slate-500" data-testid="metric-signature">
              {report.metric.paramsKey}
            </p>
            {report.metric.offlineEmbedder && (
              <p className="rounded bg-amber-50 px-2 py-1 text-xs text-amber-900" data-testid="offline-embedder">
                Computed with the offline TF-IDF embedder (no embedding model configured), not a neural embedding model: values and τ are not comparable with the papers&apos;.
              </p>
            )}
            <p>
              <span className="font-medium">Human:</span> {report.human.label} ({report.human.aggregation})
            </p>
            <p className="text-xs text-slate-600">
              {report.counts.paired} reviews with both ({report.counts.reviewsWithMetric} with the metric, {report.counts.reviewsWithHuman} with a human score){report.settings.includeReferences ? "" : ", human references left out"} · bootstrap{" "}
              {report.settings.bootstrap.nResamples} resamples, seed {report.settings.bootstrap.seed} ({report.settings.bootstrap.method}) · {report.settings.levelRule}
            </p>
          </section>

          <DataTable table={correlationsTable(report)} />

          <div className="grid gap-4 lg:grid-cols-2">
            <MetricScatterChart
              label={`${report.metric.label} against ${report.human.label}, per review${report.pointsSampled ? ` (an even sample of ${report.points.length})` : ""}`}
              xLabel={report.metric.name}
              yLabel={report.human.question}
              points={report.points.map((p) => ({ metric: p.metric, human: p.human, system: p.system, language: p.language }))}
            />
            <LevelChart label={`Mean metric per human score level (CRScore Figure 8)`} metricLabel={report.metric.name} points={report.byHumanLevel.map((l) => ({ level: l.level, n: l.n, mean: l.mean, median: l.median }))} />
          </div>
          <DataTable table={levelsTable(report)} note={report.settings.levelRule} />

          <div className="grid gap-4 lg:grid-cols-2">
            <DataTable table={systemsTable(report)} note={report.systems.unmatched.length > 0 ? `Systems left out (no human score): ${report.systems.unmatched.join(", ")}` : "Rank 1 is the best; ties share the mean rank."} />
            <DataTable table={rankCorrelationTable(report)} />
          </div>

          <div className="grid gap-4 lg:grid-cols-2">
            <DataTable table={ksTable(report, "statistic")} note="Two-sample KS (SciPy ks_2samp): do the metric's values differ between human levels? (GradedReviews Table 6)" />
            <DataTable table={ksTable(report, "pValue")} note="Highlighted: p < 0.05." />
          </div>

          {sweep && <DataTable table={sweep} note="Con / Comp / Rel recomputed at thresholds around the stored τ from the stored best matches." />}
          {humanMetric && report.humanMetricAgreement && <DataTable table={humanMetric} note={`${report.humanMetricAgreement.method}. ${report.humanMetricAgreement.mapping}.`} />}
        </div>
      )}
      {metric && !report && !error && <p className="text-sm text-slate-500">Choose a metric and a human question.</p>}
    </div>
  );
}
