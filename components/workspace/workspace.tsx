"use client";

/**
 * The annotation workspace: the code change on the left, the task on the right, keyboard
 * first (lib/annotation/keymap), autosaved (./autosave), with the guidelines one key away.
 */
import dynamic from "next/dynamic";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { DiffMode } from "@/components/diff-view";
import { fetchSource } from "@/components/pull-request/use-sources";
import { isTextField, resolveKey, type KeyPrefix, type ShortcutAction } from "@/lib/annotation/keymap";
import { ANNOTATION_KINDS } from "@/lib/annotation/values";
import type { StoredAnswers, WorkspaceData } from "@/lib/data/annotations";
import { useWorkspacePreference } from "./preferences";
import { ActiveClock, TimeOnTask, useActiveTime } from "./active-time";
import type { MissingAnswer } from "@/lib/annotation/completeness";
import type { StoredEntry } from "@/lib/tasks/types";
import { AutosaveStore, type Entry } from "./autosave";
import { ConflictList } from "./conflicts";
import { CodeChangeColumns } from "./code-change-columns";
import { Modal } from "./modal";
import { SaveStatus } from "./save-status";
import type { TaskHandle } from "./types";

/** The shortcuts dialog (every task's shortcuts, from the descriptors) loads when it opens. */
const ShortcutsOverlay = dynamic(() => import("./overlay").then((m) => m.ShortcutsOverlay));

/** localStorage, or null on the server and where the browser refuses it (then retries stay in memory). */
function browserStorage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** A text box's draft outside the answers (the reason for skipping), kept in this browser per account, assignment and box. */
const textDraftKey = (accountId: string, assignmentId: string, box: string) => `crjudge:text:${accountId}:${assignmentId}:${box}`;

function readTextDraft(key: string): string {
  try {
    return browserStorage()?.getItem(key) ?? "";
  } catch {
    return "";
  }
}

function writeTextDraft(key: string, text: string): void {
  try {
    if (text) browserStorage()?.setItem(key, text);
    else browserStorage()?.removeItem(key);
  } catch {
    // storage refused: the text stays in the page only
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The channel on which an account's tabs tell each other what the server stored. */
const storedChannel = (accountId: string) => (typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(`crjudge:stored:${accountId}`));

function createStore(data: WorkspaceData, accountId: string, channel: BroadcastChannel | null): AutosaveStore {
  const store = new AutosaveStore({
    assignmentId: data.assignment.id,
    storageKey: `crjudge:drafts:${accountId}:${data.assignment.id}`,
    storage: browserStorage(),
    // zod and the schemas are a chunk of their own, loaded after the page (the server checks every save too).
    schemas: () => import("@/lib/annotation/value-schemas").then((m) => m.VALUE_SCHEMAS),
    fetch: (input, init) => fetch(input, init),
    onStored: (stored) => {
      try {
        channel?.postMessage({ assignmentId: data.assignment.id, stored });
      } catch {
        // the page was left (channel closed) while a save finished: no tab of it to tell
      }
    },
  });
  for (const { kind, targetId, server } of data.stored) store.register(kind, targetId, server.version === 0 ? null : server);
  return store;
}

/** Assignments whose workspace this document has shown: showing one again may be an older copy (Back, forward). */
const shownHere = new Set<string>();

/**
 * Keeps the page on what the server stores: when the page may be an older copy (shown again by
 * Back or forward, restored from the back-forward cache, or back in view after another tab
 * worked on the item) it reads the stored answers and reconciles; another tab's saves arrive
 * on the account's channel.
 */
function useStoredState(store: AutosaveStore, assignmentId: string, channel: BroadcastChannel | null, onStatus: (status: WorkspaceData["assignment"]["status"], timeSpentMs: number) => void) {
  const onStatusRef = useRef(onStatus);
  useEffect(() => {
    onStatusRef.current = onStatus;
  });
  useEffect(() => {
    let live = true;
    const reconcile = async () => {
      try {
        const response = await fetch(`/api/annotations/assignments/${assignmentId}?part=answers`, { cache: "no-store" });
        if (!response.ok || !live) return;
        const stored = (await response.json()) as StoredAnswers;
        store.reconcile(stored.stored);
        onStatusRef.current(stored.status, stored.timeSpentMs);
      } catch {
        // offline: the page keeps what it has; the next chance (visible again, online) retries
      }
    };
    if (shownHere.has(assignmentId)) void reconcile();
    shownHere.add(assignmentId);
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) void reconcile();
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") void reconcile();
    };
    const onMessage = (e: MessageEvent<{ assignmentId: string; stored: StoredEntry }>) => {
      if (e.data.assignmentId === assignmentId) store.reconcile([e.data.stored]);
    };
    window.addEventListener("pageshow", onShow);
    document.addEventListener("visibilitychange", onVisible);
    channel?.addEventListener("message", onMessage);
    return () => {
      live = false;
      window.removeEventListener("pageshow", onShow);
      document.removeEventListener("visibilitychange", onVisible);
      channel?.removeEventListener("message", onMessage);
    };
  }, [store, assignmentId, channel]);
}

const INTERACTIVE = new Set(["BUTTON", "A", "INPUT", "SELECT", "SUMMARY", "TEXTAREA"]);

/** `taskLabel`: the task's name (its descriptor's label, read by the page: the workspace loads no descriptor). */
export function Workspace({ data, accountId, taskLabel }: { data: WorkspaceData; accountId: string; taskLabel: string }) {
  const router = useRouter();
  const [channel] = useState(() => storedChannel(accountId));
  const [store] = useState(() => createStore(data, accountId, channel));
  useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const [mode, setMode] = useState<DiffMode>("unified");
  const [help, setHelp] = useState(false);
  const [skipOpen, setSkipOpen] = useState(false);
  const [skipReason, setSkipReason] = useState("");
  const [flash, setFlash] = useState<{ ok: boolean; text: string } | null>(null);
  const [status, setStatus] = useState(data.assignment.status);
  const [busy, setBusy] = useState(false);
  const [prefix, setPrefix] = useState<KeyPrefix>("");
  const prefixRef = useRef<KeyPrefix>("");
  const taskHandle = useRef<TaskHandle | null>(null);
  const target = useRef<string | null>(null);
  const id = data.assignment.id;
  const skipDraft = textDraftKey(accountId, data.assignment.id, "skip-reason");
  const skipped = status === "SKIPPED";
  const editable = !skipped && !data.blockedBy;

  // Drafts kept in this browser are applied once hydrated. Keys pressed before would be lost:
  // tests and users can see when the page listens (ready). The task opens on the first
  // unanswered question of what the server stores, and again on the drafts' when one applied.
  const drafted = store.draftsRestored();
  const ready = drafted !== null;
  useEffect(() => {
    store.restoreDrafts();
    const online = () => store.retryNow();
    window.addEventListener("online", online);
    performance.mark("workspace-interactive");
    return () => window.removeEventListener("online", online);
  }, [store]);
  const [keyboard, setKeyboard] = useWorkspacePreference(accountId);
  // The guidelines column: its open state is the annotator's pin, so it stays open from item to item.
  const guidelines = keyboard.codebookPinned;
  const setGuidelines = (open: boolean | ((was: boolean) => boolean)) => setKeyboard({ ...keyboard, codebookPinned: typeof open === "function" ? open(guidelines) : open });
  const [clock] = useState(() => new ActiveClock(data.assignment.timeSpentMs));
  useActiveTime(id, clock, target, editable);
  useStoredState(store, id, channel, (stored, timeSpentMs) => {
    setStatus(stored);
    clock.catchUp(timeSpentMs);
  });
  useEffect(() => () => channel?.close(), [channel]);

  const goTo = useCallback(
    async (assignmentId: string | null) => {
      await store.flush();
      router.push(assignmentId ? `/annotate/${assignmentId}` : "/annotate");
    },
    [router, store],
  );

  // Leaving an item that is not submitted asks once: n (or Next) again leaves it as it is.
  const leaveWarned = useRef(false);
  const next = () => {
    if (editable && status !== "DONE" && !leaveWarned.current) {
      leaveWarned.current = true;
      setFlash({ ok: false, text: "This item is not submitted yet. Press n again to leave it unsubmitted (your answers are saved), or Ctrl+Enter to submit." });
      return;
    }
    void goTo(data.queue.nextId);
  };

  const post = async (path: string, body?: unknown): Promise<{ ok: boolean; body: { error?: string; status?: string; missing?: MissingAnswer[] } }> => {
    try {
      const response = await fetch(`/api/annotations/assignments/${id}/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body ?? {}) });
      return { ok: response.ok, body: await response.json().catch(() => ({})) };
    } catch {
      return { ok: false, body: { error: "No connection to the server. Try again." } };
    }
  };

  const submit = async () => {
    if (busy || !editable) return;
    setBusy(true);
    try {
      // Saves in flight are waited for, not reported as unsaved.
      await store.flush();
      const { changes, drafts } = store.unsaved();
      if (changes.length > 0) {
        setFlash({ ok: false, text: `Not submitted: ${plural(changes.length, "change")} could not be saved yet (${changes.map(labelOf).join(", ")}); see the save status. Your answers are kept.` });
        return;
      }
      if (drafts.some((e) => e.kind === "addedClaim")) {
        setFlash({ ok: false, text: "Not submitted: one of your added claims is empty. Write it or remove it." });
        return;
      }
      const result = await post("submit");
      if (!result.ok) {
        // Named by review and dimension; the cursor goes to the first.
        const first = result.body.missing?.[0];
        if (first) taskHandle.current?.show(first);
        setFlash({ ok: false, text: result.body.error ?? "Not submitted." });
        return;
      }
      setStatus("DONE");
      setFlash({ ok: true, text: "Submitted." });
      router.push(data.queue.nextOpenId && data.queue.nextOpenId !== id ? `/annotate/${data.queue.nextOpenId}` : "/annotate");
      router.refresh();
    } finally {
      setBusy(false);
    }
  };

  const confirmSkip = async () => {
    const reason = skipReason.trim();
    if (reason.length < 3) {
      setFlash({ ok: false, text: "Give a reason for skipping (at least 3 characters)." });
      return;
    }
    const result = await post("skip", { reason });
    if (!result.ok) {
      setFlash({ ok: false, text: result.body.error ?? "Not skipped." });
      return;
    }
    setSkipOpen(false);
    writeTextDraft(skipDraft, "");
    setStatus("SKIPPED");
    setFlash({ ok: true, text: "Skipped." });
    router.push(data.queue.nextOpenId && data.queue.nextOpenId !== id ? `/annotate/${data.queue.nextOpenId}` : "/annotate");
  };

  const resume = async () => {
    const result = await post("resume");
    if (result.ok) {
      setStatus("IN_PROGRESS");
      router.refresh();
    } else setFlash({ ok: false, text: result.body.error ?? "Could not resume." });
  };

  const openSkip = () => {
    setSkipReason(readTextDraft(skipDraft));
    setSkipOpen(true);
  };

  const dispatch = (action: ShortcutAction): boolean => {
    switch (action.type) {
      case "submit":
        void submit();
        return true;
      case "leave-field":
        (document.activeElement as HTMLElement | null)?.blur();
        return true;
      case "escape":
        if (help || skipOpen || guidelines) {
          setHelp(false);
          setSkipOpen(false);
          setGuidelines(false);
          return true;
        }
        return false;
      case "help":
        setHelp((h) => !h);
        return true;
      case "guidelines":
        setGuidelines((g) => !g);
        return true;
      case "next-item":
        next();
        return true;
      case "skip":
        if (!editable) return false;
        openSkip();
        return true;
      case "toggle-diff-mode":
        setMode((m) => (m === "unified" ? "split" : "unified"));
        return true;
      default:
        if (help || !editable) return false;
        return taskHandle.current?.onAction(action) ?? false;
    }
  };
  const dispatchRef = useRef(dispatch);
  useEffect(() => {
    dispatchRef.current = dispatch;
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const el = e.target as HTMLElement | null;
      // Space and Enter on a focused control keep their native meaning (press, tick).
      if ((e.key === " " || (e.key === "Enter" && !e.ctrlKey && !e.metaKey)) && el && INTERACTIVE.has(el.tagName)) return;
      const result = resolveKey({ key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, inTextField: isTextField(el as HTMLInputElement | null) }, prefixRef.current);
      const armed = result.prefix !== prefixRef.current || result.prefix !== "";
      prefixRef.current = result.prefix;
      setPrefix(result.prefix);
      if (result.action) {
        if (dispatchRef.current(result.action)) e.preventDefault();
      } else if (armed && result.prefix) e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const overall = store.overall();
  const errorDetail = ANNOTATION_KINDS.flatMap((kind) => store.list(kind)).find((e) => e.status === "error")?.message;
  function labelOf(entry: Entry): string {
    if (entry.kind === "judgement") return `Claim ${(data.claimVerification?.references.findIndex((r) => r.id === entry.targetId) ?? -1) + 1}`;
    if (entry.kind === "addedClaim") return "Your added claim";
    if (entry.kind === "necessity") return `Necessity of pseudo-reference ${(data.reviewRating?.references.findIndex((r) => r.id === entry.targetId) ?? -1) + 1}`;
    if (entry.kind === "commentAnswers") {
      const at = pr?.comments.findIndex((c) => c.id === entry.targetId) ?? -1;
      const c = pr?.comments[at];
      return c ? `Comment ${at + 1} (${c.path}${c.line === null ? "" : `:${c.line}`})` : "This comment";
    }
    const reviews = data.reviewRating?.reviews ?? data.referenceGrading?.reviews ?? data.commentFiltering?.reviews ?? [];
    return reviews.find((r) => r.id === entry.targetId)?.label ?? "This annotation";
  }
  const unsaved = store.unsaved();
  const pr = data.commentQuestions;
  const loadSource = useCallback((codeChangeId: string) => fetchSource(`/api/annotations/assignments/${encodeURIComponent(id)}?part=file&file=${encodeURIComponent(codeChangeId)}`), [id]);
  const taskProps = { data, store, handle: taskHandle, onTarget: (key: string | null) => (target.current = key), digitsMoveOn: keyboard.digitsMoveOn };
  // A pull request is a long page: its header (Submit, the save status) stays on screen, and the
  // view's own sticky rows sit below it (--pr-sticky-top, components/pull-request).
  const isPullRequest = pr !== undefined;
  const pageRef = useRef<HTMLDivElement | null>(null);
  const headerRef = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const page = pageRef.current;
    const header = headerRef.current;
    if (!isPullRequest || !page || !header) return;
    const observer = new ResizeObserver(() => page.style.setProperty("--pr-sticky-top", `${header.offsetHeight}px`));
    observer.observe(header);
    return () => observer.disconnect();
  }, [isPullRequest]);

  return (
    <div ref={pageRef} className="relative left-1/2 w-[calc(100vw-2rem)] -translate-x-1/2 space-y-2" data-testid="workspace" data-ready={ready}>
      <div ref={headerRef} className={`flex flex-wrap items-center gap-x-4 gap-y-1 ${pr ? "sticky top-0 z-30 bg-slate-50 py-1" : ""}`} data-testid="workspace-header">
        <Link href="/annotate" className="text-sm text-blue-700 hover:underline">
          ← My assignments
        </Link>
        <h1 className="text-lg font-semibold">
          {taskLabel} · <span className="font-mono">{pr ? `pull request ${pr.pullRequest.externalId}` : data.item.filePath || data.item.externalId}</span>
        </h1>
        <span className="text-sm text-slate-600" data-testid="queue-position">
          item {data.queue.index + 1} of {data.queue.total} · {data.queue.done} done ·{" "}
          {data.queue.waiting > 0 && (
            <span title="Items waiting for a calibration round, a consolidation or your stage 1: n skips them, My assignments says what each waits for">{data.queue.waiting} waiting · </span>
          )}
          <TimeOnTask clock={clock} />
        </span>
        {data.assignment.inReliabilitySet && <span className="rounded bg-violet-100 px-1 text-xs text-violet-800">reliability set</span>}
        {status === "DONE" && <span className="rounded bg-emerald-100 px-1 text-xs text-emerald-800">submitted</span>}
        <SaveStatus status={overall} changes={unsaved.changes.length} drafts={unsaved.drafts.map((e) => `${labelOf(e)}: ${e.message ?? "incomplete"}`)} retry={store.retrying()} detail={errorDetail} onRetry={() => store.retryNow()} onDiscard={() => store.discardRefused()} />
        {prefix && <span className="rounded bg-slate-800 px-1 font-mono text-xs text-white">{prefix}…</span>}
        <span className="ml-auto flex gap-1 text-sm">
          <button type="button" onClick={() => setGuidelines((g) => !g)} className="rounded border border-slate-500 px-2 py-0.5 hover:bg-slate-50" aria-expanded={guidelines}>
            Guidelines <kbd>g</kbd>
          </button>
          <button type="button" onClick={() => setHelp(true)} className="rounded border border-slate-500 px-2 py-0.5 hover:bg-slate-50">
            Shortcuts <kbd>?</kbd>
          </button>
          {editable && (
            <button type="button" onClick={openSkip} className="rounded border border-slate-500 px-2 py-0.5 hover:bg-slate-50">
              Skip <kbd>s</kbd>
            </button>
          )}
          {data.queue.nextId && (
            <button type="button" onClick={next} className="rounded border border-slate-500 px-2 py-0.5 hover:bg-slate-50">
              Next <kbd>n</kbd>
            </button>
          )}
          {editable && (
            <button type="button" onClick={() => void submit()} disabled={busy} className="rounded bg-slate-900 px-2 py-0.5 text-white disabled:opacity-50">
              Submit <kbd className="text-slate-300">Ctrl+Enter</kbd>
            </button>
          )}
        </span>
      </div>

      {flash && (
        <p role={flash.ok ? "status" : "alert"} data-testid="flash" className={`rounded px-2 py-1 text-sm ${flash.ok ? "bg-emerald-50 text-emerald-800" : "bg-red-50 text-red-800"}`}>
          {flash.text}
        </p>
      )}
      {skipped && (
        <p role="status" className="rounded bg-amber-50 px-2 py-1 text-sm text-amber-900">
          You skipped this item{data.assignment.skipReason ? `: “${data.assignment.skipReason}”` : ""}.{" "}
          <button type="button" onClick={() => void resume()} className="underline">
            Resume it
          </button>
        </p>
      )}
      {data.imported && (
        <p role="note" data-testid="imported-marker" className="rounded bg-sky-50 px-2 py-1 text-sm text-sky-900">
          Answers here were imported from {data.imported.file} by {data.imported.by} on {data.imported.at.slice(0, 10)}, not saved by you in this workspace.
        </p>
      )}
      {data.blockedBy && (
        <p role="status" className="rounded bg-amber-50 px-2 py-1 text-sm text-amber-900">
          {data.blockedBy.message}{" "}
          {data.blockedBy.assignmentId && (
            <Link href={`/annotate/${data.blockedBy.assignmentId}`} className="underline">
              Go to claim verification
            </Link>
          )}
        </p>
      )}

      <CodeChangeColumns
        {...taskProps}
        taskKey={drafted ? "drafts" : "stored"}
        task={data.assignment.task}
        mode={mode}
        onModeChange={setMode}
        guidelines={guidelines}
        onCloseGuidelines={() => setGuidelines(false)}
        showTask={editable}
        answersHeading="Your answers"
        beforeTask={<ConflictList store={store} labelOf={labelOf} />}
        pullRequest={pr ? { loadSource, ready, placeKey: `crjudge:place:${accountId}:${id}` } : undefined}
      />

      {help && <ShortcutsOverlay task={data.assignment.task} preference={keyboard} onPreference={setKeyboard} onClose={() => setHelp(false)} />}
      {skipOpen && (
        <Modal title="Skip this item" onClose={() => setSkipOpen(false)} testId="skip-dialog">
          <label className="block text-sm">
            Why are you skipping it? Enter confirms, Esc cancels.
            <textarea
              autoFocus
              aria-label="Reason for skipping"
              value={skipReason}
              onChange={(e) => {
                setSkipReason(e.target.value);
                writeTextDraft(skipDraft, e.target.value);
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey) {
                  e.preventDefault();
                  void confirmSkip();
                } else if (e.key === "Escape") {
                  e.preventDefault();
                  setSkipOpen(false);
                }
              }}
              className="mt-1 w-full rounded border border-slate-500 px-2 py-1"
              rows={2}
            />
          </label>
          <button type="button" onClick={() => void confirmSkip()} className="mt-2 rounded bg-slate-900 px-3 py-1 text-sm text-white">
            Skip
          </button>
        </Modal>
      )}
    </div>
  );
}
