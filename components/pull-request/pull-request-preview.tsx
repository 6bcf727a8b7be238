"use client";

/**
 * A lead's view of a pull request with its review comments in place, as annotators walk it:
 * j/k (or the arrows) go from comment to comment across files, v switches unified and split,
 * ? lists the keys. Nothing here is saved.
 */
import Link from "next/link";
import { useCallback, useEffect, useRef, useState } from "react";
import type { DiffMode } from "@/components/diff-view";
import { Modal } from "@/components/workspace/modal";
import { isTextField, PULL_REQUEST_SHORTCUTS, resolveKey, type ShortcutAction } from "@/lib/annotation/keymap";
import type { DiffSource } from "@/lib/diff";
import type { PullRequestComment, PullRequestFileHead, PullRequestHead } from "@/lib/review-comments/display";
import { PullRequestView, stepComment } from "./pull-request-view";
import { fetchSource, useLazySources } from "./use-sources";

/** The keys of this view, as the workspace's ? list words them. */
const VIEW_KEYS = new Set(["next-sub", "prev-sub", "toggle-diff-mode", "help"]);

/** `comments` come in reading order; `sources` are the first files' diffs, the others are loaded as they near the screen. */
export function PullRequestPreview({ slug, pullRequest, files: heads, sources, comments }: { slug: string; pullRequest: PullRequestHead; files: PullRequestFileHead[]; sources: DiffSource[]; comments: PullRequestComment[] }) {
  const [mode, setMode] = useState<DiffMode>("unified");
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const load = useCallback((codeChangeId: string) => fetchSource(`/api/studies/${encodeURIComponent(slug)}/code-changes/${encodeURIComponent(codeChangeId)}`), [slug]);
  const { files, request } = useLazySources(heads, sources, load);
  const order = comments;
  const dispatch = (action: ShortcutAction): boolean => {
    if (!VIEW_KEYS.has(action.type)) return false;
    if (action.type === "help") setHelp((h) => !h);
    else if (action.type === "toggle-diff-mode") setMode((m) => (m === "unified" ? "split" : "unified"));
    else {
      const next = stepComment(order, focusedId, action.type === "next-sub" ? 1 : -1);
      if (next !== null) setFocusedId(next);
    }
    return true;
  };
  const dispatchRef = useRef(dispatch);
  useEffect(() => {
    dispatchRef.current = dispatch;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      if (e.key === "Escape") return setHelp(false);
      const { action } = resolveKey({ key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, inTextField: isTextField(e.target as HTMLInputElement | null) });
      if (action && dispatchRef.current(action)) e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    performance.mark("pull-request-interactive");
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <div className="relative left-1/2 w-[calc(100vw-2rem)] -translate-x-1/2 space-y-2" data-testid="pull-request-preview">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <Link href={`/studies/${encodeURIComponent(slug)}`} className="text-sm text-blue-700 hover:underline">
          ← Study
        </Link>
        <h1 className="text-lg font-semibold">Pull request · {pullRequest.externalId}</h1>
        <span className="ml-auto flex gap-1 text-sm">
          <button type="button" onClick={() => setHelp(true)} className="rounded border border-slate-500 px-2 py-0.5 hover:bg-slate-50">
            Shortcuts <kbd>?</kbd>
          </button>
        </span>
      </div>
      <PullRequestView pullRequest={pullRequest} files={files} comments={comments} mode={mode} onModeChange={setMode} focusedId={focusedId} onFocus={setFocusedId} onNeedSource={request} />
      {help && (
        <Modal title="Keyboard shortcuts" onClose={() => setHelp(false)} testId="shortcuts">
          <ul className="text-sm">
            {PULL_REQUEST_SHORTCUTS.map((s) => (
              <li key={s.description} className="border-t border-slate-100 py-1">
                {s.keys.map((k) => (
                  <kbd key={k} className="mr-1 rounded border border-slate-300 bg-slate-50 px-1 font-mono text-xs">
                    {k}
                  </kbd>
                ))}
                {s.description}
              </li>
            ))}
          </ul>
        </Modal>
      )}
    </div>
  );
}
