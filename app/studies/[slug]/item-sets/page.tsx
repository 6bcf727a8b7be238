import Link from "next/link";
import { CreateItemSetForm, DeleteItemSetButton } from "@/components/item-set-forms";
import { formatTime } from "@/components/dashboard/format";
import { LEAD_ROLES, requirePageUser } from "@/lib/auth/session";
import { orPageError } from "@/lib/errors/page";
import { ITEM_SET_KIND_LABEL, listItemSets } from "@/lib/data/item-sets";
import { createSet, deleteSet } from "./actions";
import { StudyPageHeader } from "@/components/study-page-header";

export const dynamic = "force-dynamic";

/** The study's named item sets (issue 11): the reliability set of the study design, calibration batches, held-out sets, sets from files. */
export default async function ItemSetsPage({ params }: { params: Promise<{ slug: string }> }) {
  const user = await requirePageUser(LEAD_ROLES);
  const { slug } = await params;
  const { study, sets } = await orPageError(listItemSets(user, slug));
  const base = `/studies/${encodeURIComponent(study.slug)}`;
  const withSet = (page: string, name: string) => `${base}/${page}?${new URLSearchParams({ set: name })}`;
  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="Item sets">
        <p className="text-sm text-slate-600">
          Named sets of the study&apos;s items that the agreement and validity reports can be restricted to. A file lists one external id per line: <code>CHANGE_ID</code> (every item of the change),{" "}
          <code>CHANGE_ID/REVIEW_ID</code> (one review; for CRScore sheets the system name) or <code>CHANGE_ID/CLAIM_ID</code> (one claim); blank lines and lines starting with # are ignored. The reliability
          set is the one the assignment plan makes (stored when assignments are generated), or one given here; a study has one. Same as{" "}
          <code className="text-xs">npm run cli -- item-sets create --study {study.slug} --name NAME --kind custom --file FILE</code>.
        </p>
      </StudyPageHeader>
      <CreateItemSetForm slug={study.slug} create={createSet} />
      {sets.length === 0 ? (
        <p className="text-sm text-slate-500">No item sets yet.</p>
      ) : (
        <table className="w-full rounded border border-slate-200 bg-white text-left text-sm">
          <thead className="bg-slate-100 text-slate-600">
            <tr>
              <th className="px-3 py-2">Name</th>
              <th>Kind</th>
              <th className="text-right">Items</th>
              <th className="text-right">Changes</th>
              <th className="px-3">Source</th>
              <th>Created</th>
              <th>Reports</th>
              <th className="px-3" />
            </tr>
          </thead>
          <tbody>
            {sets.map((s) => (
              <tr key={s.id} className="border-t border-slate-100" data-testid="item-set-row">
                <td className="px-3 py-2">
                  {s.name}
                  {s.description && <div className="text-xs text-slate-500">{s.description}</div>}
                </td>
                <td>{ITEM_SET_KIND_LABEL[s.kind]}</td>
                <td className="text-right tabular-nums">{s.size}</td>
                <td className="text-right tabular-nums">{s.changes}</td>
                <td className="px-3">{s.source}</td>
                <td className="text-xs text-slate-600">
                  {formatTime(s.createdAt)}
                  {s.createdBy ? ` by ${s.createdBy}` : ""}
                </td>
                <td className="space-x-2">
                  <Link href={withSet("agreement", s.name)} className="text-blue-700 hover:underline">
                    agreement
                  </Link>
                  <Link href={withSet("validity", s.name)} className="text-blue-700 hover:underline">
                    validity
                  </Link>
                </td>
                <td className="px-3 text-right">
                  <DeleteItemSetButton slug={study.slug} name={s.name} remove={deleteSet} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
