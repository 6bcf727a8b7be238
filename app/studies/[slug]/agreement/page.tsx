import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { z } from "zod";
import { AgreementBody } from "@/components/dashboard/agreement-body";
import { taskLabel } from "@/components/dashboard/agreement-tables";
import { AutoRefresh } from "@/components/dashboard/auto-refresh";
import { formatTime } from "@/components/dashboard/format";
import { AUTO_REFRESH_LIMIT_MS, cachedAgreementReport, isReportReady, lastComputeMs, studyFingerprint, slowNote, yieldToStream } from "@/lib/analysis/report-cache";
import { type AgreementOptions, DEFAULT_BOOTSTRAP } from "@/lib/analysis";
import { LEAD_ROLES, requirePageUser } from "@/lib/auth/session";
import { findLedStudy } from "@/lib/data/study-access";
import { taskReliability } from "@/lib/data/adjudication";
import { ReliabilityTables } from "@/components/dashboard/reliability-tables";
import { TaskType } from "@/lib/generated/prisma/enums";

export const dynamic = "force-dynamic";

const querySchema = z.object({
  task: z.enum(Object.values(TaskType) as [TaskType, ...TaskType[]]).optional().catch(undefined),
  batchSize: z.coerce.number().int().min(1).max(100_000).optional().catch(undefined),
});

/** The report with its CIs; streamed in after the preview when it takes a while. */
async function CompleteReport({ slug, studyId, options, fingerprint }: { slug: string; studyId: string; options: AgreementOptions; fingerprint: string }) {
  await yieldToStream();
  return <AgreementBody slug={slug} report={await cachedAgreementReport(studyId, options, fingerprint)} complete />;
}

/**
 * Agreement dashboard: the `agreement` CLI's report (same defaults), per task and question.
 * Computed for the current annotations on every request (cached while they do not change);
 * when the CIs are not computed yet, the point estimates show first and the CIs stream in.
 */
export default async function AgreementPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser(LEAD_ROLES);
  const { slug } = await params;
  const study = await findLedStudy(user, slug);
  if (!study) notFound();
  const query = querySchema.parse(await searchParams);
  const task = query.task && study.taskTypes.includes(query.task) ? query.task : undefined;
  const options: AgreementOptions = { task, batchSize: query.batchSize };
  const fingerprint = await studyFingerprint(study.id, false);
  const lastMs = lastComputeMs("agreement", study.id, options);
  const slow = lastMs !== undefined && lastMs > AUTO_REFRESH_LIMIT_MS ? lastMs : 0;
  const ready = isReportReady("agreement", study.id, options, fingerprint);
  const preview = ready ? null : await cachedAgreementReport(study.id, { ...options, bootstrap: { nResamples: 0 } }, fingerprint);
  const full = ready ? await cachedAgreementReport(study.id, options, fingerprint) : null;
  const settings = (full ?? preview)?.settings;

  const reliability = await Promise.all((task ? [task] : study.taskTypes).map(async (t) => ({ task: t, questions: await taskReliability(user, study.slug, t) })));

  const base = `/studies/${encodeURIComponent(study.slug)}/agreement`;
  const href = (t?: TaskType) => {
    const q = new URLSearchParams();
    if (t) q.set("task", t);
    if (query.batchSize) q.set("batchSize", String(query.batchSize));
    const s = q.toString();
    return s ? `${base}?${s}` : base;
  };

  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <Link href={`/studies/${study.slug}`} className="text-sm text-blue-700 hover:underline">
          ← {study.name}
        </Link>
        <h1 className="text-2xl font-semibold">Agreement</h1>
        <p className="text-sm text-slate-600">
          Inter-annotator agreement per task and question, at each question&apos;s level of measurement. Bootstrap CIs: {DEFAULT_BOOTSTRAP.nResamples} resamples (fewer on big studies: each CI&apos;s
          count is in its tooltip), seed {DEFAULT_BOOTSTRAP.seed}, {Math.round(DEFAULT_BOOTSTRAP.confidenceLevel * 100)}% ({settings?.bootstrap.method}). The same numbers as <code className="text-xs">npm run cli -- agreement --study {study.slug}{task ? ` --task ${task}` : ""}{query.batchSize ? ` --batch-size ${query.batchSize}` : ""} --json</code>.
        </p>
        <AutoRefresh seconds={10} computedAt={formatTime(new Date())} enabled={!slow} note={slow ? slowNote(slow) : undefined} />
        <nav aria-label="Tasks" className="flex flex-wrap items-center gap-3 text-sm">
          <Link href={href()} aria-current={task ? undefined : "page"} className={task ? "text-blue-700 hover:underline" : "font-semibold"}>
            All tasks
          </Link>
          {study.taskTypes.map((t) => (
            <Link key={t} href={href(t)} aria-current={task === t ? "page" : undefined} className={task === t ? "font-semibold" : "text-blue-700 hover:underline"}>
              {taskLabel(t)}
            </Link>
          ))}
          <form method="get" action={base} className="ml-auto flex items-center gap-1 text-xs">
            {task && <input type="hidden" name="task" value={task} />}
            <label>
              Items per batch <input type="number" name="batchSize" min={1} defaultValue={settings?.batchSize ?? 50} className="w-16 rounded border border-slate-300 px-1" />
            </label>
            <button type="submit" className="rounded border border-slate-300 bg-white px-2 py-0.5">
              Apply
            </button>
          </form>
        </nav>
      </div>
      {full ? (
        <AgreementBody slug={study.slug} report={full} complete />
      ) : (
        <Suspense fallback={preview && <AgreementBody slug={study.slug} report={preview} complete={false} />}>
          <CompleteReport slug={study.slug} studyId={study.id} options={options} fingerprint={fingerprint} />
        </Suspense>
      )}
      {reliability.map((r) => (
        <ReliabilityTables key={r.task} title={taskLabel(r.task)} questions={r.questions} />
      ))}
    </div>
  );
}
