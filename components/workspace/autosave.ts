/**
 * Autosave for the annotation workspace: no annotator's work is lost.
 * - Every change is kept at once in localStorage (a draft with the version it was based on),
 *   then saved after a short debounce; the draft is removed only once the server stored it.
 * - A failed request (network down, server busy or failing) is retried with jittered exponential
 *   backoff, never sooner than the server's Retry-After (a busy server answers 503), and on
 *   "retry now"; the page shows why and when (`retrying()`). After a reload the drafts are
 *   applied again and saved.
 * - Each save sends the version it was based on. A 409 keeps the local value and shows both
 *   values; the annotator keeps theirs (saved over the new version) or takes the server's.
 * - A draft whose base version is no longer the stored one, found after a reload, is a conflict
 *   too (unless the server already has that value).
 * - A value that cannot be saved yet (a comment before its grade, an emptied claim) stays a
 *   draft in the browser, and the status counts it as such ("1 unsaved draft").
 * - `flush` (before leaving or submitting) waits for saves already in flight too.
 * - Values are checked against their kind's schema before they are sent. The workspace loads the
 *   schemas (zod) after its first page: until they arrive a change waits as pending, and is
 *   checked when they do (at the latest before it is sent).
 * Framework-free so it can be unit-tested with a fake fetch and storage.
 */
import { backoffDelay, parseRetryAfter } from "@/lib/http/retry";
import type { ServerState, StoredEntry } from "@/lib/tasks/types";
import type { ZodType } from "zod";
import { entryKey, sameValue, type SaveKind } from "@/lib/annotation/values";

export type EntryStatus = "idle" | "pending" | "saving" | "saved" | "failed" | "conflict" | "error" | "invalid";

export interface Entry {
  key: string;
  kind: SaveKind;
  targetId: string;
  server: ServerState;
  /** The annotator's value not yet stored; undefined when there is none. */
  local: unknown;
  status: EntryStatus;
  message?: string;
  conflict?: { current: ServerState | null; attempted: unknown; message: string };
  inFlight: boolean;
}

/** "draft": nothing is waiting to be sent, but some values cannot be saved yet (kept in the browser). */
export type OverallStatus = "idle" | "pending" | "saving" | "saved" | "failed" | "conflict" | "error" | "draft";

/** A scheduled retry: when, and why the last attempt failed (busy: the server answered 503). */
export interface RetryState {
  at: number;
  reason: "busy" | "offline" | "failing";
}

interface Draft {
  kind: SaveKind;
  targetId: string;
  baseVersion: number;
  value: unknown;
  /** An added claim created in the page (known by its client key) and stored since: its id, which the page after a reload knows it by. */
  serverId?: string;
}

/** Drafts stored in browsers under the save kinds' earlier names still load (docs/glossary.md, "annotation"). */
const RENAMED_KINDS: Readonly<Record<string, SaveKind>> = { claim: "judgement", added: "addedClaim", filter: "label" };

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Each kind's value schema (lib/annotation/value-schemas: VALUE_SCHEMAS). */
export type ValueSchemas = Readonly<Record<SaveKind, ZodType>>;

export interface AutosaveOptions {
  assignmentId: string;
  /** The value schemas, or how to load them (a failed load is tried again before the next save; meanwhile the server checks). */
  schemas: ValueSchemas | (() => Promise<ValueSchemas>);
  storageKey: string;
  storage: StorageLike | null;
  fetch: typeof fetch;
  endpoint?: string;
  debounceMs?: number;
  /** First retry delay after a failure, doubled on each further one and jittered to [½, 1] of it. */
  backoffMs?: number;
  maxBackoffMs?: number;
  random?: () => number;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** Told of every value the server stored from this page (other tabs reconcile with it). */
  onStored?: (stored: StoredEntry) => void;
}


/** Why a value is kept as a draft instead of saved, in the annotator's words (else the schema's reason). */
const DRAFT_REASON: Partial<Record<SaveKind, { field: string; reason: string }>> = {
  grade: { field: "grade", reason: "kept in this browser until the review has a grade" },
  label: { field: "highQuality", reason: "kept in this browser until the comment has a label (1 or 0)" },
};

const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

/** The answers a workspace shows, one entry per claim or review: what the task panels read. */
export class AnswerEntries {
  protected entries = new Map<string, Entry>();

  /** Registers what the server has (from the page data); call before `restoreDrafts`. */
  register(kind: SaveKind, targetId: string, server: ServerState | null): void {
    const key = entryKey(kind, targetId);
    if (this.entries.has(key)) return;
    this.entries.set(key, { key, kind, targetId, server: server ?? { id: null, version: 0, value: null }, local: undefined, status: "idle", inFlight: false });
  }

  entry(kind: SaveKind, targetId: string): Entry | undefined {
    return this.entries.get(entryKey(kind, targetId));
  }

  /** The value to show: the annotator's unsaved value, else the stored one (null when none). */
  value<V>(kind: SaveKind, targetId: string): V | null {
    const e = this.entry(kind, targetId);
    if (!e) return null;
    return (e.local !== undefined ? e.local : e.server.value) as V | null;
  }

  /** Entries of one kind (e.g. the added claims, including ones created in this session). */
  list(kind: SaveKind): Entry[] {
    return [...this.entries.values()].filter((e) => e.kind === kind);
  }
}

export class AutosaveStore extends AnswerEntries {
  private listeners = new Set<() => void>();
  private debounce: unknown = null;
  private retry: unknown = null;
  private retryState: RetryState | null = null;
  private failures = 0;
  private version = 0;
  private restored: boolean | null = null;
  private schemas: ValueSchemas | null;
  private loadingSchemas: Promise<void> | null = null;
  /** Saves in flight. */
  private running = new Set<Promise<void>>();
  private readonly opts: Required<Omit<AutosaveOptions, "storage">> & { storage: StorageLike | null };

  constructor(options: AutosaveOptions) {
    super();
    this.schemas = typeof options.schemas === "function" ? null : options.schemas;
    this.opts = {
      endpoint: "/api/annotations",
      debounceMs: 700,
      backoffMs: 1000,
      maxBackoffMs: 30_000,
      random: Math.random,
      now: Date.now,
      setTimer: (fn, ms) => setTimeout(fn, ms),
      clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
      onStored: () => undefined,
      ...options,
    };
  }

  // -- subscription (useSyncExternalStore) ----------------------------------------------------
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getSnapshot = () => this.version;
  private emit() {
    this.version++;
    for (const l of this.listeners) l();
  }

  // -- state ----------------------------------------------------------------------------------
  overall(): OverallStatus {
    const statuses = new Set([...this.entries.values()].map((e) => e.status));
    for (const s of ["conflict", "error", "failed", "saving", "pending", "invalid"] as const) {
      if (statuses.has(s)) return s === "invalid" ? "draft" : s;
    }
    return statuses.has("saved") ? "saved" : "idle";
  }

  /** Values not stored yet: `drafts` cannot be saved as they are (incomplete), `changes` are waiting, being saved or failed. */
  unsaved(): { changes: Entry[]; drafts: Entry[] } {
    const all = [...this.entries.values()].filter((e) => e.local !== undefined || e.inFlight);
    return { changes: all.filter((e) => e.status !== "invalid"), drafts: all.filter((e) => e.status === "invalid") };
  }

  /** The scheduled retry after a failed save, or null. */
  retrying(): RetryState | null {
    return this.retryState;
  }

  // -- changes --------------------------------------------------------------------------------
  set(kind: SaveKind, targetId: string, value: unknown): void {
    this.register(kind, targetId, null);
    const e = this.entry(kind, targetId)!;
    if (e.status === "conflict") {
      // Keep editing the annotator's side of the conflict; it is saved once they choose.
      e.local = value;
      e.conflict = e.conflict && { ...e.conflict, attempted: value };
      this.persist();
      this.emit();
      return;
    }
    e.local = sameValue(value, e.server.value) && !e.inFlight ? undefined : value;
    e.status = e.local === undefined ? (e.status === "idle" ? "idle" : "saved") : this.validate(e) ? "pending" : "invalid";
    this.persist();
    this.emit();
    this.schedule(this.opts.debounceMs);
  }

  /** Loads the schemas once; then checks the changes that waited for them. */
  private schemasLoaded(): Promise<void> {
    const load = this.opts.schemas;
    if (this.schemas || typeof load !== "function") return Promise.resolve();
    this.loadingSchemas ??= load().then(
      (schemas) => {
        this.schemas = schemas;
        let changed = false;
        for (const e of this.entries.values()) {
          if (e.status !== "pending" || e.local === undefined || this.validate(e)) continue;
          e.status = "invalid";
          changed = true;
        }
        if (changed) this.emit();
      },
      () => {
        // not loaded (offline): tried again before the next save; the server checks meanwhile
        this.loadingSchemas = null;
      },
    );
    return this.loadingSchemas;
  }

  /** Whether the value can be sent (else `message` says why); true while the schemas are not loaded yet (checked when they are). */
  private validate(e: Entry): boolean {
    if (!this.schemas) {
      void this.schemasLoaded();
      e.message = undefined;
      return true;
    }
    const result = this.schemas[e.kind].safeParse(e.local);
    if (result.success) {
      e.message = undefined;
      return true;
    }
    const draft = DRAFT_REASON[e.kind];
    const lacking = draft !== undefined && (e.local as Record<string, unknown> | null)?.[draft.field] === undefined;
    e.message = lacking ? draft.reason : (result.error.issues[0]?.message ?? "incomplete");
    return false;
  }

  /** Applies drafts left by an earlier page (a reload, a crash, a failed save). */
  restoreDrafts(): void {
    const drafts = this.readDrafts();
    let applied = false;
    for (const draft of Object.values(drafts)) {
      const targetId = draft.serverId && this.entries.has(entryKey(draft.kind, draft.serverId)) ? draft.serverId : draft.targetId;
      this.register(draft.kind, targetId, null);
      const e = this.entry(draft.kind, targetId)!;
      if (sameValue(draft.value, e.server.value)) continue;
      applied = true;
      e.local = draft.value;
      if (draft.baseVersion === e.server.version) e.status = this.validate(e) ? "pending" : "invalid";
      else {
        e.status = "conflict";
        e.conflict = {
          current: e.server.version === 0 ? null : { ...e.server },
          attempted: draft.value,
          message: `Your unsaved change was based on version ${draft.baseVersion}, but version ${e.server.version} is stored now.`,
        };
      }
    }
    this.restored = applied;
    this.persist();
    this.emit();
    this.schedule(0);
  }

  /** Null until `restoreDrafts` ran (the page is not hydrated yet); then whether a draft changed what the page shows. */
  draftsRestored(): boolean | null {
    return this.restored;
  }

  /**
   * Brings the page up to what the server stores now (after Back or forward showed an older
   * page, or another tab saved): entries without unsaved changes take the stored value; an
   * unsaved change equal to it is done; one that differs is offered beside it (a conflict to
   * resolve), never merged. Older or equal versions than the page knows change nothing.
   */
  reconcile(stored: readonly StoredEntry[]): void {
    let changed = false;
    for (const { kind, targetId, server } of stored) {
      // An added claim created in this page is known by its client key until the page reloads.
      if (kind === "addedClaim" && this.list("addedClaim").some((e) => e.server.id === server.id && e.targetId !== targetId)) continue;
      if (!this.entries.has(entryKey(kind, targetId))) {
        this.register(kind, targetId, server);
        changed = true;
        continue;
      }
      const e = this.entry(kind, targetId)!;
      if (e.inFlight || server.version <= e.server.version) continue;
      changed = true;
      if (e.local === undefined || sameValue(e.local, server.value)) {
        e.server = { ...server };
        e.local = undefined;
        e.conflict = undefined;
        e.status = "saved";
        continue;
      }
      e.status = "conflict";
      e.conflict = {
        current: { ...server },
        attempted: e.local,
        message: `Your unsaved change was based on version ${e.server.version}, but version ${server.version} is stored now.`,
      };
    }
    if (!changed) return;
    this.persist();
    this.emit();
  }

  /** Conflict resolution: keep mine (save it over the stored version) or take the stored value. */
  resolve(kind: SaveKind, targetId: string, choice: "mine" | "theirs"): void {
    const e = this.entry(kind, targetId);
    if (!e?.conflict) return;
    const current = e.conflict.current ?? { id: e.server.id, version: e.server.version, value: e.server.value };
    e.server = { id: current.id, version: current.version, value: current.value };
    e.conflict = undefined;
    if (choice === "theirs" || sameValue(e.local, current.value)) {
      e.local = undefined;
      e.status = "saved";
    } else e.status = this.validate(e) ? "pending" : "invalid";
    this.persist();
    this.emit();
    this.schedule(0);
  }

  /**
   * Saves everything pending now (e.g. before submitting) and resolves once no save is running:
   * saves already in flight are waited for, and a change made during a save is sent after it.
   * A failed one is tried once here (then its retry is scheduled as usual).
   */
  async flush(): Promise<void> {
    // The schemas load with the first change to send, not with the page.
    if (!this.schemas && [...this.entries.values()].some((e) => e.local !== undefined)) await this.schemasLoaded();
    let retryFailed = true;
    for (;;) {
      if (this.debounce !== null) {
        this.opts.clearTimer(this.debounce);
        this.debounce = null;
      }
      const ready = (e: Entry) => e.local !== undefined && !e.inFlight && (e.status === "pending" || (retryFailed && e.status === "failed"));
      const sends = [...this.entries.values()].filter(ready).map((e) => this.send(e));
      const running = [...this.running];
      if (sends.length === 0 && running.length === 0) return;
      retryFailed = false;
      await Promise.all([...sends, ...running]);
    }
  }

  /** Drops unsaved values the server refused for good (e.g. a claim that no longer exists). */
  discardRefused(): void {
    for (const e of this.entries.values()) {
      if (e.status !== "error") continue;
      e.local = undefined;
      e.status = "idle";
      e.message = undefined;
    }
    this.persist();
    this.emit();
  }

  retryNow(): void {
    for (const e of this.entries.values()) if (e.status === "error" && e.local !== undefined) e.status = this.validate(e) ? "pending" : "invalid";
    this.failures = 0;
    this.cancelRetry();
    this.schedule(0);
  }

  private cancelRetry() {
    if (this.retry !== null) this.opts.clearTimer(this.retry);
    this.retry = null;
    this.retryState = null;
  }

  private schedule(ms: number) {
    if (this.debounce !== null) this.opts.clearTimer(this.debounce);
    this.debounce = this.opts.setTimer(() => {
      this.debounce = null;
      // While a retry waits (a busy server asked for time), new edits go with the retry.
      if (this.retry === null) void this.flush();
    }, ms);
  }

  /** One retry for everything failed; waits at least the server's Retry-After (ms, or null). */
  private scheduleRetry(reason: RetryState["reason"], retryAfterMs: number | null = null) {
    if (this.retry !== null) return;
    this.failures++;
    const delay = Math.max(retryAfterMs ?? 0, backoffDelay(this.failures, this.opts.backoffMs, this.opts.maxBackoffMs, this.opts.random));
    this.retryState = { at: this.opts.now() + delay, reason };
    this.retry = this.opts.setTimer(() => {
      this.retry = null;
      this.retryState = null;
      void this.flush();
    }, delay);
    this.emit();
  }

  private send(e: Entry): Promise<void> {
    const request = this.request(e);
    this.running.add(request);
    const done = () => void this.running.delete(request);
    request.then(done, done);
    return request;
  }

  private async request(e: Entry): Promise<void> {
    const sent = e.local;
    const baseVersion = e.server.version;
    e.inFlight = true;
    e.status = "saving";
    this.emit();
    let response: Response;
    try {
      response = await this.opts.fetch(this.opts.endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ kind: e.kind, assignmentId: this.opts.assignmentId, targetId: e.targetId, baseVersion, value: sent }),
      });
    } catch {
      e.inFlight = false;
      e.status = "failed";
      e.message = "No connection to the server; your change is kept and will be retried.";
      this.emit();
      this.scheduleRetry("offline");
      return;
    }
    let body: { id?: string | null; version?: number; value?: unknown; error?: string; conflict?: { current: ServerState | null; attempted: { value: unknown } } } = {};
    try {
      body = await response.json();
    } catch {
      // not JSON (a proxy error page): handled by status below
    }
    // In flight until the answer is read: an edit made meanwhile must not be sent on the old version.
    e.inFlight = false;
    if (response.ok) {
      this.failures = 0;
      e.server = { id: body.id ?? e.server.id, version: body.version ?? baseVersion + 1, value: body.value === undefined ? sent : body.value };
      this.opts.onStored({ kind: e.kind, targetId: e.targetId, server: { ...e.server } });
      if (sameValue(e.local, sent)) {
        e.local = undefined;
        e.status = "saved";
        e.message = undefined;
      } else e.status = this.validate(e) ? "pending" : "invalid";
      this.persist();
      this.emit();
      if (e.local !== undefined) this.schedule(this.opts.debounceMs);
      return;
    }
    if (response.status === 409 && body.conflict) {
      const current = body.conflict.current;
      if (current && sameValue(e.local, current.value)) {
        // Stored meanwhile with the same value (another tab of this annotator): nothing to choose.
        e.server = { ...current };
        e.local = undefined;
        e.status = "saved";
        this.persist();
        this.emit();
        return;
      }
      e.status = "conflict";
      e.conflict = { current: body.conflict.current, attempted: e.local, message: body.error ?? "Changed elsewhere." };
      this.emit();
      return;
    }
    e.message = body.error ?? `The server answered ${response.status}.`;
    if (RETRYABLE.has(response.status)) {
      e.status = "failed";
      this.emit();
      this.scheduleRetry(response.status === 503 || response.status === 429 ? "busy" : "failing", parseRetryAfter(response.headers.get("retry-after")));
    } else {
      // A refusal that a retry would not change (401, 403, 404, 400, 423): keep the draft, show why.
      e.status = "error";
      this.emit();
    }
  }

  // -- local drafts ---------------------------------------------------------------------------
  private readDrafts(): Record<string, Draft> {
    try {
      const raw = this.opts.storage?.getItem(this.opts.storageKey);
      const drafts = raw ? (JSON.parse(raw) as Record<string, Draft>) : {};
      for (const draft of Object.values(drafts)) draft.kind = RENAMED_KINDS[draft.kind] ?? draft.kind;
      return drafts;
    } catch {
      return {};
    }
  }

  private persist(): void {
    const drafts: Record<string, Draft> = {};
    for (const e of this.entries.values()) {
      if (e.local === undefined) continue;
      // The version the value was based on; during a conflict still the stale one, so a reload
      // shows the conflict again instead of overwriting.
      drafts[e.key] = { kind: e.kind, targetId: e.targetId, baseVersion: e.server.version, value: e.local, ...(e.kind === "addedClaim" && e.server.id && e.server.id !== e.targetId ? { serverId: e.server.id } : {}) };
    }
    try {
      if (!this.opts.storage) return;
      if (Object.keys(drafts).length === 0) this.opts.storage.removeItem(this.opts.storageKey);
      else this.opts.storage.setItem(this.opts.storageKey, JSON.stringify(drafts));
    } catch {
      // storage full or disabled: the in-memory state still retries
    }
  }
}
