import Link from "next/link";
import { ExportLinks } from "@/components/export-links";
import { StageOrderToggle } from "@/components/stage-order-toggle";
import { stageOrderOn } from "@/lib/annotation/stage-order";
import { changeStageOrder } from "./actions";
import { notFound } from "next/navigation";
import { formatDuration, secondsPerItem } from "@/components/format";
import { ProgressBar } from "@/components/progress-bar";
import { LEAD_ROLES, requirePageUser } from "@/lib/auth/session";
import { getStudyOverview } from "@/lib/data/study-overview";
import { exportOffer } from "@/lib/data/exports";
import { studyWaiting } from "@/lib/data/study-waiting";
import { StudyWaitingList } from "@/components/study-waiting";

export const dynamic = "force-dynamic";

/** The study's sub-pages: path under the study, and link text. */
const STUDY_TOOLS = [
  ["assignments", "Assignments and progress"],
  ["consolidate", "Consolidate stage 1"],
  ["adjudicate", "Adjudicate"],
  ["rounds", "Calibration rounds"],
  ["quality", "Quality control"],
  ["import", "Import data"],
  ["agreement", "Agreement"],
  ["validity", "Validity"],
  ["metrics", "Metric runs"],
  ["pseudo-refs", "Pseudo-references"],
  ["crscore-tables", "CRScore tables"],
  ["members", "Members"],
  ["item-sets", "Item sets"],
  ["settings", "Settings"],
] as const;

export default async function StudyOverviewPage({ params }: { params: Promise<{ slug: string }> }) {
  const user = await requirePageUser(LEAD_ROLES);
  const overview = await getStudyOverview(user, (await params).slug);
  if (!overview) notFound();
  const { study, annotators } = overview;
  const waiting = await studyWaiting(user, study.slug);
  const pullRequests = new Map(study.pullRequests.map((pr) => [pr.id, pr]));
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{study.name}</h1>
        <p className="text-sm text-slate-600">{study.description}</p>
        {/* No prefetch: each tool is a dynamic page, rendered (with its queries) for every prefetch on every load of this one. */}
        <nav aria-label="Study tools" className="mt-2 flex gap-4 text-sm">
          {STUDY_TOOLS.map(([path, label]) => (
            <Link key={path} href={`/studies/${study.slug}/${path}`} prefetch={false} className="text-blue-700 hover:underline">
              {label}
            </Link>
          ))}
        </nav>
        {study.taskTypes.includes("CLAIM_VERIFICATION") && study.taskTypes.includes("REVIEW_RATING") && <StageOrderToggle slug={study.slug} on={stageOrderOn(study)} save={changeStageOrder} />}
        <ExportLinks slug={study.slug} annotators={annotators.map((a) => a.name)} offer={await exportOffer(study.id)} />
      </div>
      <StudyWaitingList slug={study.slug} waiting={waiting} />
      {/* The annotator and item links are not prefetched either: each is a dynamic page, rendered for every load of this one. */}
      <section aria-label="Annotators">
        <h2 className="mb-2 text-lg font-medium">Annotators</h2>
        <table className="w-full rounded border border-slate-200 bg-white text-left text-sm [&_td]:px-3 [&_th]:px-3">
          <thead className="bg-slate-100 text-slate-600">
            <tr>
              <th className="px-3 py-2">Annotator</th>
              <th>Progress</th>
              <th className="text-right">Skipped</th>
              <th className="text-right">Time spent</th>
              <th className="px-3 text-right">Per item</th>
            </tr>
          </thead>
          <tbody>
            {annotators.map((a) => (
              <tr key={a.id} className="border-t border-slate-100" data-testid="annotator-row">
                <td className="px-3 py-2">
                  <Link href={`/studies/${study.slug}/annotators/${a.id}`} prefetch={false} className="text-blue-700 hover:underline">
                    {a.name || a.email}
                  </Link>{" "}
                  <span className="text-slate-500">{a.email}</span>
                  {!a.active && <span className="ml-2 rounded bg-amber-100 px-1 text-xs text-amber-800">inactive</span>}
                </td>
                <td>
                  <ProgressBar done={a.done} total={a.total} label={`Progress of ${a.name}`} />
                </td>
                <td className="text-right tabular-nums">{a.skipped}</td>
                <td className="text-right">{formatDuration(a.timeSpentMs)}</td>
                <td className="px-3 text-right tabular-nums">{secondsPerItem(a.timeSpentMs, a.done)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-label="Code changes">
        <h2 className="mb-2 text-lg font-medium">Code changes ({study.codeChanges.length})</h2>
        {study.codeChanges.length === 0 && (
          <p className="mb-2 text-sm text-slate-600">
            No code changes yet:{" "}
            <Link href={`/studies/${study.slug}/import`} prefetch={false} className="text-blue-700 hover:underline">
              import them
            </Link>
            .
          </p>
        )}
        <table className="w-full rounded border border-slate-200 bg-white text-left text-sm [&_td]:px-3 [&_th]:px-3">
          <thead className="bg-slate-100 text-slate-600">
            <tr>
              <th className="px-3 py-2">Item</th>
              <th>File</th>
              <th>Language</th>
              <th>Pull request</th>
              <th className="text-right">Pseudo-references</th>
              <th className="px-3 text-right">Reviews</th>
            </tr>
          </thead>
          <tbody>
            {study.codeChanges.map((change) => (
              <tr key={change.id} id={`change-${change.externalId}`} className="border-t border-slate-100 target:bg-amber-50" data-testid="code-change-row">
                <td className="px-3 py-2 font-mono">
                  <Link href={`/studies/${study.slug}/items/${change.id}`} prefetch={false} className="text-blue-700 hover:underline" title="Preview as an annotator sees it">
                    {change.externalId}
                  </Link>
                </td>
                <td className="font-mono">{change.filePath}</td>
                <td>{change.language}</td>
                <td>{change.pullRequestId && <PullRequestLink slug={study.slug} pullRequest={pullRequests.get(change.pullRequestId)!} />}</td>
                <td className="text-right tabular-nums">{change._count.pseudoReferences}</td>
                <td className="px-3 text-right tabular-nums">{change._count.reviews}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

function PullRequestLink({ slug, pullRequest }: { slug: string; pullRequest: { externalId: string; title: string } }) {
  return (
    <Link href={`/studies/${slug}/pull-requests/${encodeURIComponent(pullRequest.externalId)}`} prefetch={false} className="text-blue-700 hover:underline" title="The pull request with its review comments in place">
      {pullRequest.title || pullRequest.externalId}
    </Link>
  );
}
