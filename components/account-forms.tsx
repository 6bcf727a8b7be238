"use client";

import { ActionMessage } from "@/components/action-message";
import { useRun, type Action } from "@/components/action-run";

type Submit = Action<{ id: string }>;

export function CreateAccountForm({ submit, allowLeadRoles }: { submit: Submit; allowLeadRoles: boolean }) {
  const { message, pending, submit: send } = useRun();
  return (
    <form onSubmit={(e) => send(submit, e, "Account created.")} className="flex flex-wrap items-end gap-2" aria-label="Create account">
      <label className="text-sm">
        Email
        <input name="email" type="email" required className="ml-1 rounded border border-slate-300 px-2 py-1" />
      </label>
      <label className="text-sm">
        Name
        <input name="name" className="ml-1 rounded border border-slate-300 px-2 py-1" />
      </label>
      <label className="text-sm">
        Role
        <select name="role" className="ml-1 rounded border border-slate-300 px-2 py-1" defaultValue="ANNOTATOR">
          <option value="ANNOTATOR">annotator</option>
          {allowLeadRoles && <option value="LEAD">lead</option>}
          {allowLeadRoles && <option value="ADMIN">admin</option>}
        </select>
      </label>
      <label className="text-sm">
        Password
        <input name="password" type="password" required minLength={8} className="ml-1 rounded border border-slate-300 px-2 py-1" />
      </label>
      <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-1 text-sm text-white disabled:opacity-50">
        Create
      </button>
      <ActionMessage message={message} />
    </form>
  );
}

/** A new password for one account: "Activate" for imported accounts, "Reset password" otherwise. */
export function AccountPasswordForm({ submit, accountId, label, success }: { submit: Submit; accountId: string; label: string; success: string }) {
  const { message, pending, submit: send } = useRun();
  return (
    <form onSubmit={(e) => send(submit, e, success)} className="flex items-center gap-1" aria-label={label}>
      <input type="hidden" name="accountId" value={accountId} />
      <input name="password" type="password" placeholder="new password" required minLength={8} aria-label="New password" className="rounded border border-slate-300 px-2 py-0.5 text-sm" />
      <button type="submit" disabled={pending} className="rounded border border-slate-300 px-2 py-0.5 text-sm disabled:opacity-50">
        {label}
      </button>
      <ActionMessage message={message} />
    </form>
  );
}

/** One button acting on one account (deactivate, reactivate). */
export function AccountButton({ submit, accountId, label, success }: { submit: Submit; accountId: string; label: string; success: string }) {
  const { message, pending, submit: send } = useRun();
  return (
    <form onSubmit={(e) => send(submit, e, success)} className="flex items-center gap-1">
      <input type="hidden" name="accountId" value={accountId} />
      <button type="submit" disabled={pending} className="rounded border border-slate-300 px-2 py-0.5 text-sm disabled:opacity-50">
        {label}
      </button>
      <ActionMessage message={message} />
    </form>
  );
}
