import { DataTable } from "@/components/dashboard/data-table";
import { content, count, text } from "@/components/dashboard/table-data";
import { StudyPageHeader } from "@/components/study-page-header";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { orPageError } from "@/lib/errors/page";
import { listConsolidation } from "@/lib/data/assignment-admin";

export const dynamic = "force-dynamic";

/** Items whose stage-1 judgements a lead consolidates into the stage-2 pseudo-references. */
export default async function ConsolidationListPage({ params }: { params: Promise<{ slug: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug } = await params;
  const list = await orPageError(listConsolidation(account, slug));
  return (
    <div className="space-y-4">
      <StudyPageHeader study={list.study} title="Consolidate stage 1">
        <p className="text-sm text-slate-600">
          For each item, compare the annotators&apos; claim codes and added claims and decide keep, replace or drop per claim (CRScore Figure 7). Until an item is consolidated, each annotator rates its reviews against the
          result of their own stage 1. Items whose annotators disagree on keeping or dropping a claim are marked; a tie (as many for keeping as for dropping) has no default and waits for your choice.
        </p>
      </StudyPageHeader>
      <DataTable
        table={{
          label: "Items to consolidate",
          columns: [
            { key: "item", label: "Item", sortable: true },
            { key: "file", label: "File", sortable: true },
            { key: "claims", label: "Claims", numeric: true, sortable: true },
            { key: "added", label: "Added", numeric: true, sortable: true },
            { key: "stage1", label: "Stage 1 done", numeric: true },
            { key: "disagreements", label: "Disagreements", numeric: true, sortable: true, title: "Claims on which the annotators' stage-1 votes (keep or drop) differ; ties are split evenly and have no default" },
            { key: "consolidated", label: "Consolidated", sortable: true },
          ],
          rows: list.rows
            .filter((r) => r.claims > 0 || r.added > 0)
            .map((r) => ({
              key: r.id,
              tone: r.disagreements > 0 && !r.consolidatedAt ? "warn" : undefined,
              data: { testid: "consolidation-row" },
              cells: [
                text(r.externalId, { mono: true, href: `/studies/${slug}/consolidate/${r.id}` }),
                text(r.filePath, { mono: true }),
                count(r.claims),
                count(r.added),
                text(`${r.stage1Done} / ${r.stage1Total}`),
                content(
                  r.disagreements === 0 ? (
                    <span className="text-slate-500">none</span>
                  ) : (
                    <span className="rounded bg-amber-200 px-1 text-amber-950">
                      {r.disagreements}
                      {r.ties > 0 ? ` (${r.ties} tie${r.ties === 1 ? "" : "s"})` : ""}
                    </span>
                  ),
                  { value: r.disagreements, data: { testid: "consolidation-disagreements" } },
                ),
                text(r.consolidatedAt ? r.consolidatedAt.toISOString().slice(0, 16).replace("T", " ") : "not yet"),
              ],
            })),
        }}
      />
    </div>
  );
}
