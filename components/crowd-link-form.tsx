"use client";

import { useState } from "react";
import { useRun, type Action } from "@/components/action-run";
import { ActionMessage } from "@/components/action-message";

export interface CrowdSettings {
  open: boolean;
  quota: number;
  completionCode: string;
  completionUrl: string;
  releaseMinutes: number;
}

/** The study's crowd link: open or closed, each participant's quota, the completion code or URL, and when an idle participant's items go back to the pool. */
export function CrowdLinkForm({ slug, link, initial, save }: { slug: string; link: string; initial: CrowdSettings; save: Action<unknown> }) {
  const { message, pending, run } = useRun();
  const [values, setValues] = useState(initial);
  return (
    <form
      aria-label="Crowd link settings"
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        run(save, { slug, ...values }, "Crowd link saved.");
      }}
    >
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={values.open} onChange={(e) => setValues({ ...values, open: e.target.checked })} />
        Open to participants by the link
      </label>
      <p className="text-xs text-slate-600">
        Link (Prolific: <code>{`${link}?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`}</code>; MTurk adds <code>workerId</code>, <code>assignmentId</code>,{" "}
        <code>hitId</code>; others <code>{`${link}?pid=ID`}</code>)
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm">
          Items per participant
          <input type="number" min={1} value={values.quota} onChange={(e) => setValues({ ...values, quota: Number(e.target.value) })} className="ml-1 w-20 rounded border border-slate-300 px-1" />
        </label>
        <label className="text-sm">
          Release idle items after (minutes)
          <input type="number" min={1} value={values.releaseMinutes} onChange={(e) => setValues({ ...values, releaseMinutes: Number(e.target.value) })} className="ml-1 w-20 rounded border border-slate-300 px-1" />
        </label>
        <label className="text-sm">
          Completion code
          <input value={values.completionCode} onChange={(e) => setValues({ ...values, completionCode: e.target.value })} className="ml-1 w-40 rounded border border-slate-300 px-1 font-mono" />
        </label>
        <label className="text-sm">
          Completion URL (optional: participants are sent there)
          <input value={values.completionUrl} onChange={(e) => setValues({ ...values, completionUrl: e.target.value })} className="ml-1 w-72 rounded border border-slate-300 px-1 font-mono" />
        </label>
        <button type="submit" disabled={pending} className="rounded bg-blue-700 px-3 py-1 text-sm text-white disabled:opacity-50">
          Save crowd link
        </button>
        <ActionMessage message={message} />
      </div>
    </form>
  );
}
