"use client";

/**
 * A pull request with its review comments in place (c-CRAB §4): the file tree, each file's
 * diff with the comment threads between the lines they are on, and a keyboard cursor on one
 * comment. Files are rendered when they come near the screen (a placeholder of about their
 * height before), so a pull request of hundreds of files opens as fast as its first screen;
 * moving the cursor re-renders only the files it leaves and enters. Its sticky rows (the toolbar,
 * the files' headings) sit below a page header of height --pr-sticky-top (0 when none).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { DIFF_CSS, whenIdle, type DiffMode } from "@/components/diff-view/diff-view";
import { Markdown } from "@/components/workspace/markdown";
import { anchorText, commentCounts, readingOrder, threadsOf, type Thread } from "@/lib/review-comments/threads";
import { commentElementId } from "./comment-thread";
import { FileSection } from "./file-section";
import { FileTree } from "./file-tree";
import { FIRST_FILES, type PullRequestComment, type PullRequestFile, type PullRequestHead } from "@/lib/review-comments/display";

/** How far beyond the screen a file starts rendering. */
const AHEAD_PX = 1200;
/** How long a file near the screen may wait for the browser to be idle before it renders. */
const AHEAD_IDLE_MS = 500;
const ROW_PX = 20;
const THREAD_PX = 96;

/**
 * The threads of each file, the comments in reading order (j/k) and each file's count. The
 * comments come in reading order (placed by the server, which has every file's diff:
 * commentsInReadingOrder), so a file's diff arriving later changes nothing here.
 */
export function useCommentOrder(files: readonly PullRequestFile[], comments: readonly PullRequestComment[]) {
  const fileIds = files.map((f) => f.codeChangeId).join(" ");
  return useMemo(() => {
    const index = new Map(comments.map((c, i) => [c.id, i]));
    const threads = threadsOf(comments, fileIds.split(" "), (c) => index.get(c.id)!);
    const byFile = new Map<string, Thread<PullRequestComment>[]>();
    for (const t of threads) byFile.set(t.root.codeChangeId, [...(byFile.get(t.root.codeChangeId) ?? []), t]);
    return { byFile, order: readingOrder(threads), counts: commentCounts(comments) };
  }, [fileIds, comments]);
}

/** The comment after (`1`) or before (`-1`) `current` in reading order; the first when none is focused; null at either end. */
export function stepComment(order: readonly PullRequestComment[], current: string | null, direction: 1 | -1): string | null {
  if (order.length === 0) return null;
  const at = current === null ? -1 : order.findIndex((c) => c.id === current);
  if (at < 0) return direction === 1 ? order[0].id : order[order.length - 1].id;
  return order[at + direction]?.id ?? null;
}

const EMPTY: Thread<PullRequestComment>[] = [];

export function PullRequestView({
  pullRequest,
  files,
  comments,
  mode,
  onModeChange,
  focusedId,
  onFocus,
  renderBelow,
  toolbar,
  onNeedSource,
}: {
  pullRequest: PullRequestHead;
  files: readonly PullRequestFile[];
  /** In reading order (commentsInReadingOrder). */
  comments: readonly PullRequestComment[];
  mode: DiffMode;
  onModeChange: (mode: DiffMode) => void;
  focusedId: string | null;
  onFocus: (id: string) => void;
  /** What goes with a comment (the annotator's answers of the focused one). */
  renderBelow?: (comment: PullRequestComment, focused: boolean) => ReactNode;
  /** Added to the toolbar (counts, the blinding note). */
  toolbar?: ReactNode;
  /** Asked for a file's diff and contents when its section opens without them (`source` null). */
  onNeedSource?: (codeChangeId: string) => void;
}) {
  const { byFile, order, counts } = useCommentOrder(files, comments);
  const fileIndex = useMemo(() => new Map(files.map((f, i) => [f.codeChangeId, i])), [files]);
  const focused = focusedId === null ? null : (order.find((c) => c.id === focusedId) ?? null);
  const focusedFile = focused ? (fileIndex.get(focused.codeChangeId) ?? null) : null;

  // Files near the screen are open (rendered), and stay open; at first those of the first files
  // that came with the page. A file clicked in the tree or holding the focused comment opens at
  // once; one coming near the screen, or holding the comment j or k would go to, when the browser
  // is idle: after the frame of the key press, not in it.
  const [opened, setOpened] = useState<ReadonlySet<number>>(() => new Set(files.slice(0, FIRST_FILES).flatMap((f, i) => (f.binary || f.source !== null ? [i] : []))));
  const openAll = useCallback((indices: readonly number[]) => setOpened((was) => (indices.every((i) => was.has(i)) ? was : new Set([...was, ...indices]))), [setOpened]);
  const open = useCallback((index: number) => openAll([index]), [openAll]);
  const soon = useRef({ indices: new Set<number>(), cancel: null as (() => void) | null });
  const openWhenIdle = useCallback(
    (indices: readonly number[]) => {
      const waiting = soon.current;
      for (const i of indices) waiting.indices.add(i);
      if (waiting.cancel || waiting.indices.size === 0) return;
      waiting.cancel = whenIdle(() => {
        waiting.cancel = null;
        openAll([...waiting.indices]);
        waiting.indices.clear();
      }, AHEAD_IDLE_MS);
    },
    [openAll],
  );
  useEffect(() => {
    const waiting = soon.current;
    return () => waiting.cancel?.();
  }, []);
  const sections = useRef(new Map<number, HTMLElement>());
  const observer = useRef<IntersectionObserver | null>(null);
  useEffect(() => {
    const io = new IntersectionObserver((entries) => openWhenIdle(entries.filter((e) => e.isIntersecting).map((e) => Number((e.target as HTMLElement).dataset.index))), { rootMargin: `${AHEAD_PX}px 0px` });
    observer.current = io;
    for (const el of sections.current.values()) io.observe(el);
    return () => io.disconnect();
  }, [openWhenIdle]);
  const sectionRef = useCallback((index: number, el: HTMLElement | null) => {
    const old = sections.current.get(index);
    if (old && old !== el) observer.current?.unobserve(old);
    if (el) {
      sections.current.set(index, el);
      observer.current?.observe(el);
    } else sections.current.delete(index);
  }, []);

  // The focused comment: its file opened, then focused (visibly), scrolled to when off screen, and announced.
  // (Opened while rendering, as React allows for state that follows a prop: no extra commit.)
  if (focusedFile !== null && !opened.has(focusedFile)) setOpened(new Set([...opened, focusedFile]));
  // A file whose diff is still loading shows its comments once it has come: focused then.
  const focusedShown = focusedFile !== null && (files[focusedFile].binary || files[focusedFile].source !== null);
  useEffect(() => {
    if (!focused || !focusedShown) return;
    const el = document.getElementById(commentElementId(focused.id));
    if (!el) return;
    if (document.activeElement !== el && !el.contains(document.activeElement)) el.focus({ preventScroll: true });
    const box = el.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) el.scrollIntoView({ block: "center" });
    performance.mark("pr-comment-focused");
  }, [focused, focusedShown]);
  const focusedIndex = focused ? order.indexOf(focused) : -1;
  // The files of the comments around the focused one are loaded ahead, and those of the next and
  // previous comments rendered, so j and k land on a shown diff.
  useEffect(() => {
    if (!onNeedSource) return;
    for (const c of order.slice(Math.max(0, focusedIndex - 1), focusedIndex + 3)) onNeedSource(c.codeChangeId);
  }, [focusedIndex, order, onNeedSource]);
  useEffect(() => {
    if (focusedIndex < 0) return;
    openWhenIdle([order[focusedIndex - 1], order[focusedIndex + 1]].flatMap((c) => (c ? [fileIndex.get(c.codeChangeId) ?? -1] : [])).filter((i) => i >= 0));
  }, [focusedIndex, order, fileIndex, openWhenIdle]);
  const announcement = focused ? `Comment ${focusedIndex + 1} of ${order.length}: ${focused.reviewer} on ${focused.path}, ${anchorText(focused)}.` : "";

  const placeholder = useCallback((file: PullRequestFile) => (file.diffLines + 1) * ROW_PX + (byFile.get(file.codeChangeId)?.length ?? 0) * THREAD_PX, [byFile]);

  return (
    <div className="dv grid gap-3 lg:grid-cols-[16rem_minmax(0,1fr)]" data-testid="pull-request-view">
      <style>{DIFF_CSS}</style>
      <aside className="font-sans lg:sticky lg:top-[calc(var(--pr-sticky-top,0px)+0.5rem)] lg:max-h-[calc(100vh-1rem-var(--pr-sticky-top,0px))] lg:self-start lg:overflow-auto">
        <FileTree files={files} counts={counts} current={focusedFile} onOpen={open} />
      </aside>
      <div className="min-w-0 space-y-2">
        <header className="rounded border border-slate-200 bg-white p-2 font-sans text-sm">
          <h2 className="font-semibold">
            {pullRequest.title || pullRequest.externalId}
            <span className="ml-2 font-normal text-slate-500">
              {pullRequest.repository && `${pullRequest.repository} · `}
              {pullRequest.url ? (
                <a href={pullRequest.url} className="text-blue-700 underline" target="_blank" rel="noreferrer">
                  {pullRequest.externalId}
                </a>
              ) : (
                pullRequest.externalId
              )}
              {pullRequest.baseSha && pullRequest.headSha && <span className="ml-2 font-mono text-xs">{`${pullRequest.baseSha.slice(0, 7)}…${pullRequest.headSha.slice(0, 7)}`}</span>}
            </span>
          </h2>
          {pullRequest.description && (
            <details className="text-slate-700">
              <summary className="cursor-pointer text-xs text-slate-500">Description</summary>
              <Markdown source={pullRequest.description} />
            </details>
          )}
        </header>
        <section className="rounded border border-slate-200 bg-white" aria-label="Changed files">
          <div className="sticky top-[var(--pr-sticky-top,0px)] z-20 flex items-center gap-2 border-b border-slate-200 bg-white px-2 py-1 font-sans text-xs text-slate-600">
            <span data-testid="pr-counts">
              {files.length} file{files.length === 1 ? "" : "s"} · {comments.length} comment{comments.length === 1 ? "" : "s"}
              {focused && ` · comment ${focusedIndex + 1} of ${order.length}`}
            </span>
            {toolbar}
            <span className="ml-auto" role="group" aria-label="Diff layout">
              {(["unified", "split"] as const).map((m) => (
                <button key={m} type="button" aria-pressed={mode === m} onClick={() => onModeChange(m)} className={`rounded px-2 py-0.5 ${mode === m ? "bg-slate-800 text-white" : "hover:bg-slate-100"}`}>
                  {m}
                </button>
              ))}
            </span>
          </div>
          {files.map((file, i) => (
            <FileSection
              key={file.codeChangeId}
              file={file}
              index={i}
              open={opened.has(i)}
              placeholderPx={placeholder(file)}
              mode={mode}
              threads={byFile.get(file.codeChangeId) ?? EMPTY}
              commentCount={counts.get(file.codeChangeId) ?? 0}
              focusedId={focusedFile === i ? focusedId : null}
              onFocus={onFocus}
              renderBelow={renderBelow}
              sectionRef={sectionRef}
              onNeedSource={onNeedSource}
            />
          ))}
        </section>
      </div>
      <p className="sr-only" aria-live="polite" data-testid="comment-announcement">
        {announcement}
      </p>
    </div>
  );
}
