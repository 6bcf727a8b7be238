/**
 * CPU time of a local PostgreSQL server and all its processes (postmaster, backends, background
 * workers), and of any process tree (the product npm start runs), read from /proc: a metric job's
 * cost is the worker's CPU plus the database's, and on a shared machine wall time shows neither. Finds the server by the port in its command line.
 * Linux only; null elsewhere. Time of backends that exited between two readings is lost, so read
 * it around work done on pooled (long-lived) connections.
 */
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100;

function stat(pid: string): { ppid: string; ticks: number } | null {
  try {
    // Fields after the command's closing parenthesis: state ppid … utime(14) stime(15).
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return { ppid: fields[1], ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/**
 * Milliseconds a single-threaded process (a PostgreSQL backend) has run on a CPU, from the
 * scheduler's nanosecond account (/proc/PID/schedstat); the tick counts of stat are sampled
 * every 10 ms, which for short statements on a busy machine can be off by the whole interval.
 */
function runMs(pid: string, ticks: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return (ticks * 1000) / TICKS_PER_SECOND;
  }
}

/** Milliseconds of CPU used so far by one PostgreSQL backend (its pg_backend_pid()); null without /proc. */
export function backendCpuMs(pid: number): number | null {
  const s = stat(String(pid));
  return s && runMs(String(pid), s.ticks);
}

/** Ids of the running processes; null without /proc. */
function processIds(): string[] | null {
  try {
    return readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
}

/** Milliseconds of CPU used so far by the server listening on `port` and by each of its children, by process id. */
export function postgresCpuByProcess(port: number): Map<string, number> | null {
  const pids = processIds();
  if (pids === null) return null;
  const postmaster = pids.find((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      return args[0].endsWith("/postgres") && args[args.indexOf("-p") + 1] === String(port);
    } catch {
      return false;
    }
  });
  if (postmaster === undefined) return null;
  const used = new Map<string, number>();
  for (const pid of pids) {
    const s = stat(pid);
    if (s && (pid === postmaster || s.ppid === postmaster)) used.set(pid, runMs(pid, s.ticks));
  }
  return used;
}

/**
 * CPU milliseconds the server's processes used between two postgresCpuByProcess readings: a
 * process that exited in between (an idle pooled connection closed, an autovacuum worker) is
 * left out instead of its whole past being subtracted.
 */
export function postgresCpuBetween(before: Map<string, number>, after: Map<string, number>): number {
  let ms = 0;
  for (const [pid, used] of after) ms += used - (before.get(pid) ?? 0);
  return ms;
}

/** Milliseconds of CPU used so far by the server listening on `port` and its children. */
export function postgresCpuMs(port: number): number | null {
  const used = postgresCpuByProcess(port);
  return used && [...used.values()].reduce((a, b) => a + b, 0);
}

/** Milliseconds of CPU used so far by process `root` and all its descendants (exited ones are not counted). */
export function processTreeCpuMs(root: number): number | null {
  const stats = new Map((processIds() ?? []).flatMap((pid) => {
    const s = stat(pid);
    return s ? [[pid, s] as const] : [];
  }));
  if (!stats.has(String(root))) return null;
  const inTree = (pid: string): boolean => {
    for (let p: string | undefined = pid; p !== undefined && p !== "0"; p = stats.get(p)?.ppid) if (p === String(root)) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, s] of stats) if (inTree(pid)) ticks += s.ticks;
  return (ticks * 1000) / TICKS_PER_SECOND;
}
