import Link from "next/link";
import { StudyPageHeader } from "@/components/study-page-header";
import { LEAD_ROLES, requirePageUser } from "@/lib/auth/session";
import { orPageError } from "@/lib/errors/page";
import { listConsolidation } from "@/lib/data/assignment-admin";

export const dynamic = "force-dynamic";

/** Items whose stage-1 judgements a lead consolidates into the stage-2 pseudo-references. */
export default async function ConsolidationListPage({ params }: { params: Promise<{ slug: string }> }) {
  const user = await requirePageUser(LEAD_ROLES);
  const { slug } = await params;
  const list = await orPageError(listConsolidation(user, slug));
  return (
    <div className="space-y-4">
      <StudyPageHeader study={list.study} title="Consolidate stage 1">
        <p className="text-sm text-slate-600">
          For each item, compare the annotators&apos; claim codes and added claims and decide keep, replace or drop per claim (CRScore Figure 7). Until an item is consolidated, each annotator rates its reviews against the
          result of their own stage 1. Items whose annotators disagree on keeping or dropping a claim are marked; a tie (as many for keeping as for dropping) has no default and waits for your choice.
        </p>
      </StudyPageHeader>
      <table className="w-full rounded border border-slate-200 bg-white text-left text-sm">
        <thead className="bg-slate-100 text-slate-600">
          <tr>
            <th className="px-3 py-2">Item</th>
            <th>File</th>
            <th className="text-right">Claims</th>
            <th className="text-right">Added</th>
            <th className="text-right">Stage 1 done</th>
            <th className="text-right" title="Claims on which the annotators' stage-1 votes (keep or drop) differ; ties are split evenly and have no default">
              Disagreements
            </th>
            <th className="px-3">Consolidated</th>
          </tr>
        </thead>
        <tbody>
          {list.rows
            .filter((r) => r.claims > 0 || r.added > 0)
            .map((r) => (
              <tr key={r.id} className={`border-t border-slate-100 ${r.disagreements > 0 && !r.consolidatedAt ? "bg-amber-50" : ""}`} data-testid="consolidation-row">
                <td className="px-3 py-2 font-mono">
                  <Link href={`/studies/${slug}/consolidate/${r.id}`} className="text-blue-700 hover:underline">
                    {r.externalId}
                  </Link>
                </td>
                <td className="font-mono">{r.filePath}</td>
                <td className="text-right tabular-nums">{r.claims}</td>
                <td className="text-right tabular-nums">{r.added}</td>
                <td className="text-right tabular-nums">
                  {r.stage1Done} / {r.stage1Total}
                </td>
                <td className="text-right tabular-nums" data-testid="consolidation-disagreements">
                  {r.disagreements === 0 ? (
                    <span className="text-slate-500">none</span>
                  ) : (
                    <span className="rounded bg-amber-200 px-1 text-amber-950">
                      {r.disagreements}
                      {r.ties > 0 ? ` (${r.ties} tie${r.ties === 1 ? "" : "s"})` : ""}
                    </span>
                  )}
                </td>
                <td className="px-3">{r.consolidatedAt ? r.consolidatedAt.toISOString().slice(0, 16).replace("T", " ") : "not yet"}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </div>
  );
}
