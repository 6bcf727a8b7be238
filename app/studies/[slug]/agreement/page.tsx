import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { AgreementBody } from "@/components/dashboard/agreement-body";
import { taskLabel } from "@/components/dashboard/agreement-tables";
import { AutoRefresh } from "@/components/dashboard/auto-refresh";
import { formatTime } from "@/components/dashboard/format";
import { reportJobNote, waitForReport } from "@/lib/analysis/report-jobs";
import { type AgreementOptions, DEFAULT_BOOTSTRAP } from "@/lib/analysis";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { ReliabilityTables } from "@/components/dashboard/reliability-tables";
import { ItemSetSelect } from "@/components/dashboard/item-set";
import { ITEM_SET_KIND_LABEL } from "@/lib/data/item-sets";
import { agreementDashboard } from "@/lib/data/dashboards";
import { TaskType } from "@/lib/generated/prisma/enums";
import { StudyPageHeader } from "@/components/study-page-header";
import { agreementPageQuerySchema } from "@/lib/validation/report-options";

export const dynamic = "force-dynamic";

/** How long a request waits for the worker's CIs before the page stays with the point estimates (auto-refresh picks the CIs up later). */
const WAIT_FOR_CIS_MS = 25_000;

/** The report with its CIs, streamed in when the worker has computed it; else the preview stays. */
async function CompleteReport({ slug, studyId, options, fingerprint, preview }: { slug: string; studyId: string; options: AgreementOptions; fingerprint: string; preview: React.ReactNode }) {
  const report = await waitForReport("agreement", studyId, options, fingerprint, WAIT_FOR_CIS_MS);
  return report ? <AgreementBody slug={slug} report={report} complete /> : preview;
}

/**
 * Agreement dashboard: the `agreement` CLI's report (same defaults), per task and question.
 * For the current annotations (cached while they do not change): on big studies the worker
 * computes the CIs (lib/analysis/report-jobs.ts) while the page shows the point estimates and the
 * job's progress, and streams the CIs in when they arrive.
 */
export default async function AgreementPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug } = await params;
  const query = agreementPageQuerySchema.parse(await searchParams);
  const dashboard = await agreementDashboard(account, slug, { task: query.task, windowSize: query.windowSize, includeGold: query.gold === "include", includeDrafts: query.drafts === "include", set: query.set });
  if (!dashboard) notFound();
  const { study, task, sets, itemSet, options, fingerprint, shown, reliability } = dashboard;
  const settings = shown.report.settings;

  const base = `/studies/${encodeURIComponent(study.slug)}/agreement`;
  const href = (t?: TaskType) => {
    const q = new URLSearchParams();
    if (t) q.set("task", t);
    if (query.windowSize) q.set("windowSize", String(query.windowSize));
    if (query.gold) q.set("gold", query.gold);
    if (query.drafts) q.set("drafts", query.drafts);
    if (itemSet) q.set("set", itemSet.name);
    const s = q.toString();
    return s ? `${base}?${s}` : base;
  };

  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="Agreement">
        <p className="text-sm text-slate-600">
          Inter-annotator agreement per task and question, at each question&apos;s level of measurement. Bootstrap CIs: {DEFAULT_BOOTSTRAP.nResamples} resamples (fewer on big studies: each CI&apos;s
          count is in its tooltip), seed {DEFAULT_BOOTSTRAP.seed}, {Math.round(DEFAULT_BOOTSTRAP.confidenceLevel * 100)}% ({settings.bootstrap.method}). The same numbers as <code className="text-xs">npm run cli -- agreement --study {study.slug}{task ? ` --task ${task}` : ""}{query.windowSize ? ` --window-size ${query.windowSize}` : ""}{itemSet ? ` --item-set '${itemSet.name}'` : ""}{query.drafts ? " --include-drafts" : ""} --json</code>. Gold items (known answers for attention checks) are left out unless asked for. Item sets are defined on the{" "}
          <Link href={`/studies/${study.slug}/item-sets`} className="text-blue-700 underline">
            item sets page
          </Link>
          .
        </p>
        <AutoRefresh seconds={10} computedAt={formatTime(new Date())} />
        {/* No prefetch: each task's report would be requested on every load of this one. */}
        <nav aria-label="Tasks" className="flex flex-wrap items-center gap-3 text-sm">
          <Link href={href()} prefetch={false} aria-current={task ? undefined : "page"} className={task ? "text-blue-700 hover:underline" : "font-semibold"}>
            All tasks
          </Link>
          {study.tasks.map((t) => (
            <Link key={t} href={href(t)} prefetch={false} aria-current={task === t ? "page" : undefined} className={task === t ? "font-semibold" : "text-blue-700 hover:underline"}>
              {taskLabel(t)}
            </Link>
          ))}
          <form method="get" action={base} aria-label="Report settings" className="ml-auto flex items-end gap-2 text-xs">
            {task && <input type="hidden" name="task" value={task} />}
            <ItemSetSelect sets={sets.map((s) => ({ name: s.name, kind: ITEM_SET_KIND_LABEL[s.kind], size: s.size }))} value={itemSet?.name} className="rounded border border-slate-300 bg-white px-1" />
            <label>
              Items per window <input type="number" name="windowSize" min={1} defaultValue={settings.windowSize ?? 50} className="w-16 rounded border border-slate-300 px-1" />
            </label>
            <label>
              <input type="checkbox" name="gold" value="include" defaultChecked={query.gold === "include"} /> with gold items
            </label>
            <label>
              <input type="checkbox" name="drafts" value="include" defaultChecked={query.drafts === "include"} /> with drafts
            </label>
            <button type="submit" className="rounded border border-slate-300 bg-white px-2 py-0.5">
              Apply
            </button>
          </form>
        </nav>
      </StudyPageHeader>
      {shown.complete || !shown.job ? (
        <AgreementBody slug={study.slug} report={shown.report} complete />
      ) : (
        <Suspense fallback={<AgreementBody slug={study.slug} report={shown.report} complete={false} progress={reportJobNote(shown.job)} />}>
          <CompleteReport slug={study.slug} studyId={study.id} options={options} fingerprint={fingerprint} preview={<AgreementBody slug={study.slug} report={shown.report} complete={false} progress={reportJobNote(shown.job)} />} />
        </Suspense>
      )}
      {reliability.map((r) => (
        <ReliabilityTables key={r.task} title={taskLabel(r.task)} questions={r.questions} />
      ))}
    </div>
  );
}
