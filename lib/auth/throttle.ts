/**
 * Slows down repeated failed sign-ins for one account: after FREE_ATTEMPTS failures, each
 * further attempt must wait 2^(n - FREE_ATTEMPTS) seconds after the last failure, up to 15 min.
 */
export const FREE_ATTEMPTS = 5;
const MAX_DELAY_MS = 15 * 60 * 1000;

export function signInDelayMs(failedCount: number): number {
  if (failedCount < FREE_ATTEMPTS) return 0;
  return Math.min(MAX_DELAY_MS, 1000 * 2 ** (failedCount - FREE_ATTEMPTS));
}

/** Milliseconds the account must still wait before the next attempt (0 when it may try). */
export function remainingLockMs(failedCount: number, lastFailedAt: Date | null, now: Date): number {
  if (!lastFailedAt) return 0;
  return Math.max(0, lastFailedAt.getTime() + signInDelayMs(failedCount) - now.getTime());
}
