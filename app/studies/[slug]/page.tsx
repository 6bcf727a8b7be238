import Link from "next/link";
import { DataTable } from "@/components/dashboard/data-table";
import { content, count, text } from "@/components/dashboard/table-data";
import { ExportLinks } from "@/components/export-links";
import { StageOrderToggle } from "@/components/stage-order-toggle";
import { stageOrderOn } from "@/lib/annotation/stage-order";
import { changeStageOrder } from "./actions";
import { notFound } from "next/navigation";
import { formatDuration, secondsPerItem } from "@/components/format";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
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
  ["judges", "Judge lab"],
  ["crscore-tables", "CRScore tables"],
  ["comment-systems", "Comments per system"],
  ["tools", "Review tools"],
  ["members", "Members"],
  ["item-sets", "Item sets"],
  ["settings", "Settings"],
] as const;

export default async function StudyOverviewPage({ params }: { params: Promise<{ slug: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const overview = await getStudyOverview(account, (await params).slug);
  if (!overview) notFound();
  const { study, annotators } = overview;
  const waiting = await studyWaiting(account, study.slug);
  const pullRequests = new Map(study.pullRequests.map((pr) => [pr.id, pr]));
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{study.name}</h1>
        <p className="text-sm text-slate-600">{study.description}</p>
        {/* No prefetch: each tool is a dynamic page, rendered (with its queries) for every prefetch on every load of this one. */}
        <nav aria-label="Study tools" className="mt-2 flex gap-4 text-sm">
          {STUDY_TOOLS.filter(([path]) => path !== "comment-systems" || study.tasks.includes("COMMENT_QUESTIONS")).map(([path, label]) => (
            <Link key={path} href={`/studies/${study.slug}/${path}`} prefetch={false} className="text-blue-700 hover:underline">
              {label}
            </Link>
          ))}
        </nav>
        {study.tasks.includes("CLAIM_VERIFICATION") && study.tasks.includes("REVIEW_RATING") && <StageOrderToggle slug={study.slug} on={stageOrderOn(study)} save={changeStageOrder} />}
        <ExportLinks slug={study.slug} annotators={annotators.map((a) => a.name)} offer={await exportOffer(study.id)} />
      </div>
      <StudyWaitingList slug={study.slug} waiting={waiting} />
      {/* The annotator and item links are not prefetched either: each is a dynamic page, rendered for every load of this one. */}
      <section aria-label="Annotators">
        <h2 className="mb-2 text-lg font-medium">Annotators</h2>
        <DataTable
          table={{
            label: "Annotators",
            columns: [
              { key: "annotator", label: "Annotator", sortable: true },
              { key: "progress", label: "Progress", sortable: true },
              { key: "skipped", label: "Skipped", numeric: true, sortable: true },
              { key: "time", label: "Time spent", numeric: true, sortable: true },
              { key: "perItem", label: "Per item", numeric: true, sortable: true },
            ],
            rows: annotators.map((a) => ({
              key: a.id,
              data: { testid: "annotator-row" },
              cells: [
                content(
                  <>
                    <Link href={`/studies/${study.slug}/annotators/${a.id}`} prefetch={false} className="text-blue-700 hover:underline">
                      {a.name || a.email}
                    </Link>{" "}
                    <span className="text-slate-500">{a.email}</span>
                    {!a.active && <span className="ml-2 rounded bg-amber-100 px-1 text-xs text-amber-800">inactive</span>}
                  </>,
                  { text: a.name || a.email },
                ),
                { text: "", progress: { done: a.done, total: a.total, label: `Progress of ${a.name}` } },
                count(a.skipped),
                text(formatDuration(a.timeSpentMs), { value: a.timeSpentMs }),
                text(secondsPerItem(a.timeSpentMs, a.done), { value: a.done > 0 ? a.timeSpentMs / a.done : null }),
              ],
            })),
          }}
        />
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
        <DataTable
          table={{
            label: "Code changes",
            columns: [
              { key: "item", label: "Item", sortable: true },
              { key: "file", label: "File", sortable: true },
              { key: "language", label: "Language", sortable: true },
              { key: "pullRequest", label: "Pull request", sortable: true },
              { key: "pseudoReferences", label: "Pseudo-references", numeric: true, sortable: true },
              { key: "reviews", label: "Reviews", numeric: true, sortable: true },
            ],
            rows: study.codeChanges.map((change) => ({
              key: change.id,
              id: `change-${change.externalId}`,
              data: { testid: "code-change-row" },
              cells: [
                content(
                  <Link href={`/studies/${study.slug}/items/${change.id}`} prefetch={false} className="text-blue-700 hover:underline" title="Preview as an annotator sees it">
                    {change.externalId}
                  </Link>,
                  { text: change.externalId, mono: true },
                ),
                text(change.filePath, { mono: true }),
                text(change.language),
                change.pullRequestId ? content(<PullRequestLink slug={study.slug} pullRequest={pullRequests.get(change.pullRequestId)!} />, { text: pullRequests.get(change.pullRequestId)!.title }) : text(""),
                count(change._count.pseudoReferences),
                count(change._count.reviews),
              ],
            })),
          }}
        />
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
