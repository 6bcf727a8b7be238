"use client";

import { useState } from "react";
import { DataTable } from "@/components/dashboard/data-table";
import { content, count, text } from "@/components/dashboard/table-data";
import { ActionMessage } from "@/components/action-message";
import { useRun, type Action } from "@/components/action-run";

export interface WebhookRow {
  id: string;
  url: string;
  secret: string;
  deliveries: { id: string; event: string; status: string; attempts: number; lastStatus: number | null; lastAnswer: string; lastAttemptAt: string | null }[];
}

/** Adds a hook; its URL is checked on the server (https, public addresses unless allowed). */
export function AddWebhookForm({ slug, submit }: { slug: string; submit: Action<{ id: string; secret: string }> }) {
  const { message, pending, submit: send } = useRun();
  return (
    <form onSubmit={(e) => send(submit, e, "Webhook added; its secret is listed below.")} className="flex flex-wrap items-end gap-2" aria-label="Add webhook">
      <input type="hidden" name="slug" value={slug} />
      <label className="text-sm">
        Receiver URL
        <input name="url" type="url" required placeholder="https://ci.example.org/hooks/crjudge" className="ml-1 w-96 rounded border border-slate-300 px-2 py-1" />
      </label>
      <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-1 text-sm text-white disabled:opacity-50">
        Add webhook
      </button>
      <ActionMessage message={message} />
    </form>
  );
}

/** One hook: its secret (shown on request), removal, and its newest deliveries with a resend button each. */
export function WebhookPanel({ slug, hook, remove, resend }: { slug: string; hook: WebhookRow; remove: Action<{ id: string }>; resend: Action<{ id: string }> }) {
  const { message, pending, run } = useRun();
  const [showSecret, setShowSecret] = useState(false);
  return (
    <div className="space-y-2 rounded border border-slate-200 p-3" data-testid="webhook">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <code className="break-all">{hook.url}</code>
        <button type="button" className="rounded border border-slate-300 px-2 py-0.5" onClick={() => setShowSecret((s) => !s)}>
          {showSecret ? "Hide secret" : "Show secret"}
        </button>
        <button type="button" disabled={pending} className="rounded border border-slate-300 px-2 py-0.5 disabled:opacity-50" onClick={() => run(remove, { slug, webhookId: hook.id }, "Removed.")}>
          Remove
        </button>
        <ActionMessage message={message} />
      </div>
      {showSecret && (
        <p className="text-sm">
          Secret: <code data-testid="webhook-secret" className="break-all">{hook.secret}</code>
        </p>
      )}
      <DataTable
        table={{
          label: `Deliveries of ${hook.url}`,
          empty: "No deliveries yet.",
          columns: [
            { key: "event", label: "Event" },
            { key: "status", label: "Status" },
            { key: "attempts", label: "Attempts", numeric: true },
            { key: "answer", label: "Last answer" },
            { key: "at", label: "Last attempt" },
            { key: "actions", label: "Actions", end: true },
          ],
          rows: hook.deliveries.map((d) => ({
            key: d.id,
            data: { testid: "webhook-delivery" },
            cells: [
              text(d.event),
              text(d.status.toLowerCase()),
              count(d.attempts),
              text(`${d.lastStatus ?? "no answer"} ${d.lastAnswer}`, { title: d.lastAnswer }),
              text(d.lastAttemptAt ? d.lastAttemptAt.replace("T", " ").slice(0, 19) : ""),
              content(
                <button type="button" disabled={pending} className="rounded border border-slate-300 px-2 py-0.5 disabled:opacity-50" onClick={() => run(resend, { slug, deliveryId: d.id }, "Queued again.")}>
                  Resend
                </button>,
              ),
            ],
          })),
        }}
      />
    </div>
  );
}
