"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { ActionMessage } from "@/components/action-message";

type Action = (input: unknown) => Promise<ActionResult<unknown>>;

const KINDS = [
  { value: "CUSTOM", label: "custom" },
  { value: "CALIBRATION", label: "calibration batch" },
  { value: "HELD_OUT", label: "held-out" },
  { value: "RELIABILITY", label: "reliability" },
];

/** Creates an item set from a file of external ids (one CHANGE_ID, CHANGE_ID/REVIEW_ID or CHANGE_ID/CLAIM_ID per line). */
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
