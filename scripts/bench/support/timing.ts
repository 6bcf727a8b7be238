/**
 * Bench timing on a shared machine: the median of several runs of both wall time and this
 * process's CPU time (process.cpuUsage, user + system), so that other work on the machine
 * shows as wall > CPU instead of hiding in one number.
 */
export interface Timing {
  wallMs: number;
  cpuMs: number;
  runs: number;
}

/** The middle value (the upper one of an even count), as every bench reports its runs. */
export const median = (values: readonly number[]) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

function summarise(wall: number[], cpu: number[]): Timing {
  return { wallMs: median(wall), cpuMs: median(cpu), runs: wall.length };
}

/** Runs `run` once to warm up (unless `warmUp` is false), then `runs` times; medians of wall and CPU milliseconds. */
export function measure(run: () => unknown, runs = 5, warmUp = true): Timing {
  if (warmUp) run();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    run();
    wall.push(performance.now() - t0);
    cpu.push(cpuMs(process.cpuUsage(c0)));
  }
  return summarise(wall, cpu);
}

/** As measure, for asynchronous work, without a warm-up run (`prepare` runs untimed before each). */
export async function measureAsync(run: () => Promise<unknown>, runs = 3, prepare: () => Promise<unknown> = async () => {}): Promise<Timing> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    await prepare();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await run();
    wall.push(performance.now() - t0);
    cpu.push(cpuMs(process.cpuUsage(c0)));
  }
  return summarise(wall, cpu);
}

export const formatTiming = (t: Timing) => `${t.wallMs.toFixed(1)} ms wall, ${t.cpuMs.toFixed(1)} ms CPU (medians of ${t.runs})`;
