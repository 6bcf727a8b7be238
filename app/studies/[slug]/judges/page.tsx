import Link from "next/link";
import { notFound } from "next/navigation";
import { DataTable } from "@/components/dashboard/data-table";
import { PollWhileActive } from "@/components/dashboard/poll-while-active";
import { ResumeRunButton } from "@/components/judges/judge-forms";
import { LabScatter } from "@/components/judges/lab-scatter";
import { labPoints, labTable, runsTable } from "@/components/judges/lab-tables";
import { StudyPageHeader } from "@/components/study-page-header";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { judgeLab } from "@/lib/data/judge-lab";
import { resumeJudgeRun } from "./actions";

export const dynamic = "force-dynamic";

/**
 * The judge lab (docs/judges.md): a row per (prompt version, model) of each question a judge
 * answered, agreement with the annotators beside cost, a scatter of the two, and the runs with
 * their progress (the worker answers them from the job queue).
 */
export default async function JudgeLabPage({ params }: { params: Promise<{ slug: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug } = await params;
  const lab = await judgeLab(account, slug);
  if (!lab) notFound();
  const { study, runs, rows, complete } = lab;
  const active = runs.some((r) => r.status === "QUEUED" || r.status === "RUNNING");
  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="Judge lab">
        <p className="text-sm text-slate-600">
          LLM judges as raters: per question, each prompt version and model with its mean Human–Judge Cohen&apos;s κ (and CI) beside the annotators&apos; mean Human–Human κ (SWE-Judge §5.2), its
          accuracy or F1 against the consensus, and what it cost. Cost per 1,000 items is of the answers requested; answers served from the cache (a re-run of the same version and model) cost
          nothing and are counted apart. Edit prompts and start runs on the{" "}
          <Link href={`/studies/${encodeURIComponent(study.slug)}/judges/prompts`} prefetch={false} className="text-blue-700 underline">
            prompts page
          </Link>
          ; the CLI does the same: <code className="text-xs">npm run cli -- judge --study {study.slug} --task TASK --question Q --model M</code>.
        </p>
      </StudyPageHeader>
      <PollWhileActive active={active} seconds={2} />
      <LabScatter points={labPoints(rows)} label="Agreement (mean Human–Judge κ) against cost (USD per 1,000 items): a point per prompt version and model" />
      <DataTable table={labTable(study.slug, rows, !complete)} note={complete ? undefined : "The κ CIs are being computed by the worker; the point estimates are final."} />
      <DataTable table={runsTable(study.slug, runs, (run) => <ResumeRunButton slug={study.slug} runId={run.id} resume={resumeJudgeRun} />)} />
    </div>
  );
}
