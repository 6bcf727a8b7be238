import { describe, expect, test } from "vitest";
import { offThread } from "@/lib/process/off-thread";

describe("offThread", () => {
  test("runs a self-contained function on a worker thread: the results of the calls, in order, and not on this thread", async () => {
    const { threadId } = await import("node:worker_threads");
    // Which thread ran it: the function may use nothing outside its body, so it asks for the module itself.
    const where = offThread((x: number) => [x * 2, (process as unknown as { getBuiltinModule: (m: string) => { threadId: number } }).getBuiltinModule("node:worker_threads").threadId]);
    const results = await Promise.all([1, 2, 3].map((x) => where(x)));
    expect(results.map(([doubled]) => doubled)).toEqual([2, 4, 6]);
    expect(results.every(([, thread]) => thread !== threadId)).toBe(true);
  });

  test("a function that throws on the worker runs here instead, where its error reaches the caller", async () => {
    const failing = offThread((x: number) => {
      if (x < 0) throw new Error(`negative: ${x}`);
      return Math.sqrt(x);
    });
    expect(await failing(16)).toBe(4);
    await expect(failing(-1)).rejects.toThrow("negative: -1");
  });

  test("a function that is not self-contained fails on the worker and runs here, with the same result", async () => {
    const outside = 5;
    const closure = offThread((x: number) => x + outside);
    expect(await closure(1)).toBe(6);
    expect(await closure(2)).toBe(7);
  });
});
