import { describe, expect, test } from "vitest";
import { FREE_ATTEMPTS, remainingLockMs, signInDelayMs } from "@/lib/auth/throttle";

describe("sign-in slow-down", () => {
  test("the first failures cost nothing, then the wait doubles up to 15 minutes", () => {
    expect(signInDelayMs(FREE_ATTEMPTS - 1)).toBe(0);
    expect(signInDelayMs(FREE_ATTEMPTS)).toBe(1000);
    expect(signInDelayMs(FREE_ATTEMPTS + 3)).toBe(8000);
    expect(signInDelayMs(FREE_ATTEMPTS + 40)).toBe(15 * 60 * 1000);
  });

  test("the remaining wait counts from the last failure", () => {
    const last = new Date("2026-01-01T00:00:00Z");
    expect(remainingLockMs(FREE_ATTEMPTS + 2, last, new Date(last.getTime() + 1000))).toBe(3000);
    expect(remainingLockMs(FREE_ATTEMPTS + 2, last, new Date(last.getTime() + 5000))).toBe(0);
    expect(remainingLockMs(10, null, last)).toBe(0);
  });
});
