/**
 * A pure function run on a worker thread, so that a long computation uses the machine's second
 * core while the calling thread goes on with other work. The function travels as its source text
 * (`Function.prototype.toString`): it must refer to nothing outside its own body but JavaScript's
 * globals, and take and return structured-cloneable values. This works alike under tsx, vitest,
 * the esbuild bundles and Next.js, where a worker file of its own would need a different path and
 * loader in each. One worker per function, started on first use and kept for the next calls; it
 * holds the process open only while a call is pending. When the worker cannot start or fails, the
 * call runs on the calling thread instead: the same function, so the same result.
 */
import { Worker } from "node:worker_threads";

interface Pending<R> {
  resolve: (value: R) => void;
  fallback: () => void;
}

/**
 * The worker's script. tsx's esbuild keeps function names with a `__name(fn, "name")` helper
 * that a function's source text may call for its inner functions: here it is the identity.
 */
const workerScript = (source: string) => `
const __name = (target) => target;
const run = (${source});
require("node:worker_threads").parentPort.on("message", ({ id, args }) => {
  let reply;
  try {
    reply = { id, value: run(...args) };
  } catch {
    reply = { id, failed: true };
  }
  require("node:worker_threads").parentPort.postMessage(reply);
});`;

export function offThread<Args extends unknown[], R>(fn: (...args: Args) => R): (...args: Args) => Promise<R> {
  let worker: Worker | null = null;
  let broken = false;
  let nextId = 0;
  const pending = new Map<number, Pending<R>>();

  const settleAll = () => {
    for (const call of pending.values()) call.fallback();
    pending.clear();
  };
  const start = (): Worker | null => {
    if (broken) return null;
    if (worker) return worker;
    try {
      worker = new Worker(workerScript(fn.toString()), { eval: true });
    } catch {
      broken = true;
      return null;
    }
    worker.on("message", ({ id, value, failed }: { id: number; value?: R; failed?: boolean }) => {
      const call = pending.get(id);
      pending.delete(id);
      if (pending.size === 0) worker?.unref();
      if (!call) return;
      if (failed) call.fallback();
      else call.resolve(value as R);
    });
    // A worker that fails to load its script or dies: its calls, and every later one, run here.
    const fail = () => {
      broken = true;
      worker = null;
      settleAll();
    };
    worker.on("error", fail);
    worker.on("exit", fail);
    return worker;
  };

  return (...args: Args) =>
    new Promise<R>((resolve, reject) => {
      const here = () => {
        try {
          resolve(fn(...args));
        } catch (error) {
          reject(error);
        }
      };
      const thread = start();
      if (!thread) return here();
      const id = nextId++;
      pending.set(id, { resolve, fallback: here });
      thread.ref();
      thread.postMessage({ id, args });
    });
}
