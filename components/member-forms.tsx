"use client";

import { ActionMessage } from "@/components/action-message";
import { useRun, type Action } from "@/components/action-run";

/** Adds an existing account to the study as an annotator, or (admins only) as a lead. */
export function AddMemberForm({ slug, add, canAddLeads }: { slug: string; add: Action<unknown>; canAddLeads: boolean }) {
  const { message, pending, run } = useRun();
  return (
    <form
      aria-label="Add member"
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const data = new FormData(form);
        run(add, { slug, email: data.get("email"), role: data.get("role") ?? "ANNOTATOR" }, "Member added.", () => form.reset());
      }}
    >
      <label className="text-sm">
        Email
        <input name="email" type="email" required className="ml-1 rounded border border-slate-300 px-2 py-1" />
      </label>
      {canAddLeads && (
        <label className="text-sm">
          Role in the study
          <select name="role" defaultValue="ANNOTATOR" className="ml-1 rounded border border-slate-300 px-2 py-1">
            <option value="ANNOTATOR">annotator</option>
            <option value="LEAD">lead</option>
          </select>
        </label>
      )}
      <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-1 text-sm text-white disabled:opacity-50">
        Add
      </button>
      <ActionMessage message={message} />
    </form>
  );
}

export function RemoveMemberButton({ slug, accountId, label, remove }: { slug: string; accountId: string; label: string; remove: Action<unknown> }) {
  const { message, pending, run } = useRun();
  return (
    <span className="inline-flex items-center gap-2">
      <button type="button" aria-label={label} disabled={pending} onClick={() => run(remove, { slug, accountId }, "Removed.")} className="rounded border border-slate-300 px-2 py-0.5 text-sm disabled:opacity-50">
        Remove
      </button>
      <ActionMessage message={message} />
    </span>
  );
}
