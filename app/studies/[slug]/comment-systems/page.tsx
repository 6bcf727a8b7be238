import Link from "next/link";
import { CategoryChart } from "@/components/dashboard/charts/category-chart";
import { categoryBars, categoryTableData, usefulnessTableData } from "@/components/dashboard/comment-systems";
import { DataTable } from "@/components/dashboard/data-table";
import { StudyPageHeader } from "@/components/study-page-header";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { commentSystemTables } from "@/lib/data/comment-systems";
import { orPageError } from "@/lib/errors/page";

export const dynamic = "force-dynamic";

/**
 * Review comments per system (c-CRAB §5.2-5.3): Table 6 (useful comments per system, with the
 * share's Wilson interval) and Figure 6 (each system's categories beside the human reviewers'),
 * from the consensus of the study's comment questions.
 */
export default async function CommentSystemsPage({ params }: { params: Promise<{ slug: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const tables = await orPageError(commentSystemTables(account, (await params).slug));
  const { study, usefulness, categories, notes } = tables;
  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="Review comments per system">
        <p className="max-w-4xl text-sm text-slate-600">
          Each review comment counts once it has a consensus on a question: its annotators&apos; unanimous submitted answer, or the lead&apos;s decision on the{" "}
          <Link href={`/studies/${study.slug}/adjudicate`} prefetch={false} className="text-blue-700 underline">
            adjudication page
          </Link>{" "}
          (c-CRAB&apos;s annotators resolved disagreements through discussion). A comment without one is counted among its system&apos;s comments but not among the decided ones; a share
          over no decided comment is undefined (—), its reason in the cell&apos;s hover text. The same numbers as <code className="text-xs">npm run cli -- comment-systems --study {study.slug}</code>.
          The questions are edited in the{" "}
          <Link href={`/studies/${study.slug}/settings#comment-questions`} prefetch={false} className="text-blue-700 underline">
            settings
          </Link>
          .
        </p>
      </StudyPageHeader>
      {notes.length > 0 && (
        <ul data-testid="comment-systems-notes" className="list-disc space-y-1 pl-5 text-sm text-amber-800">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {usefulness && (
        <section aria-label="Table 6" className="space-y-2">
          <DataTable
            table={usefulnessTableData(study.slug, usefulness)}
            note={`Useful % is useful / decided, with its ${Math.round(usefulness.confidenceLevel * 100)} % Wilson score interval (c-CRAB Table 6 reports the share alone). A row's decided count below its comments means some comments have no consensus yet.`}
          />
        </section>
      )}
      {categories && (
        <section aria-label="Figure 6" className="space-y-2">
          <CategoryChart
            bars={categoryBars(categories)}
            categories={categories.categories}
            label={`Figure 6 (c-CRAB): the share of each system's decided comments per category ("${categories.question}"), the human reviewers' first. A system with no decided comment has an empty bar.`}
          />
          <DataTable table={categoryTableData(study.slug, categories)} note="Each category's share of the system's decided comments, with the count under it." />
        </section>
      )}
    </div>
  );
}
