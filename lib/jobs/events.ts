/**
 * What a finished job tells other domains in the same process: a domain announces its jobs'
 * results (jobDone) and another listens (onJobDone), so neither imports the other. Listeners are
 * registered at start by the process that runs the jobs (scripts/worker.ts); a listener's failure
 * is logged, never the job's.
 */
type Listener = (result: unknown) => Promise<void> | void;

const listeners = new Map<string, Set<Listener>>();

/** Calls `listener` with the result of every job of `queue` finished in this process; returns its removal. */
export function onJobDone<T>(queue: string, listener: (result: T) => Promise<void> | void): () => void {
  const set = listeners.get(queue) ?? new Set<Listener>();
  listeners.set(queue, set);
  set.add(listener as Listener);
  return () => set.delete(listener as Listener);
}

/** Announces a finished job of `queue` to its listeners, one after the other. */
export async function jobDone<T>(queue: string, result: T): Promise<void> {
  for (const listener of listeners.get(queue) ?? []) {
    try {
      await listener(result);
    } catch (error) {
      console.error(`job queue: a listener of ${queue} failed: ${(error as Error).message}`);
    }
  }
}
