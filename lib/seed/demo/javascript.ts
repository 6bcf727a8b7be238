/** JavaScript change of the demo study: an LRU cache gaining a time to live. */
import type { DemoChange } from "../types";
import { rate, source } from "./helpers";

export const LRU_CACHE_TTL: DemoChange = {
  externalId: "js-lru-cache-ttl",
  filePath: "src/utils/lruCache.js",
  language: "javascript",
  metadata: { repository: "acme/web-session" },
  oldFile: source(`
/**
 * A least-recently-used cache on top of Map (which keeps insertion order).
 */
class LruCache {
  constructor(maxSize = 100) {
    this.maxSize = maxSize;
    this.entries = new Map();
  }

  get(key) {
    if (!this.entries.has(key)) {
      return undefined;
    }
    const value = this.entries.get(key);
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key, value) {
    if (this.entries.has(key)) {
      this.entries.delete(key);
    } else if (this.entries.size >= this.maxSize) {
      const oldest = this.entries.keys().next().value;
      this.entries.delete(oldest);
    }
    this.entries.set(key, value);
    return this;
  }

  get size() {
    return this.entries.size;
  }
}

module.exports = { LruCache };
`),
  newFile: source(`
/**
 * A least-recently-used cache on top of Map (which keeps insertion order),
 * with an optional time to live per entry.
 */
class LruCache {
  constructor({ maxSize = 100, ttlMs = Infinity, now = Date.now } = {}) {
    if (!(maxSize > 0)) {
      throw new RangeError('maxSize must be positive');
    }
    this.maxSize = maxSize;
    this.ttlMs = ttlMs;
    this.now = now;
    this.entries = new Map();
  }

  get(key) {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      return undefined;
    }
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  has(key) {
    return this.get(key) !== undefined;
  }

  set(key, value) {
    this.entries.delete(key);
    if (this.entries.size >= this.maxSize) {
      const oldest = this.entries.keys().next().value;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
    return this;
  }

  delete(key) {
    return this.entries.delete(key);
  }

  get size() {
    return this.entries.size;
  }
}

module.exports = { LruCache };
`),
  pseudoReferences: [
    { key: "c1", kind: "CLAIM", source: "gpt-4o", text: "The constructor now takes an options object `{ maxSize, ttlMs, now }` instead of a positional `maxSize`." },
    { key: "c2", kind: "CLAIM", source: "gpt-4o", text: "Entries are stored as `{ value, expiresAt }`, and expired entries are removed when they are read." },
    { key: "c3", kind: "CLAIM", source: "gpt-4o", text: "New methods `has` and `delete` were added." },
    { key: "c4", kind: "CLAIM", source: "gpt-4o", text: "The `set` method no longer evicts the oldest entry when the cache is full." },
    { key: "i1", kind: "IMPLICATION", source: "gpt-4o", text: "Existing calls such as `new LruCache(50)` silently fall back to the default size of 100, because a number is destructured as an options object." },
    { key: "i2", kind: "IMPLICATION", source: "gpt-4o", text: "`has` moves the entry to the most recently used position as a side effect, because it calls `get`." },
    { key: "i3", kind: "IMPLICATION", source: "gpt-4o", text: "The `size` getter may over-count, since expired entries stay in the map until they" },
    { key: "s1", kind: "SMELL", source: "eslint", text: "strict: use the global form of 'use strict' (line 1)." },
  ],
  reviews: [
    { system: "human", isReference: true, text: "`new LruCache(50)` is used in `sessionStore.js` and will now silently get a size of 100. Either keep accepting a number or update the callers in this PR." },
    {
      system: "gpt-3.5",
      text: "The TTL support looks right, but turning the constructor argument into an options object silently breaks `new LruCache(50)`, which now gets the default size. `has()` calls `get()`, so it refreshes recency and returns false for cached `undefined` values; check the entry directly instead. Finally, `size` still counts expired entries.",
    },
    { system: "codereviewer", text: "Shouldn't `ttlMs` default to something finite?" },
    {
      system: "llama3",
      text: "This change adds a time-to-live to the LRU cache. The constructor now accepts an options object, entries store an expiry time, and new `has` and `delete` methods were added. The `set` method no longer evicts old entries, which could make the cache grow without bound. I suggest adding JSDoc comments and unit tests for expiry. Overall, nice work!",
    },
    { system: "magicoder", text: "`has()` should not change recency. Use `const entry = this.entries.get(key); return entry !== undefined && entry.expiresAt > this.now();`." },
    { system: "knn", text: "Why is this change needed?" },
    { system: "lstm", text: "use ` const ` instead of ` let `" },
  ],
  work: {
    ann1: {
      claims: {
        c1: { code: "CORRECT" },
        c2: { code: "CORRECT" },
        c3: { code: "CORRECT", necessary: false, note: "Trivial; visible at a glance." },
        c4: { code: "INCORRECT", errorType: "COMPREHENSION", note: "`set` still evicts the first key when the map is full." },
        i1: { code: "CORRECT" },
        i2: { code: "CORRECT" },
        i3: { code: "CORRECT", note: "Cut off, but the meaning is clear and true." },
      },
      ratings: {
        human: rate(5, 2, 2, ["i1"], ["c1"]),
        "gpt-3.5": rate(5, 4, 4, ["c1", "i1", "i2", "i3"], ["c2"]),
        codereviewer: rate(3, 2, 2, [], ["c2"]),
        llama3: rate(3, 2, 2, ["c1", "c2"]),
        magicoder: rate(5, 2, 2, ["i2"]),
        knn: rate(1, 1, 1),
        lstm: rate(1, 1, 1),
      },
      grades: { "gpt-3.5": 3, codereviewer: 1, llama3: 1, magicoder: 1, knn: 1, lstm: 1 },
      filters: {
        "gpt-3.5": { highQuality: true, justification: "Three concrete defects (constructor, has, size), each checkable by a test." },
        codereviewer: { highQuality: false, justification: "A question about a design choice; nothing verifiable." },
        llama3: { highQuality: false, justification: "Its only concrete point (no eviction) is wrong." },
        magicoder: { highQuality: true, justification: "A precise fix for has() refreshing recency." },
        knn: { highQuality: false, justification: "Asks for motivation only." },
        lstm: { highQuality: false, justification: "There is no `let` in the change." },
      },
    },
    ann2: {
      claims: {
        c1: { code: "CORRECT" },
        c2: { code: "CORRECT" },
        c3: { code: "CORRECT" },
        c4: { code: "INCORRECT", errorType: "REASONING", note: "Eviction now happens after deleting the key, but it still happens." },
        i1: { code: "CORRECT" },
        i2: { code: "CORRECT" },
        i3: { code: "INCOMPLETE", note: "The sentence is cut off." },
      },
      ratings: {
        human: rate(5, 2, 3, ["i1", "c1"]),
        "gpt-3.5": rate(4, 4, 4, ["c1", "i1", "i2"], ["c2"]),
        codereviewer: rate(3, 2, 2, [], ["c1"]),
        llama3: rate(3, 3, 3, ["c1", "c2", "c3"]),
        magicoder: rate(5, 2, 2, ["i2"]),
        knn: rate(1, 1, 1),
        lstm: rate(1, 1, 1),
      },
      grades: { "gpt-3.5": 3, codereviewer: 2, llama3: 1, magicoder: 1, knn: 1, lstm: 1 },
      filters: {
        "gpt-3.5": { highQuality: true, justification: "Concrete, testable problems." },
        codereviewer: { highQuality: true, justification: "Proposes a finite default TTL, a concrete change." },
        llama3: { highQuality: false, justification: "Claims a missing eviction that is not missing." },
        magicoder: { highQuality: true, justification: "Actionable and testable." },
        knn: { highQuality: false, justification: "A question, no action." },
        lstm: { highQuality: false, justification: "Does not apply." },
      },
    },
  },
};
