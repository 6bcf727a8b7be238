/**
 * Keeps a child process running: when it exits without being asked to, it is started again
 * after a delay that grows while it keeps crashing soon after starting (crash loop) and
 * returns to the shortest once it has run for a while.
 */
import type { ChildProcess } from "node:child_process";

export const RESTART = {
  firstDelayMs: 200,
  maxDelayMs: 30_000,
  /** A child that ran this long before exiting is not crash-looping. */
  stableAfterMs: 30_000,
};

/** The delay before the next start after `crashes` consecutive early exits (0 for the first). */
export function restartDelay(crashes: number): number {
  return Math.min(RESTART.firstDelayMs * 2 ** crashes, RESTART.maxDelayMs);
}

export interface Supervised {
  /** The running child, if any. */
  current: () => ChildProcess | undefined;
  /**
   * Starts the child no more, leaving a running one running until `stop`: a shutdown holds every
   * supervisor first, as Ctrl-C's SIGINT reaches the children too and each may exit on its own
   * before its turn to be stopped comes.
   */
  hold: () => void;
  /** Stops supervising and ends the child: `end` asks it to stop, SIGKILL after `timeoutMs`. */
  stop: (timeoutMs: number) => Promise<void>;
}

export interface SuperviseOptions {
  name: string;
  start: () => ChildProcess | Promise<ChildProcess>;
  log: (line: string) => void;
  /** How to ask the child to stop (default SIGTERM). */
  end?: (child: ChildProcess) => void;
}

export function exited(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Starts `options.start()` now and again whenever the child exits, until `stop`. */
export async function supervise(options: SuperviseOptions): Promise<Supervised> {
  let child: ChildProcess | undefined;
  let stopping = false;
  let crashes = 0;
  let timer: NodeJS.Timeout | undefined;

  const launch = async () => {
    timer = undefined;
    if (stopping) return;
    try {
      child = await options.start();
    } catch (error) {
      options.log(`${options.name} could not start: ${error instanceof Error ? error.message : String(error)}`);
      schedule(Date.now());
      return;
    }
    const startedAt = Date.now();
    const self = child;
    options.log(`${options.name} running (pid ${self.pid})`);
    self.once("exit", (code, signal) => {
      if (child === self) child = undefined;
      if (stopping) return;
      options.log(`${options.name} exited (${signal ?? `code ${code}`}); restarting`);
      schedule(startedAt);
    });
  };

  const schedule = (startedAt: number) => {
    if (Date.now() - startedAt >= RESTART.stableAfterMs) crashes = 0;
    const delay = restartDelay(crashes);
    crashes += 1;
    if (delay > RESTART.firstDelayMs) options.log(`${options.name}: next start in ${(delay / 1000).toFixed(1)} s`);
    timer = setTimeout(() => void launch(), delay);
  };

  const hold = () => {
    stopping = true;
    if (timer) clearTimeout(timer);
  };
  await launch();
  return {
    current: () => child,
    hold,
    stop: async (timeoutMs) => {
      hold();
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      (options.end ?? ((c) => c.kill("SIGTERM")))(running);
      if (await exited(running, timeoutMs)) return;
      options.log(`${options.name} did not stop within ${timeoutMs / 1000} s; killing it`);
      running.kill("SIGKILL");
      await exited(running, 1000);
    },
  };
}
