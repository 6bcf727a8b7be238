import { expect, test } from "vitest";
import { IMPORT_QUEUE, JUDGE_QUEUE, MATCHER_QUEUE, METRIC_QUEUE, PARTICIPANT_RELEASE_QUEUE, PSEUDO_REFERENCE_QUEUE, REPORT_QUEUE, startQueue, STATIC_ANALYSIS_QUEUE, WEBHOOK_QUEUE } from "@/lib/jobs";
import { scratchDatabase } from "./scratch-database";

test("startQueue installs pg-boss and makes the product's queues with their settings, and a missing one again at the next start", async () => {
  const { url, drop } = await scratchDatabase("crjudge_queue");
  try {
    const first = await startQueue(url, { supervise: false });
    try {
      const queues = new Map((await first.getQueues()).map((queue) => [queue.name, queue]));
      expect(queues.get(METRIC_QUEUE)).toMatchObject({ retryLimit: 2, expireInSeconds: 900 });
      expect(queues.get(REPORT_QUEUE)).toMatchObject({ retryLimit: 1, expireInSeconds: 900 });
      expect(queues.get(PSEUDO_REFERENCE_QUEUE)).toMatchObject({ retryLimit: 2, expireInSeconds: 900 });
      expect(queues.get(STATIC_ANALYSIS_QUEUE)).toMatchObject({ retryLimit: 2, expireInSeconds: 1800 });
      expect(queues.get(IMPORT_QUEUE)).toMatchObject({ retryLimit: 1, expireInSeconds: 2100 });
      expect(queues.get(JUDGE_QUEUE)).toMatchObject({ retryLimit: 2, expireInSeconds: 7200 });
      expect(queues.get(MATCHER_QUEUE)).toMatchObject({ retryLimit: 2, expireInSeconds: 900 });
      expect(queues.get(PARTICIPANT_RELEASE_QUEUE)).toMatchObject({ retryLimit: 2, expireInSeconds: 900 });
      const hooks = queues.get(WEBHOOK_QUEUE)!;
      expect(hooks).toMatchObject({ retryLimit: 11, retryDelay: 30, retryBackoff: true, expireInSeconds: 60 });
      // pg-boss waits retryDelay × 2^n to twice that before retry n+1: the retries span about a day
      const shortest = Array.from({ length: hooks.retryLimit! }, (_, n) => hooks.retryDelay! * 2 ** n).reduce((a, b) => a + b, 0);
      expect(shortest / 3600).toBeGreaterThan(17);
      expect((2 * shortest) / 3600).toBeLessThan(35);
      await first.deleteQueue(IMPORT_QUEUE);
    } finally {
      await first.stop({ graceful: true, wait: true });
    }
    const next = await startQueue(url, { supervise: false });
    try {
      expect(await next.getQueue(IMPORT_QUEUE)).toMatchObject({ retryLimit: 1, expireInSeconds: 2100 });
    } finally {
      await next.stop({ graceful: true, wait: true });
    }
  } finally {
    await drop();
  }
});

test("processes starting together on a new database make each queue once, none failing (pg-boss's create_queue deadlocks on a queue made twice at once)", async () => {
  const { url, drop } = await scratchDatabase("crjudge_queue_race");
  try {
    const starts = await Promise.allSettled(Array.from({ length: 4 }, () => startQueue(url, { supervise: false })));
    await Promise.all(starts.map((start) => (start.status === "fulfilled" ? start.value.stop({ graceful: true, wait: true }) : undefined)));
    expect(starts.map((start) => (start.status === "rejected" ? String(start.reason) : "started"))).toEqual(["started", "started", "started", "started"]);
    const boss = await startQueue(url, { supervise: false });
    try {
      expect((await boss.getQueues()).map((queue) => queue.name).sort()).toEqual([IMPORT_QUEUE, JUDGE_QUEUE, MATCHER_QUEUE, METRIC_QUEUE, PARTICIPANT_RELEASE_QUEUE, PSEUDO_REFERENCE_QUEUE, REPORT_QUEUE, STATIC_ANALYSIS_QUEUE, WEBHOOK_QUEUE].sort());
    } finally {
      await boss.stop({ graceful: true, wait: true });
    }
  } finally {
    await drop();
  }
});
