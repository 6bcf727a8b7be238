"use client";

import { DataTable } from "@/components/dashboard/data-table";
import { content, text } from "@/components/dashboard/table-data";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { ActionMessage } from "@/components/action-message";
import type { MemberTableFilter, MemberTableRow } from "@/lib/data/item-sets";

type Action = (input: unknown) => Promise<ActionResult<unknown>>;

const KINDS = [
  { value: "CUSTOM", label: "custom" },
  { value: "CALIBRATION", label: "calibration batch" },
  { value: "HELD_OUT", label: "held-out" },
  { value: "RELIABILITY", label: "reliability" },
];

/** Name, kind and description of a new set. */
function SetFields() {
  return (
    <>
      <label className="flex flex-col">
        Name
        <input name="name" required maxLength={100} className="rounded border border-slate-300 px-2 py-1" />
      </label>
      <label className="flex flex-col">
        Kind
        <select name="kind" defaultValue="CUSTOM" className="rounded border border-slate-300 px-2 py-1">
          {KINDS.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col">
        Description
        <input name="description" maxLength={2000} className="w-64 rounded border border-slate-300 px-2 py-1" />
      </label>
    </>
  );
}

/** Creates an item set from a file of external ids (one CODE_CHANGE_ID, CODE_CHANGE_ID/REVIEW_ID or CODE_CHANGE_ID/CLAIM_ID per line). */
export function CreateItemSetForm({ slug, create }: { slug: string; create: Action }) {
  const router = useRouter();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();
  return (
    <form
      aria-label="Create item set"
      className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const data = new FormData(form);
        const file = data.get("file");
        if (!(file instanceof File) || file.size === 0) {
          setMessage({ ok: false, text: "Choose a file of external ids." });
          return;
        }
        start(async () => {
          const text = await file.text();
          const result = await create({ slug, name: data.get("name"), kind: data.get("kind"), description: data.get("description") ?? "", fileName: file.name, text });
          setMessage(result.ok ? { ok: true, text: `Item set created.` } : { ok: false, text: result.error });
          if (result.ok) {
            form.reset();
            router.refresh();
          }
        });
      }}
    >
      <SetFields />
      <label className="flex flex-col">
        File of external ids
        <input name="file" type="file" accept=".txt,.csv,text/plain" className="text-xs" />
      </label>
      <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-1 text-white disabled:opacity-50">
        Create
      </button>
      <ActionMessage message={message} />
    </form>
  );
}

export function DeleteItemSetButton({ slug, name, remove }: { slug: string; name: string; remove: Action }) {
  const router = useRouter();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        aria-label={`Delete item set ${name}`}
        disabled={pending}
        onClick={() =>
          start(async () => {
            const result = await remove({ slug, name });
            setMessage(result.ok ? null : { ok: false, text: result.error });
            if (result.ok) router.refresh();
          })
        }
        className="rounded border border-slate-300 px-2 py-0.5 text-sm disabled:opacity-50"
      >
        Delete
      </button>
      <ActionMessage message={message} />
    </span>
  );
}

const shorten = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Rows of one table of the study (code changes, reviews or claims) as the page's filter keeps
 * them, each with a box; the chosen rows, or every row the filter keeps, saved as a named set.
 */
export function MemberTablePicker({ slug, filter, rows, total, noun, create }: { slug: string; filter: MemberTableFilter; rows: MemberTableRow[]; total: number; noun: string; create: Action }) {
  const router = useRouter();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [everyRow, setEveryRow] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();
  const allShown = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const count = everyRow ? total : selected.size;
  const rowsOf = (n: number) => `${n} ${n === 1 ? noun.replace(/s$/, "") : noun}`;
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600" data-testid="member-table-count">
        {rows.length < total ? `The first ${rows.length} of ${total} ${noun} the filter keeps` : `${total} ${noun}`}
      </p>
      {rows.length > 0 && (
        <DataTable
          table={{
            label: `Study ${noun}`,
            scroll: true,
            columns: [
              {
                key: "select",
                label: "Selected",
                header: <input type="checkbox" aria-label="Select every row shown" checked={allShown} disabled={everyRow} onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((r) => r.id)) : new Set())} />,
              },
              { key: "item", label: "Item" },
              { key: "language", label: "Language" },
              ...(filter.table !== "codeChange" ? [{ key: "system", label: filter.table === "claim" ? "Source" : "System" }] : []),
              { key: "text", label: filter.table === "codeChange" ? "File and pull request" : "Text" },
            ],
            rows: rows.map((r) => ({
              key: r.id,
              data: { testid: "member-table-row" },
              cells: [
                content(<input type="checkbox" aria-label={`Select ${r.externalId}`} checked={everyRow || selected.has(r.id)} disabled={everyRow} onChange={(e) => toggle(r.id, e.target.checked)} />),
                text(r.externalId, { mono: true }),
                text(r.language),
                ...(filter.table !== "codeChange" ? [text(r.system ?? "")] : []),
                text(shorten(r.text)),
              ],
            })),
          }}
        />
      )}
      <form
        aria-label="Save selection as an item set"
        className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const data = new FormData(form);
          start(async () => {
            const result = await create({ slug, name: data.get("name"), kind: data.get("kind"), description: data.get("description") ?? "", filter, ids: everyRow ? null : [...selected] });
            setMessage(result.ok ? { ok: true, text: `Item set created with ${rowsOf(count)}.` } : { ok: false, text: result.error });
            if (result.ok) {
              form.reset();
              setSelected(new Set());
              setEveryRow(false);
              router.refresh();
            }
          });
        }}
      >
        <SetFields />
        {rows.length < total && (
          <label className="flex items-center gap-1">
            <input type="checkbox" checked={everyRow} onChange={(e) => setEveryRow(e.target.checked)} />
            every row the filter keeps ({total}), not only those shown
          </label>
        )}
        <button type="submit" disabled={pending || count === 0} className="rounded bg-slate-900 px-3 py-1 text-white disabled:opacity-50">
          Save {rowsOf(count)} as a set
        </button>
        <ActionMessage message={message} />
      </form>
    </div>
  );
}
