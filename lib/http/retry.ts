/** Retrying HTTP requests: the server's Retry-After and jittered exponential backoff (LLM judges, the workspace autosave, the load bench). */

/** Retry-After as seconds or an HTTP date, in ms; null when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === "") return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : null;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Delay before retry `retry` (1 = first retry): backoff·2^(retry-1), jittered to [½, 1] of it, capped. */
export function backoffDelay(retry: number, backoffMs: number, maxBackoffMs: number, random: () => number = Math.random): number {
  const full = Math.min(maxBackoffMs, backoffMs * 2 ** (retry - 1));
  return full * (0.5 + random() / 2);
}
