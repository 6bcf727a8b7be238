/**
 * CPU time of a local PostgreSQL server and all its processes (postmaster, backends, background
 * workers), and of any process tree (the product npm start runs), read from /proc: a metric job's
 * cost is the worker's CPU plus the database's, and on a shared machine wall time shows neither. Finds the server by the port in its command line.
 * Linux only; null elsewhere. A process that exited is counted through its parent's account of
 * its reaped children (cutime and cstime), so backends that close between two readings keep their time.
 */
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100;
const ticksToMs = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;

/** A process's parent, CPU ticks (utime + stime), ticks of its reaped children (cutime + cstime) and start time. */
function stat(pid: string): { ppid: string; ticks: number; childTicks: number; start: string } | null {
  try {
    // Fields after the command's closing parenthesis: state ppid … utime(14) stime(15) cutime(16) cstime(17) … starttime(22).
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return { ppid: fields[1], ticks: Number(fields[11]) + Number(fields[12]), childTicks: Number(fields[13]) + Number(fields[14]), start: fields[19] };
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
    return ticksToMs(ticks);
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

/**
 * The server's CPU at one moment: milliseconds used so far by each of its running processes (by
 * process id and start time, so a reused id is another process), and by those that exited.
 */
export interface PostgresCpuReading {
  byProcess: Map<string, number>;
  exitedMs: number;
}

/** The CPU of the server listening on `port`: the postmaster, each of its children, and its children that exited. */
export function postgresCpuByProcess(port: number): PostgresCpuReading | null {
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
  // A child reaped while its siblings are read would be counted twice or not at all: read again then.
  for (;;) {
    const exited = stat(postmaster)?.childTicks;
    if (exited === undefined) return null;
    const byProcess = new Map<string, number>();
    for (const pid of pids) {
      const s = stat(pid);
      if (s && (pid === postmaster || s.ppid === postmaster)) byProcess.set(`${pid}@${s.start}`, runMs(pid, s.ticks));
    }
    if (stat(postmaster)?.childTicks === exited) return { byProcess, exitedMs: ticksToMs(exited) };
  }
}

/**
 * CPU milliseconds the server used between two readings: what each running process added (all of
 * it for one started since), and what the exited account grew by, less what `before` had already
 * counted of the processes that exited since. That account is kept in 10 ms ticks, finer readings
 * of the same processes can exceed it by a tick or two: it never adds less than nothing.
 */
export function postgresCpuBetween(before: PostgresCpuReading, after: PostgresCpuReading): number {
  let running = 0;
  for (const [process, ms] of after.byProcess) running += ms - (before.byProcess.get(process) ?? 0);
  let countedBefore = 0;
  for (const [process, ms] of before.byProcess) if (!after.byProcess.has(process)) countedBefore += ms;
  return running + Math.max(0, after.exitedMs - before.exitedMs - countedBefore);
}

/** The last reading of each server by postgresCpuMs, and the total it gave. */
const lastReading = new Map<number, { reading: PostgresCpuReading; ms: number }>();

/**
 * Milliseconds of CPU used by the server listening on `port`: all its processes had used at this
 * process's first reading, plus postgresCpuBetween of each reading and the one before, so that
 * the difference of two readings is never negative.
 */
export function postgresCpuMs(port: number): number | null {
  const reading = postgresCpuByProcess(port);
  if (reading === null) return null;
  const last = lastReading.get(port);
  const ms = last ? last.ms + postgresCpuBetween(last.reading, reading) : [...reading.byProcess.values()].reduce((a, b) => a + b, reading.exitedMs);
  lastReading.set(port, { reading, ms });
  return ms;
}

/** Milliseconds of CPU used so far by process `root` and all its descendants, those that exited included (their parents' reaped children). */
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
  for (const [pid, s] of stats) if (inTree(pid)) ticks += s.ticks + s.childTicks;
  return ticksToMs(ticks);
}
