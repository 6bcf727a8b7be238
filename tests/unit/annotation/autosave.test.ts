import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { AutosaveStore, type StorageLike } from "@/components/workspace/autosave";
import { decideSave } from "@/lib/annotation/versioning";
import { VALUE_SCHEMAS } from "@/lib/annotation/value-schemas";

/** A fake annotation server with the real version rules; `down` makes requests fail like a cut network. */
function fakeServer() {
  const rows = new Map<string, { id: string; version: number; value: unknown }>();
  const state = { down: false, writes: 0, requests: 0 };
  const fetchFn = (async (_url: string, init?: RequestInit) => {
    state.requests++;
    if (state.down) throw new TypeError("Failed to fetch");
    const body = JSON.parse(String(init?.body));
    const key = `${body.kind}:${body.targetId}`;
    const current = rows.get(key) ?? null;
    const decision = decideSave(current, body.baseVersion, body.value);
    if (decision.type === "conflict") return new Response(JSON.stringify({ error: "conflict", conflict: { current, attempted: { value: body.value } } }), { status: 409 });
    if (decision.type === "noop") return Response.json(current);
    const next = { id: current?.id ?? `id-${key}`, version: (current?.version ?? 0) + 1, value: body.value };
    rows.set(key, next);
    state.writes++;
    return Response.json(next);
  }) as typeof fetch;
  return { rows, state, fetchFn };
}

function memoryStorage(): StorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

const value = (code: string, note = "") => ({ code, necessary: null, errorType: null, note });

describe("autosave", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const make = (server: ReturnType<typeof fakeServer>, storage: StorageLike) =>
    new AutosaveStore({ schemas: VALUE_SCHEMAS, assignmentId: "a1", storageKey: "drafts", storage, fetch: server.fetchFn, debounceMs: 500, backoffMs: 1000, random: () => 1 });

  test("debounces changes, keeps a draft until stored, then shows saved", async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    const store = make(server, storage);
    store.register("judgement", "c1", null);
    store.set("judgement", "c1", value("CORRECT"));
    store.set("judgement", "c1", value("INCORRECT"));
    expect(store.overall()).toBe("pending");
    expect(storage.data.get("drafts")).toContain("INCORRECT");
    await vi.advanceTimersByTimeAsync(499);
    expect(server.state.requests).toBe(0);
    await vi.advanceTimersByTimeAsync(10);
    expect(server.state.requests).toBe(1);
    expect(store.overall()).toBe("saved");
    expect(store.entry("judgement", "c1")!.server.version).toBe(1);
    expect(storage.data.has("drafts")).toBe(false);
  });

  test("a cut network shows failed, keeps the value and retries until stored once", async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    const store = make(server, storage);
    server.state.down = true;
    store.set("judgement", "c1", value("CORRECT", "kept"));
    await vi.advanceTimersByTimeAsync(600);
    expect(store.overall()).toBe("failed");
    expect(storage.data.get("drafts")).toContain("kept");
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.overall()).toBe("failed");
    server.state.down = false;
    await vi.advanceTimersByTimeAsync(2000);
    expect(store.overall()).toBe("saved");
    expect(server.state.writes).toBe(1);
    expect(server.rows.get("judgement:c1")!.value).toEqual(value("CORRECT", "kept"));
    expect(storage.data.has("drafts")).toBe(false);
  });

  test("a busy server (503) is retried no sooner than its Retry-After, with growing jittered waits, keeping every change", async () => {
    const server = fakeServer();
    let busy = 2;
    const requests: number[] = [];
    const fetchFn = (async (url: string, init?: RequestInit) => {
      requests.push(Date.now());
      if (busy-- > 0) return new Response(JSON.stringify({ error: "The server is busy; nothing was saved." }), { status: 503, headers: { "retry-after": "3" } });
      return server.fetchFn(url, init);
    }) as typeof fetch;
    const store = new AutosaveStore({ schemas: VALUE_SCHEMAS, assignmentId: "a1", storageKey: "d", storage: memoryStorage(), fetch: fetchFn, debounceMs: 500, backoffMs: 1000, random: () => 0 });
    const t0 = Date.now();
    store.set("judgement", "c1", value("CORRECT"));
    await vi.advanceTimersByTimeAsync(600);
    expect(store.overall()).toBe("failed");
    expect(store.retrying()).toEqual({ reason: "busy", at: t0 + 500 + 3000 });
    // A change during the wait is kept; the retry sends the newest value.
    store.set("judgement", "c1", value("INCORRECT", "newest"));
    await vi.advanceTimersByTimeAsync(2800);
    expect(requests.length).toBe(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(requests.map((t) => t - t0)).toEqual([500, 3500]);
    expect(store.retrying()?.reason).toBe("busy");
    await vi.advanceTimersByTimeAsync(3000);
    expect(requests.length).toBe(3);
    expect(store.overall()).toBe("saved");
    expect(store.retrying()).toBeNull();
    expect(server.rows.get("judgement:c1")!.value).toEqual(value("INCORRECT", "newest"));
  });

  test("without Retry-After the waits double, jittered between half and the whole", async () => {
    const waits = (random: number) => {
      const times: number[] = [];
      const store = new AutosaveStore({
        schemas: VALUE_SCHEMAS,
        assignmentId: "a1",
        storageKey: "d",
        storage: null,
        fetch: (async () => {
          times.push(Date.now());
          throw new TypeError("Failed to fetch");
        }) as typeof fetch,
        debounceMs: 0,
        backoffMs: 1000,
        maxBackoffMs: 3000,
        random: () => random,
      });
      store.set("judgement", "c1", value("CORRECT"));
      return { times, store };
    };
    for (const [random, expected] of [
      [1, [1000, 2000, 3000, 3000]],
      [0, [500, 1000, 1500, 1500]],
    ] as const) {
      const { times, store } = waits(random);
      await vi.advanceTimersByTimeAsync(20_000);
      expect(times.slice(1, 5).map((t, i) => t - times[i])).toEqual(expected);
      expect(store.retrying()?.reason).toBe("offline");
      store.retryNow();
    }
  });

  test("a reload before the save applies the draft and saves it", async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    const first = make(server, storage);
    first.register("judgement", "c1", null);
    first.set("judgement", "c1", value("AMBIGUOUS"));
    // the page goes away before the debounce fires
    const second = make(server, storage);
    second.register("judgement", "c1", null);
    // applied: the page's task opens again on what the draft leaves unanswered
    second.restoreDrafts();
    expect(second.draftsRestored()).toBe(true);
    expect(second.value("judgement", "c1")).toEqual(value("AMBIGUOUS"));
    await vi.advanceTimersByTimeAsync(10);
    expect(second.overall()).toBe("saved");
    expect(server.state.writes).toBe(1);
  });

  test("a stale save is refused: both values shown, keep mine saves over, take theirs discards", async () => {
    const server = fakeServer();
    server.rows.set("judgement:c1", { id: "j1", version: 2, value: value("CORRECT", "from the other tab") });
    const store = make(server, memoryStorage());
    store.register("judgement", "c1", { id: "j1", version: 1, value: value("CORRECT") });
    store.set("judgement", "c1", value("INCORRECT", "mine"));
    await vi.advanceTimersByTimeAsync(600);
    expect(store.overall()).toBe("conflict");
    const e = store.entry("judgement", "c1")!;
    expect(e.conflict!.current!.value).toEqual(value("CORRECT", "from the other tab"));
    expect(e.conflict!.attempted).toEqual(value("INCORRECT", "mine"));
    expect(server.state.writes).toBe(0);
    store.resolve("judgement", "c1", "mine");
    await vi.advanceTimersByTimeAsync(10);
    expect(store.overall()).toBe("saved");
    expect(server.rows.get("judgement:c1")).toMatchObject({ version: 3, value: value("INCORRECT", "mine") });

    server.rows.set("judgement:c1", { id: "j1", version: 4, value: value("UNVERIFIABLE") });
    store.set("judgement", "c1", value("CORRECT", "again"));
    await vi.advanceTimersByTimeAsync(600);
    expect(store.overall()).toBe("conflict");
    store.resolve("judgement", "c1", "theirs");
    expect(store.value("judgement", "c1")).toEqual(value("UNVERIFIABLE"));
    expect(store.overall()).toBe("saved");
  });

  test("a draft based on an older version than the stored one shows as a conflict after reload", async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    storage.setItem("drafts", JSON.stringify({ "judgement:c1": { kind: "judgement", targetId: "c1", baseVersion: 1, value: value("INCORRECT") } }));
    const store = make(server, storage);
    store.register("judgement", "c1", { id: "j1", version: 2, value: value("CORRECT") });
    store.restoreDrafts();
    expect(store.overall()).toBe("conflict");
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.state.requests).toBe(0);
    // a draft equal to what is stored is simply dropped
    storage.setItem("drafts", JSON.stringify({ "judgement:c2": { kind: "judgement", targetId: "c2", baseVersion: 0, value: value("CORRECT") } }));
    const other = make(server, storage);
    other.register("judgement", "c2", { id: "j2", version: 1, value: value("CORRECT") });
    other.restoreDrafts();
    expect(other.draftsRestored()).toBe(false);
    expect(other.overall()).toBe("idle");
  });

  test("drafts stored under the save kinds' earlier names (claim, added, filter) load under the glossary's and are saved", async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    const label = { highQuality: false, justification: "vague" };
    const added = { text: "A missing claim", correctsId: null };
    // Written as a page before the rename wrote them (built from parts, so the renaming codemod leaves them).
    const earlier = [
      ["claim", "c1", value("INCORRECT", "before the rename")],
      ["added", "new:k1", added],
      ["filter", "r1", label],
    ] as const;
    storage.setItem("drafts", JSON.stringify(Object.fromEntries(earlier.map(([kind, targetId, v]) => [`${kind}:${targetId}`, { kind, targetId, baseVersion: 0, value: v }]))));
    const store = make(server, storage);
    store.register("judgement", "c1", null);
    store.register("label", "r1", null);
    store.restoreDrafts();
    expect(store.draftsRestored()).toBe(true);
    expect(store.value("judgement", "c1")).toEqual(value("INCORRECT", "before the rename"));
    expect(store.value("addedClaim", "new:k1")).toEqual(added);
    expect(store.value("label", "r1")).toEqual(label);
    await vi.advanceTimersByTimeAsync(1000);
    expect([...server.rows.keys()].sort()).toEqual(["addedClaim:new:k1", "judgement:c1", "label:r1"]);
    expect(store.overall()).toBe("saved");
    expect(storage.getItem("drafts")).toBeNull();
  });

  test("reconciling with the stored state: an older page takes the stored values, no conflict on the next edit", async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    // the page shown by Back still has version 0 (nothing); the server stores version 1
    server.rows.set("judgement:c1", { id: "j1", version: 1, value: value("CORRECT", "saved before Next") });
    const store = make(server, storage);
    store.register("judgement", "c1", null);
    store.register("judgement", "c2", null);
    store.reconcile([
      { kind: "judgement", targetId: "c1", server: { id: "j1", version: 1, value: value("CORRECT", "saved before Next") } },
      { kind: "judgement", targetId: "c2", server: { id: null, version: 0, value: null } },
    ]);
    expect(store.value("judgement", "c1")).toEqual(value("CORRECT", "saved before Next"));
    expect(store.overall()).toBe("saved");
    store.set("judgement", "c1", value("INCORRECT"));
    await vi.advanceTimersByTimeAsync(600);
    expect(store.overall()).toBe("saved");
    expect(server.rows.get("judgement:c1")).toMatchObject({ version: 2, value: value("INCORRECT") });
    // an older report than the page's own state changes nothing
    store.reconcile([{ kind: "judgement", targetId: "c1", server: { id: "j1", version: 1, value: value("CORRECT") } }]);
    expect(store.value("judgement", "c1")).toEqual(value("INCORRECT"));
  });

  test("reconciling an unsaved change with a newer stored value offers both, never merges", async () => {
    const server = fakeServer();
    const store = make(server, memoryStorage());
    store.register("judgement", "c1", null);
    store.register("judgement", "c2", null);
    store.set("judgement", "c1", value("INCORRECT", "mine"));
    store.set("judgement", "c2", value("CORRECT"));
    store.reconcile([
      { kind: "judgement", targetId: "c1", server: { id: "j1", version: 1, value: value("CORRECT", "other tab") } },
      { kind: "judgement", targetId: "c2", server: { id: "j2", version: 1, value: value("CORRECT") } },
    ]);
    const c1 = store.entry("judgement", "c1")!;
    expect(c1.status).toBe("conflict");
    expect(c1.conflict!.current!.value).toEqual(value("CORRECT", "other tab"));
    expect(c1.conflict!.attempted).toEqual(value("INCORRECT", "mine"));
    // the same value stored elsewhere is simply done
    expect(store.entry("judgement", "c2")!.status).toBe("saved");
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.state.requests).toBe(0);
  });

  test("a stale save whose value is the stored one is no conflict", async () => {
    const server = fakeServer();
    server.rows.set("judgement:c1", { id: "j1", version: 1, value: value("CORRECT") });
    const store = make(server, memoryStorage());
    store.register("judgement", "c1", null);
    store.set("judgement", "c1", value("CORRECT"));
    await vi.advanceTimersByTimeAsync(600);
    expect(store.overall()).toBe("saved");
    expect(store.entry("judgement", "c1")!.server.version).toBe(1);
  });

  test("added claims known by their client key are not listed twice", () => {
    const store = make(fakeServer(), memoryStorage());
    store.register("addedClaim", "new:k1", { id: "p9", version: 1, value: { text: "a claim", correctsId: null } });
    store.reconcile([{ kind: "addedClaim", targetId: "p9", server: { id: "p9", version: 1, value: { text: "a claim", correctsId: null } } }]);
    expect(store.list("addedClaim")).toHaveLength(1);
    store.reconcile([{ kind: "addedClaim", targetId: "p10", server: { id: "p10", version: 1, value: { text: "from another tab", correctsId: null } } }]);
    expect(store.list("addedClaim").map((e) => e.targetId)).toEqual(["new:k1", "p10"]);
  });

  test("incomplete values are kept locally and not sent", async () => {
    const server = fakeServer();
    const store = make(server, memoryStorage());
    store.set("grade", "r1", { comment: "typed before choosing a grade" });
    await vi.advanceTimersByTimeAsync(600);
    expect(server.state.requests).toBe(0);
    expect(store.entry("grade", "r1")!.status).toBe("invalid");
    // a draft, said as such: nothing waits to be sent, one value is kept until it can be saved
    expect(store.overall()).toBe("draft");
    expect(store.unsaved().changes).toEqual([]);
    expect(store.unsaved().drafts.map((e) => [e.key, e.message])).toEqual([["grade:r1", "kept in this browser until the review has a grade"]]);
    store.set("grade", "r1", { grade: 3, comment: "typed before choosing a grade" });
    await vi.advanceTimersByTimeAsync(600);
    expect(server.state.writes).toBe(1);
    expect(store.unsaved()).toEqual({ changes: [], drafts: [] });
  });

  /** A store that loads its schemas with `load`, as the workspace does. */
  const loading = (server: ReturnType<typeof fakeServer>, load: () => Promise<typeof VALUE_SCHEMAS>) =>
    new AutosaveStore({ schemas: load, assignmentId: "a1", storageKey: "d", storage: memoryStorage(), fetch: server.fetchFn, debounceMs: 500 });

  test("schemas loaded on demand: a change waits as pending until they arrive, then an incomplete one is kept and never sent", async () => {
    const server = fakeServer();
    let loads = 0;
    let arrive: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const store = loading(server, async () => {
      loads++;
      await arrived;
      return VALUE_SCHEMAS;
    });
    // a page with nothing to send loads none
    store.register("grade", "r1", null);
    store.restoreDrafts();
    await store.flush();
    expect(loads).toBe(0);
    store.set("grade", "r1", { comment: "typed before choosing a grade" });
    expect(store.entry("grade", "r1")!.status).toBe("pending");
    await vi.advanceTimersByTimeAsync(600);
    // the save waits for the schemas, not sending what they may refuse
    expect(server.state.requests).toBe(0);
    arrive();
    await vi.advanceTimersByTimeAsync(0);
    expect(store.entry("grade", "r1")!.status).toBe("invalid");
    expect(store.overall()).toBe("draft");
    store.set("grade", "r1", { grade: 4, comment: "typed before choosing a grade" });
    await vi.advanceTimersByTimeAsync(600);
    expect(server.state.writes).toBe(1);
    expect(loads).toBe(1);
  });

  test("schemas that fail to load (offline) are tried again before the next save, and the server checks meanwhile", async () => {
    const server = fakeServer();
    let loads = 0;
    const store = loading(server, async () => {
      if (loads++ === 0) throw new TypeError("Failed to fetch");
      return VALUE_SCHEMAS;
    });
    store.set("judgement", "c1", value("CORRECT"));
    await vi.advanceTimersByTimeAsync(600);
    expect(server.state.writes).toBe(1);
    store.set("grade", "r1", { comment: "no grade yet" });
    await vi.advanceTimersByTimeAsync(600);
    expect(loads).toBe(2);
    expect(store.entry("grade", "r1")!.status).toBe("invalid");
    expect(server.state.requests).toBe(1);
  });

  test("flush waits for a save already in flight, then sends what changed meanwhile", async () => {
    const server = fakeServer();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const store = new AutosaveStore({
      schemas: VALUE_SCHEMAS,
      assignmentId: "a1",
      storageKey: "d",
      storage: memoryStorage(),
      // the first request is held back like a slow server; later ones answer at once
      fetch: (async (url: string, init?: RequestInit) => {
        if (calls++ === 0) await held;
        return server.fetchFn(url, init);
      }) as typeof fetch,
      debounceMs: 500,
    });
    store.set("grade", "r1", { grade: 2, comment: "" });
    await vi.advanceTimersByTimeAsync(600);
    expect(store.entry("grade", "r1")!.inFlight).toBe(true);
    let flushed = false;
    const flushing = store.flush().then(() => (flushed = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(flushed).toBe(false);
    store.set("grade", "r1", { grade: 4, comment: "" });
    release();
    await flushing;
    expect(store.unsaved()).toEqual({ changes: [], drafts: [] });
    expect(store.overall()).toBe("saved");
    expect(server.rows.get("grade:r1")).toMatchObject({ version: 2, value: { grade: 4, comment: "" } });
  });

  test("an added claim stored from its client key and changed again before a reload is restored onto its stored id", async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    const first = make(server, storage);
    first.set("addedClaim", "new:k1", { text: "A missing", correctsId: null });
    await vi.advanceTimersByTimeAsync(600);
    expect(server.rows.get("addedClaim:new:k1")).toMatchObject({ id: "id-addedClaim:new:k1", version: 1 });
    server.state.down = true;
    first.set("addedClaim", "new:k1", { text: "A missing claim", correctsId: null });
    await vi.advanceTimersByTimeAsync(600);
    // the page after the reload knows the claim by its id
    const second = make(server, storage);
    second.register("addedClaim", "id-addedClaim:new:k1", { id: "id-addedClaim:new:k1", version: 1, value: { text: "A missing", correctsId: null } });
    second.restoreDrafts();
    expect(second.list("addedClaim").map((e) => [e.targetId, e.status])).toEqual([["id-addedClaim:new:k1", "pending"]]);
    expect(second.value("addedClaim", "id-addedClaim:new:k1")).toEqual({ text: "A missing claim", correctsId: null });
  });

  test("an edit made while a save is in flight is saved after it", async () => {
    const server = fakeServer();
    const store = make(server, memoryStorage());
    store.set("judgement", "c1", value("CORRECT"));
    const flushing = store.flush();
    store.set("judgement", "c1", value("CORRECT", "more"));
    await flushing;
    await vi.advanceTimersByTimeAsync(600);
    expect(server.rows.get("judgement:c1")).toMatchObject({ version: 2, value: value("CORRECT", "more") });
    expect(store.overall()).toBe("saved");
  });

  test("refusals that a retry would not change are shown, not retried", async () => {
    const store = new AutosaveStore({
      schemas: VALUE_SCHEMAS,
      assignmentId: "a1",
      storageKey: "d",
      storage: memoryStorage(),
      fetch: (async () => new Response(JSON.stringify({ error: "No such assignment in your queue." }), { status: 404 })) as typeof fetch,
      debounceMs: 10,
      backoffMs: 10,
    });
    store.set("judgement", "c1", value("CORRECT"));
    await vi.advanceTimersByTimeAsync(100);
    expect(store.overall()).toBe("error");
    expect(store.entry("judgement", "c1")!.message).toMatch(/No such assignment/);
  });
});

describe("autosave: refused changes", () => {
  test("can be discarded so the page is not stuck", async () => {
    vi.useFakeTimers();
    const storage = memoryStorage();
    const store = new AutosaveStore({
      schemas: VALUE_SCHEMAS,
      assignmentId: "a1",
      storageKey: "d",
      storage,
      fetch: (async () => new Response(JSON.stringify({ error: "No such claim in this item." }), { status: 404 })) as typeof fetch,
      debounceMs: 10,
    });
    store.register("judgement", "gone", null);
    store.set("judgement", "gone", value("CORRECT"));
    await vi.advanceTimersByTimeAsync(50);
    expect(store.overall()).toBe("error");
    store.discardRefused();
    expect(store.overall()).toBe("idle");
    expect(store.unsaved()).toEqual({ changes: [], drafts: [] });
    expect(storage.data.has("d")).toBe(false);
    vi.useRealTimers();
  });
});
