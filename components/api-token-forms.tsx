"use client";

import { useState } from "react";
import { ActionMessage } from "@/components/action-message";
import { useRun, type Action } from "@/components/action-run";

/** Makes an API token and shows it once, to be copied now. */
export function CreateTokenForm({ submit, scopes, defaultDays, maxDays }: { submit: Action<{ id: string; token: string }>; scopes: { name: string; description: string }[]; defaultDays: number; maxDays: number }) {
  const { message, pending, run } = useRun();
  const [token, setToken] = useState<string | null>(null);
  return (
    <form
      aria-label="Create API token"
      className="space-y-2 rounded border border-slate-200 p-3"
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const data = new FormData(form);
        setToken(null);
        const input = { name: data.get("name"), scopes: data.getAll("scopes"), expiresInDays: Number(data.get("expiresInDays")) };
        run(
          submit,
          input,
          (created) => {
            setToken(created.token);
            return "Token created. Copy it now: it is not shown again.";
          },
          () => form.reset(),
        );
      }}
    >
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm">
          Name
          <input name="name" required maxLength={100} placeholder="nightly import" className="ml-1 rounded border border-slate-300 px-2 py-1" />
        </label>
        <fieldset className="flex gap-3 text-sm">
          <legend className="sr-only">Scopes</legend>
          {scopes.map((s) => (
            <label key={s.name} title={s.description} className="flex items-center gap-1">
              <input type="checkbox" name="scopes" value={s.name} defaultChecked={s.name === "read"} />
              {s.name}
            </label>
          ))}
        </fieldset>
        <label className="text-sm">
          Expires in (days)
          <input name="expiresInDays" type="number" min={1} max={maxDays} defaultValue={defaultDays} className="ml-1 w-20 rounded border border-slate-300 px-2 py-1" />
        </label>
        <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-1 text-sm text-white disabled:opacity-50">
          Create token
        </button>
      </div>
      <ActionMessage message={message} />
      {token && (
        <code data-testid="new-token" className="block break-all rounded bg-slate-100 px-2 py-1 text-sm">
          {token}
        </code>
      )}
    </form>
  );
}

/** Revokes one token. */
export function RevokeTokenButton({ submit, tokenId }: { submit: Action<{ id: string }>; tokenId: string }) {
  const { message, pending, submit: send } = useRun();
  return (
    <form onSubmit={(e) => send(submit, e, "Revoked.")} className="flex items-center gap-1">
      <input type="hidden" name="tokenId" value={tokenId} />
      <button type="submit" disabled={pending} className="rounded border border-slate-300 px-2 py-0.5 text-sm disabled:opacity-50">
        Revoke
      </button>
      <ActionMessage message={message} />
    </form>
  );
}
