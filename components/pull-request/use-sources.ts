"use client";

/**
 * A pull request's files with their diffs loaded as they are needed: the page brings the first
 * files' (FIRST_FILES), and a file's section asks for its own when it comes near the screen
 * (`request`), so a pull request of fifty files opens as fast as one of two. A failed load is
 * tried again after a pause (the section says it is loading meanwhile).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { DiffSource } from "@/lib/diff";
import type { PullRequestFile, PullRequestFileHead } from "@/lib/review-comments/display";

const RETRY_MS = 3000;

/** A file's diff and contents from the server (the annotator's assignment route, or the lead's code-change route). */
export async function fetchSource(url: string): Promise<DiffSource> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the file's diff could not be loaded (${response.status})`);
  return (await response.json()) as DiffSource;
}

export function useLazySources(heads: readonly PullRequestFileHead[], initial: readonly DiffSource[], load: ((codeChangeId: string) => Promise<DiffSource>) | null) {
  const [sources, setSources] = useState<ReadonlyMap<string, DiffSource>>(() => new Map(initial.map((s) => [s.key, s])));
  const asked = useRef(new Set<string>());
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  const request = useCallback(
    (codeChangeId: string) => {
      if (!load || asked.current.has(codeChangeId)) return;
      asked.current.add(codeChangeId);
      const attempt = () =>
        load(codeChangeId).then(
          (source) => setSources((was) => new Map(was).set(codeChangeId, source)),
          () => {
            const timer = setTimeout(() => {
              timers.current.delete(timer);
              attempt();
            }, RETRY_MS);
            timers.current.add(timer);
          },
        );
      void attempt();
    },
    [load],
  );

  // One object per file and source, so a file's section re-renders only when its own diff arrives.
  const [made] = useState(() => new Map<string, PullRequestFile>());
  const files = useMemo(
    () =>
      heads.map((head) => {
        const source = head.binary ? null : (sources.get(head.codeChangeId) ?? null);
        const was = made.get(head.codeChangeId);
        if (was && was.source === source) return was;
        const file = { ...head, source };
        made.set(head.codeChangeId, file);
        return file;
      }),
    [heads, sources, made],
  );
  return { files, request };
}
