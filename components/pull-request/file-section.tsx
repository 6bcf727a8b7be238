"use client";

/**
 * One file of a pull request: its diff (the diff view's rows, highlighting and expandable
 * context) with each comment thread between the lines it is on and its range marked, whole-file
 * threads at the head. Context holding a commented line outside the hunks opens around it; a
 * thread whose line is not shown still stays at the head, saying where it is.
 */
import { memo, useCallback, useEffect, useMemo, type ReactNode } from "react";
import { FileBody, useExpansions, useFileModels, type AnchorAfter, type LineMark } from "@/components/diff-view/diff-view";
import { expansionsShowing, unifiedRows, type FileModel } from "@/components/diff-view/model";
import { anchorOf, covers, type Thread } from "@/lib/review-comments/threads";
import { CommentThread } from "./comment-thread";
import type { DiffSource } from "@/lib/diff";
import type { PullRequestComment, PullRequestFile } from "@/lib/review-comments/display";

const key = (side: "LEFT" | "RIGHT", line: number) => `${side === "LEFT" ? "L" : "R"}${line}`;

/** The key of a thread's range among its file's (the diff view's line marks). */
const rangeKey = (index: number) => `t${index}`;

/** The anchor keys of a row: the old line it shows and the new line it shows. */
function rowLines(row: Parameters<AnchorAfter>[0]): string[] {
  if (row.type === "line") return [row.row.kind !== "add" ? key("LEFT", row.row.oldNo!) : "", row.row.kind !== "del" ? key("RIGHT", row.row.newNo!) : ""];
  if (row.type === "pair") return [row.left && row.left.kind !== "add" ? key("LEFT", row.left.oldNo!) : "", row.right && row.right.kind !== "del" ? key("RIGHT", row.right.newNo!) : ""];
  return [];
}

const STATUS_WORD = { ADDED: "added", MODIFIED: "modified", DELETED: "deleted", RENAMED: "renamed" } as const;

export function statusWord(file: Pick<PullRequestFile, "status">): string {
  return file.status ? STATUS_WORD[file.status] : "changed";
}

function DiffWithThreads({
  file,
  source,
  model,
  mode,
  threads,
  focusedId,
  onFocus,
  renderBelow,
}: {
  file: PullRequestFile;
  source: DiffSource;
  model: FileModel;
  mode: "unified" | "split";
  threads: Thread<PullRequestComment>[];
  focusedId: string | null;
  onFocus: (id: string) => void;
  renderBelow?: (comment: PullRequestComment, focused: boolean) => ReactNode;
}) {
  const anchored = useMemo(() => threads.flatMap((t) => (anchorOf(t.root) ? [{ thread: t, anchor: anchorOf(t.root)! }] : [])), [threads]);
  // Opened once, from the first model (gap ids do not change when the whole file is highlighted).
  const { expansions, onExpand } = useExpansions(expansionsShowing(model, anchored.map((a) => a.anchor)));
  const shown = useMemo(() => {
    const lines = new Set<string>();
    for (const row of unifiedRows(model, expansions)) for (const k of rowLines(row)) if (k) lines.add(k);
    return lines;
  }, [model, expansions]);
  const atLine = useMemo(() => {
    const map = new Map<string, Thread<PullRequestComment>[]>();
    for (const { thread, anchor } of anchored) {
      const k = key(anchor.side, anchor.line);
      if (shown.has(k)) map.set(k, [...(map.get(k) ?? []), thread]);
    }
    return map;
  }, [anchored, shown]);
  const atHead = threads.filter((t) => {
    const anchor = anchorOf(t.root);
    return !anchor || !shown.has(key(anchor.side, anchor.line));
  });
  const anchorAfter = useCallback<AnchorAfter>(
    (row) => {
      if (atLine.size === 0) return null;
      const here = rowLines(row).filter((k) => k && atLine.has(k));
      return here.length > 0 ? here.join(" ") : null;
    },
    [atLine],
  );
  // Every thread's range marked, keyed by the thread's place in the file; the focused comment's (a reply's: its thread's) as focused.
  const focusedThread = focusedId === null ? null : threads.find((t) => t.root.id === focusedId || t.replies.some((r) => r.id === focusedId));
  const mark = useCallback<LineMark>(
    (line, side) => {
      const s = side === "left" ? "LEFT" : "RIGHT";
      const n = side === "left" ? line.oldNo : line.newNo;
      return n === null ? [] : threads.flatMap((t, i) => (covers(t.root, s, n) ? [rangeKey(i)] : []));
    },
    [threads],
  );
  const renderAnchor = useCallback(
    (k: string) =>
      k
        .split(" ")
        .flatMap((line) => atLine.get(line) ?? [])
        .map((t) => <CommentThread key={t.root.id} thread={t} focusedId={focusedThread === t ? focusedId : null} onFocus={onFocus} renderBelow={renderBelow} />),
    [atLine, focusedThread, focusedId, onFocus, renderBelow],
  );
  return (
    <>
      {atHead.map((t) => (
        <div key={t.root.id}>
          {anchorOf(t.root) && (
            <p className="bg-amber-50 px-2 font-sans text-xs text-amber-900">
              On {t.root.side === "LEFT" ? "old " : ""}line {t.root.line}, which this diff does not show{model.contextHtml ? "" : " (the file's contents are not stored)"}.
            </p>
          )}
          <CommentThread thread={t} focusedId={focusedThread === t ? focusedId : null} onFocus={onFocus} renderBelow={renderBelow} />
        </div>
      ))}
      {model.error ? (
        <p role="alert" className="px-2 text-red-700">
          This diff cannot be read: {model.error}
        </p>
      ) : (
        <FileBody file={model} mode={mode} expansions={expansions} onExpand={onExpand} mark={mark} focusedRange={focusedThread ? rangeKey(threads.indexOf(focusedThread)) : null} anchorAfter={anchorAfter} renderAnchor={renderAnchor} />
      )}
      {source.diff === "" && <p className="px-2 font-sans text-xs text-slate-600">No changed lines{file.status === "RENAMED" ? ": the file was renamed only" : ""}.</p>}
    </>
  );
}

function Diff(props: Omit<Parameters<typeof DiffWithThreads>[0], "model">) {
  const sources = useMemo(() => [props.source], [props.source]);
  const models = useFileModels(sources);
  // A file's diff is one file; an empty diff (a pure rename) has no model.
  const model = models[0] ?? { key: props.file.codeChangeId, path: props.file.path, primary: false, additions: 0, deletions: 0, segments: [], contextHtml: null, partial: false };
  return <DiffWithThreads {...props} model={model} />;
}

/** A file's section; its diff is rendered once `open` (near the screen, or holding the focused comment), a placeholder of about its height before. */
export const FileSection = memo(function FileSection({
  file,
  index,
  open,
  placeholderPx,
  mode,
  threads,
  commentCount,
  focusedId,
  onFocus,
  renderBelow,
  sectionRef,
  onNeedSource,
}: {
  file: PullRequestFile;
  index: number;
  open: boolean;
  placeholderPx: number;
  mode: "unified" | "split";
  threads: Thread<PullRequestComment>[];
  commentCount: number;
  /** The focused comment when it is in this file, else null. */
  focusedId: string | null;
  onFocus: (id: string) => void;
  renderBelow?: (comment: PullRequestComment, focused: boolean) => ReactNode;
  sectionRef: (index: number, el: HTMLElement | null) => void;
  /** Asked for the diff when the section opens without it. */
  onNeedSource?: (codeChangeId: string) => void;
}) {
  const loading = open && !file.binary && file.source === null;
  useEffect(() => {
    if (loading) onNeedSource?.(file.codeChangeId);
  }, [loading, onNeedSource, file.codeChangeId]);
  return (
    <section
      ref={(el) => sectionRef(index, el)}
      data-index={index}
      id={`pr-file-${index}`}
      data-testid="pr-file"
      data-path={file.path}
      data-open={open}
      aria-label={`${file.path} (${statusWord(file)})`}
      className="scroll-m-2 border-b border-slate-200 last:border-b-0"
    >
      <h3 className="sticky top-[calc(var(--pr-sticky-top,0px)+1.75rem)] z-10 flex flex-wrap gap-x-2 bg-slate-100 px-2 font-sans text-xs text-slate-700">
        <span className="font-mono font-medium">{file.status === "RENAMED" && file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}</span>
        <span>{statusWord(file)}</span>
        {commentCount > 0 && (
          <span>
            {commentCount} comment{commentCount === 1 ? "" : "s"}
          </span>
        )}
      </h3>
      {file.binary ? (
        <>
          {threads.map((t) => (
            <CommentThread key={t.root.id} thread={t} focusedId={focusedId} onFocus={onFocus} renderBelow={renderBelow} />
          ))}
          <p className="px-2 py-1 font-sans text-sm text-slate-600" data-testid="binary-file">
            Binary file, not shown.
          </p>
        </>
      ) : open && file.source ? (
        <Diff file={file} source={file.source} mode={mode} threads={threads} focusedId={focusedId} onFocus={onFocus} renderBelow={renderBelow} />
      ) : (
        <div style={{ height: placeholderPx }} aria-hidden="true" data-testid="pr-file-placeholder" className="px-2 font-sans text-xs text-slate-500">
          {loading && "Loading the diff…"}
        </div>
      )}
    </section>
  );
});
