import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { AutoRefresh } from "@/components/dashboard/auto-refresh";
import { formatTime } from "@/components/dashboard/format";
import { dashboardReport, type DashboardReport, reportJobNote, waitForReport } from "@/lib/analysis/report-jobs";
import { ValidityBody } from "@/components/dashboard/validity-body";
import { type ValidityOptions, type ValidityReport, metricInfo, reviewQuestionKeys } from "@/lib/analysis";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { publicError } from "@/lib/errors";
import { ItemSetSelect } from "@/components/dashboard/item-set";
import { ITEM_SET_KIND_LABEL } from "@/lib/data/item-sets";
import { validityChoices } from "@/lib/data/dashboards";
import { StudyPageHeader } from "@/components/study-page-header";
import { validityPageQuerySchema } from "@/lib/validation/report-options";

export const dynamic = "force-dynamic";

/** A sensible first pair: CRScore Rel with relevance, else the first metric with the first question. */
function defaultHuman(metric: string | undefined, questions: readonly string[]): string | undefined {
  const crscore: Record<string, string> = { "crscore-con": "conciseness", "crscore-comp": "comprehensiveness", "crscore-rel": "relevance" };
  const match = metric ? crscore[metric] : undefined;
  return match && questions.includes(match) ? match : questions[0];
}

const selectClass = "rounded border border-slate-300 bg-white px-1 py-0.5";

/** How long a request waits for the worker's CIs before the page stays with the point estimates (auto-refresh picks the CIs up later). */
const WAIT_FOR_CIS_MS = 25_000;

/** The report with its CIs, streamed in when the worker has computed it; else the preview stays. */
async function CompleteReport({ studyId, options, fingerprint, preview }: { studyId: string; options: ValidityOptions; fingerprint: string; preview: React.ReactNode }) {
  const report = await waitForReport("validity", studyId, options, fingerprint, WAIT_FOR_CIS_MS);
  return report ? <ValidityBody report={report} complete /> : preview;
}

/**
 * Validity dashboard: the `validity` CLI's report (same defaults) for one metric and one human
 * question, for the current data (cached while it does not change); on big studies the worker
 * computes the CIs (lib/analysis/report-jobs.ts) while everything else shows with the job's
 * progress, and the CIs stream in when they arrive.
 */
export default async function ValidityPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug } = await params;
  const query = validityPageQuerySchema.parse(await searchParams);
  const choices = await validityChoices(account, slug, query.set);
  if (!choices) notFound();
  const { study, variants, sets, itemSet, items, fingerprint } = choices;

  const metricNames = [...new Set(variants.map((v) => v.metric))];
  const questions = reviewQuestionKeys(study);
  const metric = query.metric && metricNames.includes(query.metric) ? query.metric : (metricNames.find((m) => m === "crscore-rel") ?? metricNames[0]);
  const human = query.human && questions.includes(query.human) ? query.human : defaultHuman(metric, questions);
  const level = query.level ?? "review";
  const metricVariants = variants.filter((v) => v.metric === metric);
  const signature = query.params && metricVariants.some((v) => v.signature === query.params) ? query.params : undefined;
  const options: ValidityOptions | null = metric && human ? { metric, human, level, signature, includeReferences: query.includeReferences, ...(query.drafts ? { includeDrafts: true } : {}), ...(items ? { items } : {}) } : null;
  let shown: DashboardReport<"validity"> | null = null;
  let error: string | null = null;
  if (options) {
    try {
      shown = await dashboardReport("validity", study.id, options, fingerprint);
    } catch (e) {
      error = publicError(e).userMessage;
    }
  }
  const report: ValidityReport | null = shown?.report ?? null;
  const cli = report
    ? `npm run cli -- validity --study ${study.slug} --metric ${report.metric.name} --human ${report.human.question} --level ${report.level}${signature ? ` --signature '${signature}'` : ""}${query.includeReferences ? " --include-references" : ""}${itemSet ? ` --item-set '${itemSet.name}'` : ""}${query.drafts ? " --include-drafts" : ""} --json`
    : null;

  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="Validity">
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
                  {m}: {metricInfo(m, variants.find((v) => v.metric === m)?.signature ?? "").label}
                </option>
              ))}
            </select>
          </label>
          {metricVariants.length > 1 && (
            <label className="flex flex-col">
              Signature
              <select name="params" defaultValue={signature ?? ""} className={`${selectClass} max-w-md`}>
                <option value="">most recent</option>
                {metricVariants.map((v) => (
                  <option key={v.signature} value={v.signature}>
                    {v.signature} ({v.defined}/{v.count})
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
              <option value="review">review (each review)</option>
              <option value="system">system (system means)</option>
            </select>
          </label>
          <ItemSetSelect sets={sets.map((s) => ({ name: s.name, kind: ITEM_SET_KIND_LABEL[s.kind], size: s.size }))} value={itemSet?.name} className={selectClass} />
          <label>
            <input type="checkbox" name="drafts" value="include" defaultChecked={query.drafts} /> with drafts
          </label>
          <label>
            <input type="checkbox" name="includeReferences" value="1" defaultChecked={query.includeReferences} /> include human reference reviews
          </label>
          <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-white">
            Show
          </button>
        </form>
      </StudyPageHeader>

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

      {report &&
        options &&
        (shown?.complete || !shown?.job ? (
          <ValidityBody report={report} complete />
        ) : (
          <Suspense fallback={<ValidityBody report={report} complete={false} progress={reportJobNote(shown.job)} />}>
            <CompleteReport studyId={study.id} options={options} fingerprint={fingerprint} preview={<ValidityBody report={report} complete={false} progress={reportJobNote(shown.job)} />} />
          </Suspense>
        ))}
      {metric && !report && !error && <p className="text-sm text-slate-500">Choose a metric and a human question.</p>}
    </div>
  );
}
