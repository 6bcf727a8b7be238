import Link from "next/link";
import { DataTable } from "@/components/dashboard/data-table";
import { content, count, text } from "@/components/dashboard/table-data";
import { CreateItemSetForm, DeleteItemSetButton, MemberTablePicker } from "@/components/item-set-forms";
import { formatTime } from "@/components/dashboard/format";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { orPageError } from "@/lib/errors/page";
import { ITEM_SET_KIND_LABEL, MEMBER_TABLES, memberTable, listItemSets } from "@/lib/data/item-sets";
import { createSet, createSetFromTable, deleteSet } from "./actions";
import { StudyPageHeader } from "@/components/study-page-header";

export const dynamic = "force-dynamic";

/** The study's named item sets: the reliability set of the study design, calibration batches, held-out sets, sets from files. */
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function ItemSetsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug } = await params;
  const query = await searchParams;
  const [{ study, sets }, table] = await orPageError(
    Promise.all([listItemSets(account, slug), memberTable(account, slug, { table: first(query.table), language: first(query.language), system: first(query.system), text: first(query.text) })]),
  );
  const select = "rounded border border-slate-300 px-2 py-1";
  const base = `/studies/${encodeURIComponent(study.slug)}`;
  const withSet = (page: string, name: string) => `${base}/${page}?${new URLSearchParams({ set: name })}`;
  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="Item sets">
        <p className="text-sm text-slate-600">
          Named sets of the study&apos;s items that the agreement and validity reports can be restricted to, picked from the study&apos;s code changes, reviews or claims (filter, select, save), or given as a file. A file lists one external id per line: <code>CODE_CHANGE_ID</code> (every item of the change),{" "}
          <code>CODE_CHANGE_ID/REVIEW_ID</code> (one review; for CRScore sheets the system name) or <code>CODE_CHANGE_ID/CLAIM_ID</code> (one claim); blank lines and lines starting with # are ignored. The reliability
          set is the one the assignment plan makes (stored when assignments are generated), or one given here; a study has one. Same as{" "}
          <code className="text-xs">npm run cli -- item-sets create --study {study.slug} --name NAME --kind custom --file FILE</code>.
        </p>
      </StudyPageHeader>
      <section aria-label="From a file" className="space-y-2">
        <h2 className="text-lg font-medium">From a file</h2>
        <CreateItemSetForm slug={study.slug} create={createSet} />
      </section>
      <section aria-label="From the study's items" className="space-y-2">
        <h2 className="text-lg font-medium">From the study&apos;s items</h2>
        <form method="get" aria-label="Filter the study's items" className="flex flex-wrap items-end gap-3 text-sm">
          <label className="flex flex-col">
            Table
            <select name="table" defaultValue={table.filter.table} className={select}>
              {Object.entries(MEMBER_TABLES).map(([key, label]) => (
                <option key={key} value={key}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col">
            Language
            <select name="language" defaultValue={table.filter.language} className={select}>
              <option value="">any</option>
              {table.languages.map((l) => (
                <option key={l}>{l}</option>
              ))}
            </select>
          </label>
          {table.filter.table !== "codeChange" && (
            <label className="flex flex-col">
              {table.filter.table === "claim" ? "Source" : "System"}
              <select name="system" defaultValue={table.filter.system} className={select}>
                <option value="">any</option>
                {table.systems.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </label>
          )}
          <label className="flex flex-col">
            Text contains
            <input name="text" defaultValue={table.filter.text} maxLength={200} className={select} />
          </label>
          <button type="submit" className="rounded border border-slate-400 bg-white px-3 py-1">
            Filter
          </button>
        </form>
        <MemberTablePicker key={JSON.stringify(table.filter)} slug={study.slug} filter={table.filter} rows={table.rows} total={table.total} noun={MEMBER_TABLES[table.filter.table]} create={createSetFromTable} />
      </section>
      <h2 className="text-lg font-medium">The study&apos;s item sets</h2>
      <DataTable
        table={{
          label: "The study's item sets",
          empty: "No item sets yet.",
          columns: [
            { key: "name", label: "Name" },
            { key: "kind", label: "Kind" },
            { key: "items", label: "Items", numeric: true },
            { key: "changes", label: "Changes", numeric: true },
            { key: "source", label: "Source" },
            { key: "created", label: "Created" },
            { key: "reports", label: "Reports" },
            { key: "actions", label: "Actions", end: true },
          ],
          rows: sets.map((s) => ({
            key: s.id,
            data: { testid: "item-set-row" },
            cells: [
              text(s.name, s.description ? { sub: s.description } : {}),
              text(ITEM_SET_KIND_LABEL[s.kind]),
              count(s.size),
              count(s.changes),
              text(s.source),
              text(`${formatTime(s.createdAt)}${s.createdBy ? ` by ${s.createdBy}` : ""}`),
              content(
                <span className="space-x-2">
                  <Link href={withSet("agreement", s.name)} className="text-blue-700 hover:underline">
                    agreement
                  </Link>
                  <Link href={withSet("validity", s.name)} className="text-blue-700 hover:underline">
                    validity
                  </Link>
                </span>,
              ),
              content(<DeleteItemSetButton slug={study.slug} name={s.name} remove={deleteSet} />),
            ],
          })),
        }}
      />
    </div>
  );
}
