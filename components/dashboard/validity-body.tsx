import type { ValidityReport } from "@/lib/analysis";
import { LevelChart } from "./charts/level-chart";
import { MetricScatterChart } from "./charts/scatter-chart";
import { DataTable } from "./data-table";
import { ItemSetNote } from "./item-set";
import { correlationsTable, humanMetricTable, ksTable, levelsTable, rankCorrelationTable, sweepTable, systemsTable } from "./validity-tables";

/** Every section of a validity report; `complete` false while the bootstrap CIs are still being computed. */
export function ValidityBody({ report, complete, progress }: { report: ValidityReport; complete: boolean; progress?: string }) {
  const sweep = sweepTable(report);
  const humanMetric = humanMetricTable(report);
  return (
    <div className="space-y-6" data-testid="validity-report" data-complete={complete ? "true" : "false"}>
      <section aria-label="Metric and question" className="space-y-1 rounded border border-slate-200 bg-white p-3 text-sm">
        <p>
          <span className="font-medium">Metric:</span> <span data-testid="metric-label">{report.metric.label}</span> {report.metric.higherIsBetter ? "(higher is better)" : "(lower is better)"}
        </p>
        <p className="break-all font-mono text-xs text-slate-500" data-testid="metric-signature">
          {report.metric.signature}
        </p>
        {report.metric.offlineEmbedder && (
          <p className="rounded bg-amber-50 px-2 py-1 text-xs text-amber-900" data-testid="offline-embedder">
            Computed with the offline TF-IDF embedder (no embedding model configured), not a neural embedding model: values and τ are not comparable with the papers&apos;.
          </p>
        )}
        <ItemSetNote itemSet={report.itemSet} />
        <p>
          <span className="font-medium">Human:</span> {report.human.label} ({report.human.aggregation})
        </p>
        <p className="text-xs text-slate-600">
          {report.counts.paired} reviews with both ({report.counts.reviewsWithMetric} with the metric, {report.counts.reviewsWithHuman} with a human score){report.settings.includeReferences ? "" : ", human references left out"}
          {report.counts.leftOutMissingText > 0 ? `, ${report.counts.leftOutMissingText} reviews without text left out` : ""} · counts {report.settings.counted}
          {report.counts.draftsLeftOut > 0 ? ` (${report.counts.draftsLeftOut} draft ratings left out)` : ""} ·{" "}
          {report.settings.bootstrap.method} · {report.settings.levelRule}
        </p>
      </section>
      {!complete && (
        <p role="status" className="rounded border border-slate-200 bg-white p-2 text-sm text-slate-600">
          {progress ?? "Computing bootstrap confidence intervals…"} Everything else below is final.
        </p>
      )}

      <DataTable table={correlationsTable(report, !complete)} />

      <div className="grid gap-4 lg:grid-cols-2">
        <MetricScatterChart
          label={`${report.metric.label} against ${report.human.label}, per review${report.pointsSampled ? ` (an even sample of ${report.points.length})` : ""}`}
          xLabel={report.metric.name}
          yLabel={report.human.question}
          points={report.points.map((p) => ({ metric: p.metric, human: p.human, system: p.system, language: p.language }))}
        />
        <LevelChart label="Mean metric per human score level (CRScore Figure 8)" metricLabel={report.metric.name} points={report.byHumanLevel.map((l) => ({ level: l.level, n: l.n, mean: l.mean, median: l.median }))} />
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
  );
}
