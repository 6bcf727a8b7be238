import { spawn, type ChildProcess } from "node:child_process";
import { describe, expect, test } from "vitest";
import { RESTART, restartDelay, supervise } from "@/lib/process/supervise";

const node = (code: string) => (): ChildProcess => spawn(process.execPath, ["-e", code], { stdio: "ignore" });
const idle = "setInterval(() => {}, 1000)";

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("restartDelay", () => {
  test("doubles with each early exit and stops growing at the maximum", () => {
    expect([0, 1, 2, 3].map(restartDelay)).toEqual([200, 400, 800, 1600]);
    expect(restartDelay(20)).toBe(RESTART.maxDelayMs);
  });
});

describe("supervise", () => {
  test("starts a killed child again, and stop ends it for good", async () => {
    const log: string[] = [];
    const supervised = await supervise({ name: "idle", start: node(idle), log: (line) => log.push(line) });
    const first = supervised.current()!;
    first.kill("SIGKILL");
    await until(() => supervised.current() !== undefined && supervised.current() !== first, 5_000);
    const second = supervised.current()!;
    expect(second.pid).not.toBe(first.pid);
    expect(log.some((line) => line.startsWith("idle exited (SIGKILL)"))).toBe(true);

    await supervised.stop(2_000);
    expect(second.signalCode).toBe("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, RESTART.firstDelayMs + 300));
    expect(supervised.current()).toBeUndefined();
  });

  test("a held supervisor starts no child again when its child exits on its own, and stop still ends a running one", async () => {
    const log: string[] = [];
    const held = await supervise({ name: "held", start: node(idle), log: (line) => log.push(line) });
    const running = await supervise({ name: "running", start: node(idle), log: (line) => log.push(line) });
    held.hold();
    running.hold();
    const first = held.current()!;
    // Ctrl-C's SIGINT reaches the child itself, which exits before it is asked to stop.
    first.kill("SIGINT");
    await new Promise((resolve) => setTimeout(resolve, RESTART.firstDelayMs + 500));
    expect(held.current()).toBeUndefined();
    expect(log.filter((line) => line.includes("restarting"))).toEqual([]);
    await held.stop(2_000);

    const child = running.current()!;
    await running.stop(2_000);
    expect(child.signalCode).toBe("SIGTERM");
    expect(running.current()).toBeUndefined();
  });

  test("a child that ignores the stop request is killed after the timeout", async () => {
    const start = () => spawn(process.execPath, ["-e", `process.on("SIGTERM", () => {}); console.log("ready"); ${idle}`], { stdio: ["ignore", "pipe", "ignore"] });
    const supervised = await supervise({ name: "stubborn", start, log: () => undefined });
    const child = supervised.current()!;
    // Once it says so, its SIGTERM handler is installed.
    await new Promise((resolve) => child.stdout!.once("data", resolve));
    const asked = Date.now();
    await supervised.stop(500);
    expect(child.signalCode).toBe("SIGKILL");
    expect(Date.now() - asked).toBeGreaterThanOrEqual(500);
  });
});
