import { expect, test } from "vitest";
import { IMPORT_QUEUE, JUDGE_QUEUE, MATCHER_QUEUE, METRIC_QUEUE, PARTICIPANT_RELEASE_QUEUE, PSEUDO_REFERENCE_QUEUE, REPORT_QUEUE, startQueue, STATIC_ANALYSIS_QUEUE } from "@/lib/jobs";
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
      expect((await boss.getQueues()).map((queue) => queue.name).sort()).toEqual([IMPORT_QUEUE, JUDGE_QUEUE, MATCHER_QUEUE, METRIC_QUEUE, PARTICIPANT_RELEASE_QUEUE, PSEUDO_REFERENCE_QUEUE, REPORT_QUEUE, STATIC_ANALYSIS_QUEUE].sort());
    } finally {
      await boss.stop({ graceful: true, wait: true });
    }
  } finally {
    await drop();
  }
});
