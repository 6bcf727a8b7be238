/**
 * The difference of two readings of a PostgreSQL server's CPU (scripts/bench/support/postgres-cpu.ts):
 * running processes from their own accounts, exited ones from the postmaster's account of its
 * reaped children, kept in 10 ms ticks.
 */
import { describe, expect, test } from "vitest";
import { type PostgresCpuReading, postgresCpuBetween } from "@/scripts/bench/support/postgres-cpu";
import { seededRandom } from "@/lib/stats";

const reading = (byProcess: Record<string, number>, exitedMs: number): PostgresCpuReading => ({ byProcess: new Map(Object.entries(byProcess)), exitedMs });

describe("postgresCpuBetween", () => {
  test("a backend that exited between the readings counts for what it used after the first", () => {
    // The postmaster used 2 ms, backend a 30 ms, and backend b 30 ms before it exited (50 -> 80 ms).
    expect(postgresCpuBetween(reading({ "1@5": 10, "2@9": 100, "3@9": 50 }, 0), reading({ "1@5": 12, "2@9": 130 }, 80))).toBe(62);
  });

  test("a backend that started and exited between the readings counts whole", () => {
    expect(postgresCpuBetween(reading({ "1@5": 10 }, 200), reading({ "1@5": 10 }, 240))).toBe(40);
  });

  test("a process id reused by a new backend is another process", () => {
    // The old backend had used 500 ms when read and exited at 500 ms; the new one used 20 ms.
    expect(postgresCpuBetween(reading({ "7@100": 500 }, 0), reading({ "7@200": 20 }, 500))).toBe(20);
  });

  test("an exited backend read finer than the ticks of the exited account adds nothing, not less", () => {
    expect(postgresCpuBetween(reading({ "2@9": 55.3 }, 0), reading({}, 50))).toBe(0);
  });

  test("no change is no CPU; the order the processes were read in does not matter", () => {
    const before = reading({ "1@5": 10, "2@9": 100, "3@9": 50 }, 30);
    expect(postgresCpuBetween(before, before)).toBe(0);
    const after = reading({ "3@9": 51, "1@5": 12, "4@11": 7 }, 130);
    const reversed = reading(Object.fromEntries([...after.byProcess].reverse()), 130);
    expect(postgresCpuBetween(before, reversed)).toBe(postgresCpuBetween(before, after));
    expect(postgresCpuBetween(before, after)).toBe(2 + 1 + 7 + (130 - 30 - 100));
  });

  test.each([1, 2, 3, 4])("on a simulated server, never negative and within a tick of the CPU used (seed %i)", (seed) => {
    const random = seededRandom(seed);
    // Each process's exact CPU so far; the exact time of the reaped ones, which a reading shows in whole ticks.
    const running = new Map<string, number>([["1@0", 0]]);
    let exited = 0;
    let used = 0;
    let next = 2;
    const readings: { reading: PostgresCpuReading; used: number }[] = [];
    for (let step = 0; step < 300; step++) {
      for (const [process, ms] of running) {
        const work = random() < 0.5 ? 0 : random() * 30;
        running.set(process, ms + work);
        used += work;
      }
      if (random() < 0.3) running.set(`${next++}@${step}`, 0);
      if (random() < 0.25 && running.size > 1) {
        const process = [...running.keys()][1 + Math.floor(random() * (running.size - 1))];
        exited += running.get(process)!;
        running.delete(process);
      }
      if (random() < 0.4) readings.push({ reading: { byProcess: new Map(running), exitedMs: Math.floor(exited / 10) * 10 }, used });
    }
    expect(readings.length).toBeGreaterThan(50);
    for (let i = 0; i < readings.length; i++)
      for (let j = i; j < readings.length; j++) {
        const between = postgresCpuBetween(readings[i].reading, readings[j].reading);
        expect(between).toBeGreaterThanOrEqual(0);
        expect(Math.abs(between - (readings[j].used - readings[i].used))).toBeLessThan(10);
      }
  });
});
