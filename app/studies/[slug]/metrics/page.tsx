import { notFound } from "next/navigation";
import { DataTable } from "@/components/dashboard/data-table";
import { formatTime } from "@/components/dashboard/format";
import { MetricRunForm } from "@/components/dashboard/metric-run-form";
import { PollWhileActive } from "@/components/dashboard/poll-while-active";
import { count, fileSlug, progress, type TableData, text } from "@/components/dashboard/table-data";
import { metricInfo } from "@/lib/analysis";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { listStudyMetrics } from "@/lib/data/metric-scores";
import { findLedStudy } from "@/lib/data/study-access";
import { CRSCORE, EMBEDDING_SIM, isJudgeMetric, METRIC_JOB_NAMES } from "@/lib/metric-runs";
import { llmJudgeAvailability } from "@/lib/judges";
import { getReferenceMetric } from "@/lib/metrics";
import { startRun } from "./actions";
import { embeddingProvider, isActive, listRuns, type RunRow, waitingForWorker } from "@/lib/metric-runs/web";
import { StudyPageHeader } from "@/components/study-page-header";

export const dynamic = "force-dynamic";

const JOB_LABELS: Record<string, string> = {
  [EMBEDDING_SIM]: "embeddingSim: cosine of the review's and the reference's embeddings (GradedReviews §5.1)",
  [CRSCORE]: "CRScore Con / Comp / Rel against the pseudo-references (CRScore §3.3)",
  "llm-judge-gradedreviews": "LLM judge: GradedReviews LLM-based scoring",
  "swe-judge": "LLM judge: SWE-Judge (team of strategies)",
  "llm-judge-crscore-rel": "LLM judge: CRScore LaaJ relevance",
  "llm-judge-crscore-con": "LLM judge: CRScore LaaJ conciseness",
  "llm-judge-crscore-comp": "LLM judge: CRScore LaaJ comprehensiveness",
};

function runsTable(slug: string, runs: RunRow[]): TableData {
  return {
    id: "metric-runs",
    title: "Metric runs",
    filename: fileSlug(slug, "metric-runs"),
    empty: "No metric run yet.",
    columns: [
      { key: "created", label: "Started" },
      { key: "metrics", label: "Metrics" },
      { key: "status", label: "Status" },
      { key: "progress", label: "Progress" },
      { key: "done", label: "Done", numeric: true },
      { key: "total", label: "Total", numeric: true },
      { key: "embedding", label: "Embedder" },
      { key: "finished", label: "Finished" },
      { key: "error", label: "Error" },
    ],
    rows: runs.map((r) => ({
      key: r.id,
      cells: [
        text(formatTime(r.createdAt), { title: r.id }),
        text(r.metrics.join(", ")),
        text(r.status, { data: { status: r.status } }),
        progress(r.done, r.total),
        count(r.done),
        count(r.total),
        text(r.embedding),
        text(r.finishedAt ? formatTime(r.finishedAt) : "—"),
        text(r.error ?? ""),
      ],
    })),
  };
}

/** Metric runs of a study: start one, watch its progress, see what is stored. */
export default async function MetricRunsPage({ params }: { params: Promise<{ slug: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug } = await params;
  const study = await findLedStudy(account, slug);
  if (!study) notFound();
  const [runs, stored] = await Promise.all([listRuns(study.id), listStudyMetrics(study.id)]);
  const active = runs.some((r) => isActive(r.status));
  const waiting = waitingForWorker(runs);
  const provider = embeddingProvider();
  const llm = llmJudgeAvailability();
  const metrics = METRIC_JOB_NAMES.map((name) => ({
    name,
    label: getReferenceMetric(name)?.label ?? JOB_LABELS[name] ?? name,
    embedding: name === EMBEDDING_SIM || name === CRSCORE,
    llm: isJudgeMetric(name),
  }));

  const storedTable: TableData = {
    id: "stored-metrics",
    title: "Stored scores",
    filename: fileSlug(study.slug, "stored-metrics"),
    empty: "No scores stored yet.",
    columns: [
      { key: "metric", label: "Metric" },
      { key: "label", label: "Label" },
      { key: "signature", label: "Signature" },
      { key: "scored", label: "Reviews scored", numeric: true },
      { key: "defined", label: "Defined", numeric: true },
      { key: "last", label: "Last computed" },
    ],
    rows: stored.map((v) => ({
      key: `${v.metric}@${v.signature}`,
      cells: [
        text(v.metric, { href: `/studies/${study.slug}/validity?metric=${encodeURIComponent(v.metric)}&params=${encodeURIComponent(v.signature)}` }),
        text(metricInfo(v.metric, v.signature).label),
        text(v.signature, { mono: true }),
        count(v.count),
        count(v.defined),
        text(formatTime(v.lastComputedAt)),
      ],
    })),
  };

  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="Metric runs">
        <p className="text-sm text-slate-600">
          Automatic metrics of the study&apos;s candidate reviews, computed by the metric worker in chunks of reviews (resumable: starting the same metrics again continues an unfinished run and skips stored scores). Reference-based
          metrics compare a review with its change&apos;s human reference review; CRScore compares it with the change&apos;s pseudo-references. The CLI does the same:{" "}
          <code className="text-xs">npm run cli -- metrics --study {study.slug} --metric NAME[,NAME]</code>.
        </p>
        <p className={`rounded border p-2 text-sm ${provider.kind === "http" ? "border-slate-200 bg-white" : provider.kind === "offline" ? "border-amber-200 bg-amber-50 text-amber-900" : "border-red-200 bg-red-50 text-red-800"}`} data-testid="embedding-provider">
          <span className="font-medium">Embedding provider:</span> {provider.label}
        </p>
        <p className="rounded border border-slate-200 bg-white p-2 text-sm" data-testid="llm-provider">
          <span className="font-medium">LLM judges:</span> {llm.available ? `model ${llm.model} at the configured endpoint (LLM_URL)` : `not configured: ${llm.message}. Judge runs fail until then.`}
        </p>
      </StudyPageHeader>
      <MetricRunForm slug={study.slug} metrics={metrics} start={startRun} />
      <PollWhileActive active={active} seconds={2} />
      {waiting && (
        <p role="alert" className="rounded border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900" data-testid="no-worker">
          A run has been waiting for a while: is the metric worker running? <code className="text-xs">npm start</code> runs it next to the web server; on its own:{" "}
          <code className="text-xs">npx tsx scripts/worker.ts</code>.
        </p>
      )}
      <DataTable table={runsTable(study.slug, runs)} />
      <DataTable table={storedTable} note="Follow a metric to its validity dashboard." />
    </div>
  );
}
