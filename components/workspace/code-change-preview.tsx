"use client";

/**
 * A lead's read-only preview of an item: the workspace's own columns
 * (diff, task, guidelines and codebook) with one annotator's stored answers overlaid, chosen
 * from the study's annotators (none: the item as a new annotator sees it). Every control of the
 * task is disabled and the answers are held in ReadOnlyAnswers, which cannot send anything: no
 * autosave, no time on task, nothing written by viewing.
 */
import Link from "next/link";
import { useCallback, useRef, useState } from "react";
import { fetchSource } from "@/components/pull-request/use-sources";
import type { DiffMode } from "@/components/diff-view";
import { formatDuration } from "@/components/format";
import { TASK_LABELS } from "@/lib/annotation/task-labels";
import type { CodeChangePreview as Preview } from "@/lib/data/lead-views";
import { CodeChangeColumns } from "./code-change-columns";
import { ReadOnlyAnswers } from "./read-only-answers";
import type { TaskHandle } from "./types";

const STATUS = { PENDING: "not started", IN_PROGRESS: "draft (not submitted)", DONE: "submitted", SKIPPED: "skipped" } as const;

export function CodeChangePreview({ preview }: { preview: Preview }) {
  const { data, task, annotatorId } = preview;
  const [store] = useState(() => new ReadOnlyAnswers(data));
  const [mode, setMode] = useState<DiffMode>("unified");
  const [guidelines, setGuidelines] = useState(false);
  const handle = useRef<TaskHandle | null>(null);
  // A pull request's other files come as they near the screen, as in the annotator's workspace.
  const loadSource = useCallback((codeChangeId: string) => fetchSource(`/api/studies/${encodeURIComponent(data.study.slug)}/code-changes/${encodeURIComponent(codeChangeId)}`), [data.study.slug]);
  const shown = preview.annotators.find((p) => p.id === annotatorId) ?? null;
  const base = `/studies/${encodeURIComponent(data.study.slug)}`;
  const href = (t: string) => `${base}/items/${encodeURIComponent(data.item.id)}?task=${t}${annotatorId ? `&annotator=${encodeURIComponent(annotatorId)}` : ""}`;
  const name = (p: { name: string; email: string }) => p.name || p.email;

  return (
    <div className="relative left-1/2 w-[calc(100vw-2rem)] -translate-x-1/2 space-y-2" data-testid="code-change-preview">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <Link href={base} className="text-sm text-blue-700 hover:underline">
          ← {data.study.name}
        </Link>
        <h1 className="text-lg font-semibold">
          Preview · {TASK_LABELS[task]} · <span className="font-mono">{data.commentQuestions ? `pull request ${data.commentQuestions.pullRequest.externalId}` : data.item.filePath || data.item.externalId}</span>
        </h1>
        <nav aria-label="Tasks" className="flex gap-3 text-sm">
          {preview.tasks.map((t) => (
            <Link key={t} href={href(t)} aria-current={t === task ? "page" : undefined} className={t === task ? "font-semibold" : "text-blue-700 hover:underline"}>
              {TASK_LABELS[t]}
            </Link>
          ))}
        </nav>
        <form method="get" action={`${base}/items/${encodeURIComponent(data.item.id)}`} className="flex items-center gap-1 text-sm" aria-label="Whose answers">
          <input type="hidden" name="task" value={task} />
          <label>
            Answers of{" "}
            <select name="annotator" defaultValue={annotatorId ?? ""} onChange={(e) => e.currentTarget.form?.requestSubmit()} className="rounded border border-slate-500 bg-white px-1">
              <option value="">no one (as a new annotator sees it)</option>
              {preview.annotators.map((p) => (
                <option key={p.id} value={p.id}>
                  {name(p)}
                  {p.assignment ? ` (${STATUS[p.assignment.status]})` : " (not assigned this item)"}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="rounded border border-slate-500 px-2 py-0.5 hover:bg-slate-50">
            Show
          </button>
        </form>
        <span className="ml-auto flex gap-1 text-sm">
          <button type="button" onClick={() => setGuidelines((g) => !g)} className="rounded border border-slate-500 px-2 py-0.5 hover:bg-slate-50" aria-expanded={guidelines}>
            Guidelines
          </button>
        </span>
      </div>
      <p role="note" data-testid="preview-note" className="rounded bg-slate-100 px-2 py-1 text-sm text-slate-700">
        Read-only preview: the item as the annotator&apos;s workspace shows it
        {shown ? (
          <>
            , with the answers of <strong data-testid="preview-annotator">{name(shown)}</strong>{" "}
            {shown.assignment ? `(${STATUS[shown.assignment.status]}, ${formatDuration(shown.assignment.timeSpentMs)} on task)` : "(not assigned this item and task)"}
            {" · "}
            <Link href={`${base}/annotators/${encodeURIComponent(shown.id)}`} className="text-blue-700 underline">
              all of {name(shown)}&apos;s work
            </Link>
          </>
        ) : (
          ", without anyone's answers"
        )}
        . Nothing can be changed or saved here.
      </p>
      {preview.imported && (
        <p role="note" className="rounded bg-sky-50 px-2 py-1 text-sm text-sky-900">
          These answers were imported from {preview.imported.file} by {preview.imported.by} on {preview.imported.at.slice(0, 10)}.
        </p>
      )}
      <CodeChangeColumns
        data={data}
        task={task}
        store={store}
        handle={handle}
        onTarget={() => undefined}
        digitsMoveOn={false}
        mode={mode}
        onModeChange={setMode}
        guidelines={guidelines}
        onCloseGuidelines={() => setGuidelines(false)}
        showTask
        readOnly
        pullRequest={{ loadSource }}
        answersHeading={shown ? `Answers of ${name(shown)}` : "Answers"}
      />
    </div>
  );
}
