import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { claimQualityTable, taskLabel } from "@/components/dashboard/agreement-tables";
import { AutoRefresh } from "@/components/dashboard/auto-refresh";
import { DataTable } from "@/components/dashboard/data-table";
import { formatTime } from "@/components/dashboard/format";
import { QuestionAgreementSection } from "@/components/dashboard/question-agreement";
import { questionId } from "@/components/dashboard/agreement-tables";
import { agreementReport } from "@/lib/analysis";
import { LEAD_ROLES, requirePageUser } from "@/lib/auth/session";
import { findStudyBySlug } from "@/lib/data/studies";
import { TaskType } from "@/lib/generated/prisma/enums";

export const dynamic = "force-dynamic";

const querySchema = z.object({
  task: z.enum(Object.values(TaskType) as [TaskType, ...TaskType[]]).optional().catch(undefined),
  batchSize: z.coerce.number().int().min(1).max(100_000).optional().catch(undefined),
});

/** Agreement dashboard: the `agreement` CLI's report, per task and question, recomputed on every request. */
export default async function AgreementPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser(LEAD_ROLES);
  const { slug } = await params;
  const study = await findStudyBySlug(slug);
  if (!study) notFound();
  const query = querySchema.parse(await searchParams);
  const task = query.task && study.taskTypes.includes(query.task) ? query.task : undefined;
  const report = await agreementReport(study.id, { task, batchSize: query.batchSize });
  const { settings } = report;
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
          Inter-annotator agreement per task and question, at each question&apos;s level of measurement. Bootstrap CIs: {settings.bootstrap.nResamples} resamples, seed {settings.bootstrap.seed},{" "}
          {Math.round(settings.bootstrap.confidenceLevel * 100)}% ({settings.bootstrap.method}). The same numbers as <code className="text-xs">npm run cli -- agreement --study {study.slug} --json</code>
          {query.batchSize ? <code className="text-xs"> --batch-size {query.batchSize}</code> : null}.
        </p>
        <AutoRefresh seconds={10} computedAt={formatTime(new Date())} />
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
              Items per batch <input type="number" name="batchSize" min={1} defaultValue={settings.batchSize} className="w-16 rounded border border-slate-300 px-1" />
            </label>
            <button type="submit" className="rounded border border-slate-300 bg-white px-2 py-0.5">
              Apply
            </button>
          </form>
        </nav>
      </div>

      {report.tasks.map((t) => (
        <section key={t.task} aria-label={taskLabel(t.task)} data-testid={`task-${t.task}`} className="space-y-4">
          <h2 className="text-xl font-medium">{taskLabel(t.task)}</h2>
          {t.questions.length > 1 && (
            <p className="flex flex-wrap gap-3 text-sm">
              {t.questions.map((q) => (
                <a key={q.question} href={`#q-${questionId(q)}`} className="text-blue-700 hover:underline">
                  {q.label}
                </a>
              ))}
            </p>
          )}
          {t.claimQuality && <DataTable table={claimQualityTable(study.slug, t.claimQuality)} note={`Rule: ${t.claimQuality.rule}. Missing rate: claims added by annotators over judged claims.`} />}
          {t.questions.length === 0 && <p className="text-sm text-slate-500">No annotations yet.</p>}
          {t.questions.map((q) => (
            <QuestionAgreementSection key={q.question} slug={study.slug} q={q} settings={settings} />
          ))}
        </section>
      ))}
    </div>
  );
}
